import { afterEach, describe, expect, it, vi } from 'vitest';
import { call } from '../../../src/renderer/src/api/client';
import { setToken } from '../../../src/renderer/src/api/token';
import { paramPairs } from '../../../src/renderer/src/api/urls';

describe('paramPairs', () => {
  it('writes lists of names as repeats, objects as JSON, the rest as text, in the given order', () => {
    expect(
      paramPairs({
        resource_id: 'r',
        fields: ['a,b', 'c'],
        sort: '"a" desc',
        filters: { a: [1, 2] },
        limit: 0,
        include_total: false,
        bbox: [1, 2, 3, 4],
        q: undefined,
      }),
    ).toEqual([
      ['resource_id', 'r'],
      ['fields', 'a,b'],
      ['fields', 'c'],
      ['sort', '"a" desc'],
      ['filters', '{"a":[1,2]}'],
      ['limit', '0'],
      ['include_total', 'false'],
      ['bbox', '[1,2,3,4]'],
    ]);
  });
});

describe('call', () => {
  const requests: { url: string; init: RequestInit }[] = [];
  const answer = (result: unknown) => new Response(JSON.stringify({ success: true, result }), { status: 200 });
  afterEach(() => {
    vi.unstubAllGlobals();
    requests.length = 0;
    setToken(null);
  });
  const stubFetch = (result: unknown) =>
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      requests.push({ url, init });
      return answer(result);
    });

  it('sends a side-effect-free action as an anonymous GET on the URL the API panel shows', async () => {
    stubFetch({ field: 'a', type: 'text', values: [], distinct: 0, rows: 0 });
    setToken('secret');
    const facets = await call('deskstore_facets', { resource_id: 'r', field: 'a', filters: { b: 'x' }, limit: 5 });
    expect(facets.field).toBe('a');
    expect(requests).toHaveLength(1);
    expect(requests[0]!.url).toBe('/api/3/action/deskstore_facets?resource_id=r&field=a&filters=%7B%22b%22%3A%22x%22%7D&limit=5');
    expect(requests[0]!.init.method).toBe('GET');
    expect(JSON.stringify(requests[0]!.init.headers)).not.toContain('secret');
  });

  it('sends a write as POST with the token and the parameters as JSON', async () => {
    stubFetch(null);
    setToken('secret');
    await call('package_delete', { id: 'p' });
    expect(requests[0]!.url).toBe('/api/3/action/package_delete');
    expect(requests[0]!.init.method).toBe('POST');
    expect(requests[0]!.init.headers).toMatchObject({ Authorization: 'secret', 'Content-Type': 'application/json' });
    expect(requests[0]!.init.body).toBe('{"id":"p"}');
  });

  it('sends a read with a given token as POST, so the token travels', async () => {
    stubFetch({ authorized: true });
    expect((await call('deskstore_token_check', {}, { token: 'candidate' })).authorized).toBe(true);
    expect(requests[0]!.init.method).toBe('POST');
    expect(requests[0]!.init.headers).toMatchObject({ Authorization: 'candidate' });
  });
});
