import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, rawRequest, startTestServer, type TestServer } from './helpers';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  await t.stop();
});

describe('URL shapes (docs/ckan-contract.md §1.1)', () => {
  it.each([
    '/api/action/echo',
    '/api/3/action/echo',
    '/en/api/action/echo',
    '/en/api/3/action/echo',
    '/it/api/action/echo',
    '/it/api/3/action/echo',
  ])('routes %s for GET and POST', async (path) => {
    const get = await call(`${t.url}${path}?a=1`);
    expect(get.status).toBe(200);
    expect(get.json.success).toBe(true);
    expect(get.json.result.params).toEqual({ a: '1' });
    const post = await call(`${t.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"b":2}',
    });
    expect(post.status).toBe(200);
    expect(post.json.result.params).toEqual({ b: 2 });
  });

  it.each([
    '/fr/api/3/action/echo',
    '/api/2/action/echo',
    '/api/1/action/echo',
    '/api/4/action/echo',
    '/EN/api/3/action/echo',
    '/api/3/action/',
    '/api/3/action/echo/',
    '/api/3/actions/echo',
    '/nope',
  ])('404s on %s', async (path) => {
    const res = await call(`${t.url}${path}`);
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ success: false, error: { __type: 'Not Found Error', message: 'Not found' } });
  });

  it('strips one locale segment only: /en/it/api/... is not the API', async () => {
    const post = await call(`${t.url}/en/it/api/3/action/echo`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(404);
    // GET under a locale is the UI (here: the "not built" page), never an action.
    const get = await call(`${t.url}/en/it/api/3/action/echo`);
    expect(get.headers.get('content-type')).toContain('text/html');
  });

  it('answers GET /api and /api/3 with a bare version object', async () => {
    for (const [path, version] of [
      ['/api', 1],
      ['/api/', 1],
      ['/api/3', 3],
      ['/it/api/3', 3],
    ] as const) {
      const res = await call(`${t.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json;charset=utf-8');
      expect(res.json).toEqual({ version });
    }
  });

  it('405s other methods on routed paths, with Allow', async () => {
    const put = await call(`${t.url}/api/3/action/echo`, { method: 'PUT', body: '{}' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
    const post = await call(`${t.url}/api/3`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    const options = await call(`${t.url}/api/3/action/echo`, { method: 'OPTIONS' });
    expect(options.status).toBe(405);
    expect(options.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('rejects non-origin-form request targets', async () => {
    const res = await rawRequest({ port: t.port, path: `http://127.0.0.1:${t.port}/api/3` });
    expect(res.status).toBe(400);
  });
});

describe('pre-action errors (docs/ckan-contract.md §2.3)', () => {
  it('unknown action → 400 bare JSON string', async () => {
    for (const method of ['GET', 'POST']) {
      const res = await call(`${t.url}/api/3/action/datastore_nope`, { method });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/json;charset=utf-8');
      expect(res.json).toBe('Bad request - Action name not known: datastore_nope');
    }
  });

  it('unknown action name is reported decoded', async () => {
    const res = await call(`${t.url}/api/3/action/a%20b`);
    expect(res.json).toBe('Bad request - Action name not known: a b');
  });

  it('GET on a POST-only action → 400', async () => {
    for (const query of ['', '?a=1']) {
      const res = await call(`${t.url}/api/3/action/echo_post${query}`);
      expect(res.status).toBe(400);
      expect(res.json).toBe('Bad request - JSON Error: Invalid request. Please use POST method for your request');
    }
  });
});

describe('help URL (docs/ckan-contract.md §2.1)', () => {
  it('is absolute, always /api/3/, and keeps the locale prefix', async () => {
    const plain = await call(`${t.url}/api/action/echo`);
    expect(plain.json.help).toBe(`http://127.0.0.1:${t.port}/api/3/action/help_show?name=echo`);
    const it = await call(`${t.url}/it/api/action/echo`);
    expect(it.json.help).toBe(`http://127.0.0.1:${t.port}/it/api/3/action/help_show?name=echo`);
    const err = await call(`${t.url}/en/api/3/action/fail?kind=not_found`);
    expect(err.json.help).toBe(`http://127.0.0.1:${t.port}/en/api/3/action/help_show?name=fail`);
  });
});

describe('action context', () => {
  it('carries siteUrl, locale, locale-free path and raw query', async () => {
    const res = await call(`${t.url}/it/api/3/action/echo?q=caf%C3%A9&x=a+b&x=c`);
    expect(res.json.result.context).toEqual({
      authorized: false,
      locale: 'it',
      siteUrl: `http://127.0.0.1:${t.port}`,
      path: '/api/3/action/echo',
      rawQuery: 'q=caf%C3%A9&x=a+b&x=c',
      method: 'GET',
    });
    const post = await call(`${t.url}/api/action/echo_post`, { method: 'POST', body: '{}' });
    expect(post.json.result.context).toMatchObject({ locale: null, path: '/api/action/echo_post', rawQuery: '', method: 'POST' });
  });

  it('re-quotes the path like CKAN_CURRENT_URL', async () => {
    const res = await call(`${t.url}/api/3/action/%65cho`);
    expect(res.json.result.context.path).toBe('/api/3/action/echo');
  });
});
