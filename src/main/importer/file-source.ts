import { createReadStream, openSync, readSync, closeSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { ImportInputError } from './import-errors';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';

/**
 * The bytes of an import file, gunzipped on the fly when it is gzip (`.csv.gz` as portals
 * publish big files): a compressed file is never expanded on disk or in memory.
 */
export function isGzip(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return false; // the read stream reports the problem to its consumer
  }
  try {
    const magic = Buffer.alloc(2);
    return readSync(fd, magic, 0, 2, 0) === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}

export function openByteStream(path: string, highWaterMark = 256 * 1024): Readable {
  const raw = createReadStream(path, { highWaterMark });
  if (!isGzip(path)) return raw;
  const gunzip = createGunzip({ chunkSize: highWaterMark });
  raw.on('error', (err) => gunzip.destroy(err));
  gunzip.on('close', () => raw.destroy());
  return raw.pipe(gunzip);
}

/** The first `bytes` of the (decompressed) content; `isWholeFile` when that was all of it. */
export async function readFirstBytes(path: string, bytes: number): Promise<{ sample: Buffer; isWholeFile: boolean }> {
  const chunks: Buffer[] = [];
  let total = 0;
  const stream = openByteStream(path, 64 * 1024);
  try {
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer);
      total += (chunk as Buffer).length;
      if (total > bytes) break;
    }
  } finally {
    stream.destroy();
  }
  const all = Buffer.concat(chunks);
  return { sample: all.subarray(0, Math.min(all.length, bytes)), isWholeFile: all.length <= bytes };
}

/**
 * NUL bytes in the first bytes mean a binary file (a spreadsheet, an archive, an image),
 * unless it is UTF-16 text, which is full of them: a clear refusal beats importing garbage.
 */
export function binaryFileProblem(sample: Uint8Array, encoding: string): string | null {
  if (/^utf-?16/i.test(encoding)) return null;
  const nul = sample.indexOf(0);
  if (nul < 0) return null;
  const zip = sample[0] === 0x50 && sample[1] === 0x4b;
  return zip
    ? 'This looks like a spreadsheet or a zip archive, not a CSV/TSV text file: export it as CSV first'
    : 'This is not a text (CSV/TSV) file: it contains binary data';
}

/** The file's size; a missing or unreadable file is the user's problem, said plainly. */
export function importFileSize(path: string): number {
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new ImportInputError(`${path} is not a file`);
    return stat.size;
  } catch (err) {
    if (err instanceof ImportInputError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new ImportInputError(code === 'ENOENT' ? `There is no file ${path}` : `Cannot read ${path}: ${(err as Error).message}`);
  }
}

/** The CKAN `format` of a loaded file, from its name (`data.tsv` → `TSV`); CSV when it has none. */
export function formatFromFileName(name: string): string {
  return extname(name).slice(1).toUpperCase() || 'CSV';
}
