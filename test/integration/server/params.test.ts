import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, rawRequest, startTestServer, TOKEN, type TestServer } from './helpers';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  await t.stop();
});

const form = 'application/x-www-form-urlencoded';
const post = (path: string, body: string | FormData | undefined, contentType?: string, headers: Record<string, string> = {}) =>
  call(`${t.url}${path}`, {
    method: 'POST',
    ...(body === undefined ? {} : { body }),
    headers: contentType ? { 'Content-Type': contentType, ...headers } : headers,
  });

describe('parameter sources in CKAN order (docs/ckan-contract.md §1.2)', () => {
  it('form body: single → string, repeated → list of strings', async () => {
    const res = await post('/api/3/action/echo_post', 'resource_id=abc&limit=1&fields=a&fields=b&q=a+b%26c', form);
    expect(res.status).toBe(200);
    expect(res.json.result.params).toEqual({ resource_id: 'abc', limit: '1', fields: ['a', 'b'], q: 'a b&c' });
  });

  it("curl -d '{json}': a single field with value '' is parsed as JSON", async () => {
    // What `curl -d '{"resource_id": "abc", "limit": 5}'` sends.
    const res = await post('/api/3/action/echo_post', '{"resource_id": "abc", "limit": 5, "filters": {"a": [1, 2]}}', form);
    expect(res.status).toBe(200);
    expect(res.json.result.params).toEqual({ resource_id: 'abc', limit: 5, filters: { a: [1, 2] } });
  });

  it("the JSON-as-field-name rule also takes a value of '1'", async () => {
    const body = `${encodeURIComponent('{"a":1}')}=1`;
    const res = await post('/api/3/action/echo_post', body, form);
    expect(res.json.result.params).toEqual({ a: 1 });
  });

  it('a single ordinary field with value "1" is an invalid JSON error, as in CKAN', async () => {
    const res = await post('/api/3/action/echo_post', 'force=1', form);
    expect(res.status).toBe(400);
    expect(res.json).toMatch(/^Bad request - JSON Error: Error decoding JSON data. /);
  });

  it('a single field with another value is a plain form', async () => {
    const res = await post('/api/3/action/echo_post', 'resource_id=abc', form);
    expect(res.json.result.params).toEqual({ resource_id: 'abc' });
  });

  it('curl quirk: a literal + in the JSON is form-decoded first and corrupts it', async () => {
    const res = await post('/api/3/action/echo_post', '{"q": "a+b"}', form);
    expect(res.json.result.params).toEqual({ q: 'a b' });
  });

  it('GET: query string, single → string, repeated → list', async () => {
    const res = await call(`${t.url}/api/3/action/echo?fields=a&fields=b&limit=2&empty=&plus=a+b`);
    expect(res.json.result.params).toEqual({ fields: ['a', 'b'], limit: '2', empty: '', plus: 'a b' });
  });

  it('GET without a query string → {}', async () => {
    const res = await call(`${t.url}/api/3/action/echo`);
    expect(res.json.result.params).toEqual({});
  });

  it('POST to a GET-able action: the query string is used and a JSON body ignored', async () => {
    const res = await post('/api/3/action/echo?resource_id=fromquery', '{"resource_id": "frombody"}', 'application/json');
    expect(res.json.result.params).toEqual({ resource_id: 'fromquery' });
  });

  it('POST to a GET-able action: a form body still wins over the query string', async () => {
    const res = await post('/api/3/action/echo?resource_id=fromquery', 'resource_id=fromform&x=1', form);
    expect(res.json.result.params).toEqual({ resource_id: 'fromform', x: '1' });
  });

  it('POST-only action: the query string is ignored, the JSON body used', async () => {
    const res = await post('/api/3/action/echo_post?resource_id=fromquery', '{"resource_id": "frombody"}', 'application/json');
    expect(res.json.result.params).toEqual({ resource_id: 'frombody' });
  });

  it('an empty query string (`?` or `?&`) does not count', async () => {
    const res = await post('/api/3/action/echo?&', '{"a": 1}', 'application/json');
    expect(res.json.result.params).toEqual({ a: 1 });
  });

  it('JSON body keeps types, nesting and key order', async () => {
    const params = { resource_id: 'x', records: [{ a: 1, b: null, c: [true, 2.5] }], z: 1, a: 2 };
    const res = await post('/api/3/action/echo_post', JSON.stringify(params), 'application/json');
    expect(res.json.result.params).toEqual(params);
    expect(Object.keys(res.json.result.params)).toEqual(['resource_id', 'records', 'z', 'a']);
  });

  it('empty bodies → {}', async () => {
    for (const type of ['application/json', form, undefined]) {
      const res = await post('/api/3/action/echo_post', '', type);
      expect(res.status).toBe(200);
      expect(res.json.result.params).toEqual({});
    }
  });

  it('is lenient: JSON sent as text/plain or without a content type is still JSON', async () => {
    const plain = await post('/api/3/action/echo_post', '{"a": 1}', 'text/plain;charset=UTF-8');
    expect(plain.json.result.params).toEqual({ a: 1 });
    const none = await rawRequest({ port: t.port, method: 'POST', path: '/api/3/action/echo_post', body: '{"b": 2}' });
    expect(none.status).toBe(200);
    expect((none.json() as { result: { params: unknown } }).result.params).toEqual({ b: 2 });
  });

  it('reads a chunked JSON body (no Content-Length)', async () => {
    const parts = ['{"resource_id": ', '"abc", ', '"limit": 2}'];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = parts.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(next));
      },
    });
    const res = await call(`${t.url}/api/3/action/echo_post`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: stream,
      duplex: 'half',
    });
    expect(res.json.result.params).toEqual({ resource_id: 'abc', limit: 2 });
  });

  it('accepts a UTF-8 byte-order mark before JSON', async () => {
    const res = await post('/api/3/action/echo_post', '\uFEFF{"a": "è"}', 'application/json; charset=utf-8');
    expect(res.json.result.params).toEqual({ a: 'è' });
  });

  it('GET with a JSON body and no query string uses the body (as Werkzeug reads request.data)', async () => {
    const res = await rawRequest({
      port: t.port,
      method: 'GET',
      path: '/api/3/action/echo',
      headers: { 'content-type': 'application/json' },
      body: '{"a": 1}',
    });
    expect((res.json() as { result: { params: unknown } }).result.params).toEqual({ a: 1 });
  });

  it('keeps __proto__ an ordinary key', async () => {
    const res = await call(`${t.url}/api/3/action/echo?__proto__=x&constructor=y`);
    expect(res.json.result.params).toEqual(JSON.parse('{"__proto__": "x", "constructor": "y"}'));
    expect(Object.keys(res.json.result.params)).toEqual(['__proto__', 'constructor']);
  });
});

describe('JSON errors (docs/ckan-contract.md §2.3)', () => {
  it('invalid JSON → 400 bare string with the CKAN prefix', async () => {
    const res = await post('/api/3/action/echo_post', '{"resource_id": ', 'application/json');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/json;charset=utf-8');
    expect(typeof res.json).toBe('string');
    expect(res.json).toMatch(/^Bad request - JSON Error: Error decoding JSON data\. Error: /);
  });

  it('invalid JSON through the curl form quirk → same error', async () => {
    const res = await post('/api/3/action/echo_post', '{"a": ', form);
    expect(res.status).toBe(400);
    expect(res.json).toMatch(/^Bad request - JSON Error: Error decoding JSON data\. /);
  });

  it.each([
    ['[1, 2]', '[1, 2]'],
    ['"x"', "'x'"],
    ['null', 'None'],
    ['true', 'True'],
    ['3', '3'],
    ['["a", {"b": null}]', "['a', {'b': None}]"],
  ])('JSON %s that is not an object → "decoded to %s"', async (body, repr) => {
    const res = await post('/api/3/action/echo_post', body, 'application/json');
    expect(res.status).toBe(400);
    expect(res.json).toBe(`Bad request - JSON Error: Request data JSON decoded to ${repr} but it needs to be a dictionary.`);
  });

  it('non-object JSON via the curl quirk → the same dictionary error', async () => {
    const res = await post('/api/3/action/echo_post', '[1,2]', form);
    expect(res.json).toBe('Bad request - JSON Error: Request data JSON decoded to [1, 2] but it needs to be a dictionary.');
  });
});

describe('JSONP (docs/ckan-contract.md §1.2)', () => {
  // A browser tags requests from this server's own pages so; JSONP is only answered to those.
  const ownPage = { 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'no-cors', 'Sec-Fetch-Dest': 'script' };

  it('wraps a GET 200 in the callback, removes the key, and runs anonymous', async () => {
    const res = await call(`${t.url}/api/3/action/echo?callback=cb&a=1`, { headers: { Authorization: TOKEN, ...ownPage } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/javascript;charset=utf-8');
    expect(res.text.startsWith('cb({')).toBe(true);
    expect(res.text.endsWith('});')).toBe(true);
    const inner = JSON.parse(res.text.slice(3, -2));
    expect(inner.result.params).toEqual({ a: '1' });
    expect(inner.result.context.authorized).toBe(false);
  });

  it('accepts dotted JavaScript names and refuses anything else as a callback', async () => {
    const ok = await call(`${t.url}/api/3/action/echo?callback=jQuery_1.$done2`, { headers: ownPage });
    expect(ok.text.startsWith('jQuery_1.$done2({')).toBe(true);
    for (const bad of ['<x>&"\'', 'alert(1)//', 'a-b', '1cb', 'a..b', `a${'b'.repeat(200)}`]) {
      const res = await call(`${t.url}/api/3/action/echo?callback=${encodeURIComponent(bad)}`, { headers: ownPage });
      expect([bad, res.status, res.json]).toEqual([bad, 400, 'Bad request - callback must be a JavaScript function name']);
    }
  });

  it('is not answered to anything but this server’s own pages (another local port, an old browser, a script)', async () => {
    for (const headers of [{ 'Sec-Fetch-Site': 'same-site', 'Sec-Fetch-Mode': 'no-cors' }, {}]) {
      const res = await call(`${t.url}/api/3/action/echo?callback=cb`, { headers });
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toBe('application/json;charset=utf-8');
    }
  });

  it('does not wrap errors', async () => {
    const res = await call(`${t.url}/api/3/action/fail?kind=not_found&callback=cb`, { headers: ownPage });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json;charset=utf-8');
    expect(res.json.error.__type).toBe('Not Found Error');
  });

  it('a callback key in a POST body is removed and makes the request anonymous, without wrapping', async () => {
    const res = await post('/api/3/action/echo_post', '{"callback": "cb", "a": 1}', 'application/json', { Authorization: TOKEN });
    expect(res.headers.get('content-type')).toBe('application/json;charset=utf-8');
    expect(res.json.result.params).toEqual({ a: 1 });
    expect(res.json.result.context.authorized).toBe(false);
  });
});
