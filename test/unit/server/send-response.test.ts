import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sendResponse, successResponse, toJsonp } from '../../../src/main/server/envelope';
import { RawJson, jsonBody } from '../../../src/main/util/raw-json';

/**
 * A big datastore_search_sql answer comes as UTF-8 chunks (the SQL worker's): the server writes
 * them one by one, waiting for the socket to drain, and never joins them into one string.
 */
const encode = (s: string) => new TextEncoder().encode(s);

describe('jsonBody', () => {
  it("writes as CKAN's json.dumps: spaced, non-ASCII as \\uXXXX, floats as Python prints them (issue 23)", () => {
    // Bytes as the real CKAN 2.10.10 wrote them (an error message holding a resource name).
    expect(jsonBody({ message: 'città ✓ 😀', n: [1, 0.5, 1e-7, 1e21], ok: true, none: null })).toBe(
      '{"message": "citt\\u00e0 \\u2713 \\ud83d\\ude00", "n": [1, 0.5, 1e-07, 1e+21], "ok": true, "none": null}',
    );
  });

  it('splices text in as one string, and keeps chunks as parts around the text', () => {
    expect(jsonBody({ a: new RawJson('[1,2.50]'), b: [undefined, 'x'] })).toBe('{"a": [1,2.50], "b": [null, "x"]}');
    const parts = jsonBody({ sql: 'q', records: new RawJson([encode('[{"t":"è'), encode('"}]')]), fields: [] });
    expect(Array.isArray(parts)).toBe(true);
    expect((parts as (string | Uint8Array)[]).filter((p) => p instanceof Uint8Array)).toHaveLength(2);
    const text = (parts as (string | Uint8Array)[]).map((p) => (typeof p === 'string' ? p : Buffer.from(p).toString('utf8'))).join('');
    expect(JSON.parse(text)).toEqual({ sql: 'q', records: [{ t: 'è' }], fields: [] });
  });
});

let server: Server | null = null;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = null;
});

/** Serves `respond` once and reads the answer slowly: a pause after the first bytes. */
async function fetchSlowly(
  respond: Parameters<typeof sendResponse>[1],
): Promise<{ headers: Record<string, unknown>; body: Buffer; waited: boolean }> {
  let waited = false;
  server = createServer((_req, res) => {
    const write = res.write.bind(res);
    res.write = ((chunk: Uint8Array) => {
      const ok = write(chunk);
      if (!ok) waited = true;
      return ok;
    }) as typeof res.write;
    sendResponse(res, respond);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: '/' }, (res) => {
      const chunks: Buffer[] = [];
      res.pause();
      setTimeout(() => res.resume(), 200);
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks), waited }));
    })
      .on('error', reject)
      .end();
  });
}

describe('sendResponse', () => {
  it('writes a body in parts whole, with its length, waiting for a slow reader', async () => {
    const row = `{"t":"${'è'.repeat(500_000)}"}`;
    const chunks = Array.from({ length: 16 }, (_, i) => encode(`${i ? ',' : '['}${row}${i === 15 ? ']' : ''}`));
    const response = toJsonp('cb', successResponse('help', { records: new RawJson(chunks) }));
    const { headers, body, waited } = await fetchSlowly(response);
    expect(Number(headers['content-length'])).toBe(body.byteLength);
    const text = body.toString('utf8');
    expect(text.startsWith('cb({"help": "help", "success": true, "result": {"records": [')).toBe(true);
    const parsed = JSON.parse(text.slice(3, -2));
    expect(parsed.result.records).toHaveLength(16);
    expect(parsed.result.records[15].t).toBe('è'.repeat(500_000));
    // 16 MB do not fit the socket's buffers while the reader pauses: the writer had to wait.
    expect(waited).toBe(true);
  });
});
