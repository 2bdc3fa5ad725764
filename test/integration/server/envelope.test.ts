import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from './helpers';

let t: TestServer;
let help: string;
beforeEach(async () => {
  t = await startTestServer();
  help = `http://127.0.0.1:${t.port}/api/3/action/help_show?name=fail`;
});
afterEach(async () => {
  await t.stop();
});

const fail = (kind: string) => call(`${t.url}/api/3/action/fail?kind=${kind}`);

describe('response envelope (docs/ckan-contract.md §2)', () => {
  it('success: help, success, result in that order, JSON content type', async () => {
    const res = await call(`${t.url}/api/3/action/echo?a=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json;charset=utf-8');
    expect(Object.keys(res.json)).toEqual(['help', 'success', 'result']);
    expect(res.json.success).toBe(true);
  });

  it('splices RawJson fragments verbatim (2.50 keeps its text), drops undefined members', async () => {
    const res = await call(`${t.url}/api/3/action/raw`);
    expect(res.text).toContain('"result": {"records": [{"price":2.50,"n":1}], "total": 1}');
    expect(res.json.result.records).toEqual([{ price: 2.5, n: 1 }]);
  });

  it('ValidationError → 409 Validation Error with the members, no message', async () => {
    const res = await fail('validation');
    expect(res.status).toBe(409);
    expect(res.json).toEqual({
      help,
      success: false,
      error: { limit: ['Invalid integer'], records_row: 3, __type: 'Validation Error' },
    });
  });

  it("errors in CKAN's key order and bytes: help, error, success (issue 23)", async () => {
    const res = await fail('validation');
    expect(Object.keys(res.json)).toEqual(['help', 'error', 'success']);
    expect(res.text).toBe(
      `{"help": "${help}", "error": {"limit": ["Invalid integer"], "records_row": 3, "__type": "Validation Error"}, "success": false}`,
    );
  });

  it('ValidationError cannot spoof __type', async () => {
    const res = await fail('validation_type');
    expect(res.json.error).toEqual({ field: ['x'], __type: 'Validation Error' });
  });

  it('NotFoundError → 404 Not Found Error', async () => {
    expect((await fail('not_found')).json).toEqual({
      help,
      success: false,
      error: { __type: 'Not Found Error', message: 'Not found' },
    });
    const detail = await fail('not_found_detail');
    expect(detail.status).toBe(404);
    expect(detail.json.error).toEqual({ __type: 'Not Found Error', message: 'Not found: Resource "abc" was not found.' });
  });

  it('AuthorizationError → 403 Authorization Error', async () => {
    const res = await fail('authorization');
    expect(res.status).toBe(403);
    expect(res.json.error).toEqual({ __type: 'Authorization Error', message: 'Access denied' });
    const detail = await fail('authorization_detail');
    expect(detail.json.error.message).toBe('Access denied: Not authorized to call function pg_sleep');
  });

  it('BadRequestError → bare JSON string with its status', async () => {
    const res = await fail('bad_request');
    expect(res.status).toBe(400);
    expect(res.json).toBe('Bad request - something odd');
  });

  it('StorageError → 409 Validation Error keyed message', async () => {
    const res = await fail('storage');
    expect(res.status).toBe(409);
    expect(res.json).toEqual({
      help,
      success: false,
      error: { message: 'Disk full while writing resource abc', __type: 'Validation Error' },
    });
  });

  it('anything else → 500 without details, stack logged', async () => {
    const res = await fail('boom');
    expect(res.status).toBe(500);
    expect(res.json).toEqual({
      help,
      success: false,
      error: { __type: 'Internal Server Error', message: 'Internal Server Error' },
    });
    expect(res.text).not.toContain('secret');
    expect(t.errors).toHaveLength(1);
    expect((t.errors[0]!.error as Error).stack).toContain('secret internal detail');
  });

  it('errors keep the JSON content type', async () => {
    for (const kind of ['validation', 'not_found', 'authorization', 'bad_request', 'storage', 'boom']) {
      expect((await fail(kind)).headers.get('content-type')).toBe('application/json;charset=utf-8');
    }
  });
});
