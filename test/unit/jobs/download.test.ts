import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DownloadError, downloadToFile, type DownloadTimeouts } from '../../../src/main/jobs/download';
import { removeDir, tempDir } from '../../helpers/deskstore-process';

/** Issue 8: URL downloads had no timeout, so a server that stalls or trickles held the import queue. */
const dir = tempDir('deskstore-download-');
let server: Server;
let base: string;
const open: ServerResponse[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    open.push(res);
    if (req.url === '/never') return; // accepts, never answers
    if (req.url === '/ok.csv') {
      res.end('a,b\n1,2\n');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/csv' });
    res.write('a,b\n');
    if (req.url === '/stall.csv') return; // headers and a line, then nothing
    // /trickle.csv: a few bytes, often enough never to stall
    const timer = setInterval(() => res.write('1'), 20);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => {
  for (const res of open) res.destroy();
  server.close();
  removeDir(dir);
});

const fast: DownloadTimeouts = { headersMs: 300, stallMs: 300, minBytesPerSecond: 1000, rateGraceMs: 400 };
const fetchTo = (path: string) => downloadToFile(`${base}${path}`, dir, 1e9, new AbortController().signal, () => {}, fast);

describe('URL downloads give up on servers that keep them waiting', () => {
  it.each([
    ['/never', /did not answer within 0.3 s/],
    ['/stall.csv', /sent nothing for 0.3 s/],
    ['/trickle.csv', /is sending too slowly/],
  ])('%s fails with a clear error and leaves no file', async (path, message) => {
    const failure = await fetchTo(path).then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(DownloadError);
    expect((failure as Error).message).toMatch(message);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('still downloads from a server that answers', async () => {
    const { path, name } = await fetchTo('/ok.csv');
    expect([name, readFileSync(path, 'utf8')]).toEqual(['ok.csv', 'a,b\n1,2\n']);
    removeDir(path);
  });

  it('reports a cancel as a cancel, not as a timeout', async () => {
    const cancel = new AbortController();
    const pending = downloadToFile(`${base}/stall.csv`, dir, 1e9, cancel.signal, () => {}, { ...fast, stallMs: 10_000 });
    setTimeout(() => cancel.abort(), 50);
    const failure = await pending.then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).not.toBeInstanceOf(DownloadError);
    expect((failure as Error).name).toBe('AbortError');
    expect(readdirSync(dir)).toEqual([]);
  });
});
