import { createWriteStream, rmSync } from 'node:fs';
import { basename } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ImportInputError } from '../importer/import-errors';
import { PRIVATE_FILE_MODE, pathInside, uniqueFileName } from '../storage/data-paths';
import { TransferWatch, type TransferLimits } from '../util/transfer-watch';

/**
 * Fetches a resource's `url` to a file, streamed (a large file never sits in memory) and
 * capped. Only http(s): a CKAN resource URL is a web address.
 */
export class DownloadError extends ImportInputError {}

/**
 * How long a server may keep a download waiting (docs/security.md, "timeouts"): a server that
 * never answers, stops sending, or trickles a few bytes at a time ends the download with a
 * clear error instead of holding it forever (util/transfer-watch.ts).
 */
export type DownloadTimeouts = TransferLimits;

export const DEFAULT_DOWNLOAD_TIMEOUTS: DownloadTimeouts = {
  headersMs: 30_000,
  stallMs: 60_000,
  minBytesPerSecond: 1024,
  rateGraceMs: 60_000,
};

export async function downloadToFile(
  url: string,
  dir: string,
  maxBytes: number,
  signal: AbortSignal,
  onProgress: (done: number, total: number) => void,
  timeouts: DownloadTimeouts = DEFAULT_DOWNLOAD_TIMEOUTS,
): Promise<{ path: string; name: string }> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DownloadError(`The resource url ${JSON.stringify(url)} is not a valid URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new DownloadError(`Only http and https URLs can be loaded, not ${parsed.protocol}`);
  }
  // One watch for every way this download can be given up: the job's cancel, or a limit
  // (whose reason is the error the user will read).
  const watch = new TransferWatch(
    timeouts,
    {
      headers: (seconds) => new DownloadError(`${url} did not answer within ${seconds} s`),
      stalled: (seconds) => new DownloadError(`${url} sent nothing for ${seconds} s`),
      slow: (rate) => new DownloadError(`${url} is sending too slowly (${rate} bytes/s)`),
      deadline: (seconds) => new DownloadError(`${url} took longer than ${seconds} s`),
    },
    signal,
  );
  let path: string | null = null;
  try {
    let response: Response;
    try {
      response = await fetch(parsed, { signal: watch.signal, redirect: 'follow' });
    } catch (err) {
      if (watch.reason) throw watch.reason;
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new DownloadError(`Could not fetch ${url}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
    }
    watch.gotHeaders();
    if (!response.ok || !response.body) throw new DownloadError(`Fetching ${url} answered HTTP ${response.status}`);
    const total = Number(response.headers.get('content-length') ?? 0);
    if (total > maxBytes) throw new DownloadError(`${url} is ${total} bytes, more than the ${maxBytes}-byte limit`);
    const name = decodeURIComponent(basename(parsed.pathname)) || 'download.csv';
    path = pathInside(dir, uniqueFileName('download'));
    let done = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, callback) {
        done += chunk.length;
        if (done > maxBytes) return callback(new DownloadError(`${url} is larger than the ${maxBytes}-byte limit`));
        watch.progress(chunk.length);
        onProgress(done, total);
        callback(null, chunk);
      },
    });
    try {
      await pipeline(Readable.fromWeb(response.body), counter, createWriteStream(path, { mode: PRIVATE_FILE_MODE }), {
        signal: watch.signal,
      });
    } catch (err) {
      if (watch.reason) throw watch.reason;
      throw err;
    }
    const result = { path, name };
    path = null;
    return result;
  } finally {
    watch.done();
    if (path) rmSync(path, { force: true });
  }
}
