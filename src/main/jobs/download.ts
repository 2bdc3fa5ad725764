import { createWriteStream, rmSync } from 'node:fs';
import { basename } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ImportInputError } from '../importer/import-errors';
import { pathInside, uniqueFileName } from '../storage/data-paths';

/**
 * Fetches a resource's `url` to a file, streamed (a large file never sits in memory) and
 * capped. Only http(s): a CKAN resource URL is a web address.
 */
export class DownloadError extends ImportInputError {}

export async function downloadToFile(
  url: string, dir: string, maxBytes: number, signal: AbortSignal, onProgress: (done: number, total: number) => void,
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
  let response: Response;
  try {
    response = await fetch(parsed, { signal, redirect: 'follow' });
  } catch (err) {
    if (signal.aborted) throw err;
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new DownloadError(`Could not fetch ${url}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
  }
  if (!response.ok || !response.body) throw new DownloadError(`Fetching ${url} answered HTTP ${response.status}`);
  const total = Number(response.headers.get('content-length') ?? 0);
  if (total > maxBytes) throw new DownloadError(`${url} is ${total} bytes, more than the ${maxBytes}-byte limit`);
  const name = decodeURIComponent(basename(parsed.pathname)) || 'download.csv';
  const path = pathInside(dir, uniqueFileName('download'));
  let done = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, callback) {
      done += chunk.length;
      if (done > maxBytes) return callback(new DownloadError(`${url} is larger than the ${maxBytes}-byte limit`));
      onProgress(done, total);
      callback(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(response.body), counter, createWriteStream(path), { signal });
  } catch (err) {
    rmSync(path, { force: true });
    throw err;
  }
  return { path, name };
}
