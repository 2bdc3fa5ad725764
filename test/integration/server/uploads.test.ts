import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, filesIn, rawRequest, startTestServer, TOKEN, type TestServer } from './helpers';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  await t.stop();
});

// Uploads are for token holders (anonymous ones are refused in security.test.ts).
const upload = (body: FormData, path = '/api/3/action/upload_probe') =>
  call(`${t.url}${path}`, { method: 'POST', body, headers: { Authorization: TOKEN } });

async function eventually(check: () => Promise<boolean>, ms = 3000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await sleep(20);
  }
  return check();
}

describe('multipart uploads', () => {
  it('streams file parts to uploadDir and hands UploadedFile values to the action', async () => {
    const csv = 'a,b\n1,2\n'.repeat(20_000); // 160 kB, under the 256 kB cap
    const body = new FormData();
    body.append('package_id', 'pkg');
    body.append('tags', 'x');
    body.append('tags', 'y');
    body.append('upload', new Blob([csv], { type: 'text/csv' }), 'données.csv');
    const res = await upload(body);
    expect(res.status).toBe(200);
    expect(res.json.result).toEqual({
      package_id: 'pkg',
      tags: ['x', 'y'],
      upload: { filename: 'données.csv', size: Buffer.byteLength(csv), mimeType: 'text/csv', content: csv },
    });
    // Files live only for the duration of run().
    expect(t.probe.uploadPaths).toHaveLength(1);
    const [uploaded] = t.probe.uploadPaths as [string];
    expect(uploaded.startsWith(t.uploadDir)).toBe(true);
    expect(existsSync(uploaded)).toBe(false);
    expect(await filesIn(t.uploadDir)).toEqual([]);
  });

  it('a multipart body with only a file still gives the file (CKAN adds files after the data)', async () => {
    const body = new FormData();
    body.append('upload', new Blob(['x']), 'x.txt');
    const res = await upload(body);
    expect(res.json.result.upload).toMatchObject({ filename: 'x.txt', size: 1, content: 'x' });
  });

  it('only the first file of a repeated field is passed on; all are removed', async () => {
    const body = new FormData();
    body.append('upload', new Blob(['first']), 'a.txt');
    body.append('upload', new Blob(['second']), 'b.txt');
    const res = await upload(body);
    expect(res.json.result.upload).toMatchObject({ filename: 'a.txt', content: 'first' });
    expect(await filesIn(t.uploadDir)).toEqual([]);
  });

  it('rejects an oversized upload with 413 and removes the partial file', async () => {
    const body = new FormData();
    body.append('resource_id', 'x');
    body.append('upload', new Blob(['z'.repeat(300 * 1024)]), 'big.csv');
    const res = await upload(body);
    expect(res.status).toBe(413);
    expect(res.json).toBe('Bad request - Upload too large: the limit is 262144 bytes');
    expect(t.probe.uploadPaths).toEqual([]);
    expect(await eventually(async () => (await filesIn(t.uploadDir)).length === 0)).toBe(true);
    // The server keeps working.
    expect((await call(`${t.url}/api/3`)).status).toBe(200);
  });

  it('caps files together, not one by one', async () => {
    const body = new FormData();
    body.append('a', new Blob(['z'.repeat(150 * 1024)]), 'a.csv');
    body.append('b', new Blob(['z'.repeat(150 * 1024)]), 'b.csv');
    const res = await upload(body);
    expect(res.status).toBe(413);
    expect(await eventually(async () => (await filesIn(t.uploadDir)).length === 0)).toBe(true);
  });

  it('rejects oversized form fields in multipart', async () => {
    const body = new FormData();
    body.append('records', 'r'.repeat(70 * 1024));
    const res = await upload(body);
    expect(res.status).toBe(413);
    expect(res.json).toMatch(/^Bad request - Form data too large/);
  });

  it('refuses an oversized upload before it is sent when the client expects 100-continue', async () => {
    const result = await new Promise<{ status: number; continued: boolean; body: string }>((resolve, reject) => {
      let continued = false;
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: t.port,
          method: 'POST',
          path: '/api/3/action/upload_probe',
          agent: false,
          headers: {
            'content-type': 'multipart/form-data; boundary=b',
            'content-length': String(5 * 1024 * 1024),
            expect: '100-continue',
            authorization: TOKEN,
          },
        },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, continued, body }));
        },
      );
      req.on('continue', () => {
        continued = true;
        req.destroy();
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(result).toMatchObject({ status: 413, continued: false });
    expect(JSON.parse(result.body)).toBe('Bad request - Upload too large: the limit is 262144 bytes');
    expect(await filesIn(t.uploadDir)).toEqual([]);
  });

  it('removes the partial file when the client goes away mid-upload', async () => {
    const boundary = 'XyZ123';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="upload"; filename="a.csv"\r\n` + 'Content-Type: text/csv\r\n\r\n';
    const req = httpRequest({
      host: '127.0.0.1',
      port: t.port,
      method: 'POST',
      path: '/api/3/action/upload_probe',
      agent: false,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(200 * 1024), authorization: TOKEN },
    });
    req.on('error', () => undefined);
    req.write(head);
    req.write('q'.repeat(50 * 1024));
    // Wait until the server has started writing the file, then hang up.
    expect(await eventually(async () => (await filesIn(t.uploadDir)).length === 1)).toBe(true);
    req.destroy();
    expect(await eventually(async () => (await filesIn(t.uploadDir)).length === 0)).toBe(true);
    expect(t.probe.uploadPaths).toEqual([]);
  });

  it('answers 400 for a malformed multipart body', async () => {
    const noBoundary = await rawRequest({
      port: t.port,
      method: 'POST',
      path: '/api/3/action/upload_probe',
      headers: { 'content-type': 'multipart/form-data', authorization: TOKEN },
      body: 'whatever',
    });
    expect(noBoundary.status).toBe(400);
    expect(noBoundary.json()).toMatch(/^Bad request - Malformed multipart body/);
    const truncated = await rawRequest({
      port: t.port,
      method: 'POST',
      path: '/api/3/action/upload_probe',
      headers: { 'content-type': 'multipart/form-data; boundary=b', authorization: TOKEN },
      body: '--b\r\nContent-Disposition: form-data; name="upload"; filename="a"\r\n\r\nabc',
    });
    expect(truncated.status).toBe(400);
    expect(await eventually(async () => (await filesIn(t.uploadDir)).length === 0)).toBe(true);
  });
});
