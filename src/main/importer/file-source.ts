import { createReadStream, openSync, readSync, closeSync, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { message } from '../../shared/messages';
import { ImportInputError } from './import-errors';
import { checkExpansion, checkFileSize } from './limits';

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

/**
 * How far a read of a file's content has got, for progress: the content's bytes read so far
 * and its size. For a gzip file both are of the uncompressed content, and the size is an
 * estimate (the gzip trailer's, then the ratio seen so far applied to the compressed size).
 */
export class ContentMeter {
  /** Content bytes produced so far (decompressed, for gzip). */
  produced = 0;
  /** Compressed bytes consumed to produce them (gzip only). */
  consumed = 0;

  constructor(
    readonly fileBytes: number,
    readonly compressed: boolean,
    private readonly trailerSize: number | null,
  ) {}

  get estimated(): boolean {
    return this.compressed;
  }

  /** The content's size: exact for a plain file, estimated for gzip. */
  get totalBytes(): number {
    if (!this.compressed) return this.fileBytes;
    if (this.consumed > 0 && this.produced > 0) {
      const byRatio = Math.round(this.fileBytes * (this.produced / this.consumed));
      // The trailer holds the size modulo 4 GB of the last member only: trusted while it fits.
      if (this.trailerSize !== null && this.trailerSize >= this.produced && Math.abs(this.trailerSize - byRatio) < byRatio / 2) {
        return this.trailerSize;
      }
      return Math.max(byRatio, this.produced);
    }
    return this.trailerSize ?? this.fileBytes;
  }
}

/** The gzip trailer's ISIZE: the uncompressed size modulo 2^32 (of the last member). */
function gzipTrailerSize(path: string, fileBytes: number): number | null {
  if (fileBytes < 18) return null;
  const fd = openSync(path, 'r');
  try {
    const tail = Buffer.alloc(4);
    readSync(fd, tail, 0, 4, fileBytes - 4);
    return tail.readUInt32LE(0);
  } finally {
    closeSync(fd);
  }
}

export function contentMeter(path: string): ContentMeter {
  const bytes = importFileSize(path);
  const gzip = isGzip(path);
  return new ContentMeter(bytes, gzip, gzip ? gzipTrailerSize(path, bytes) : null);
}

/**
 * The file's content as bytes: gunzipped on the fly when it is gzip, never expanded on disk or
 * in memory, and refused as it expands beyond the limits (limits.ts). `meter` follows it.
 */
export function openByteStream(path: string, highWaterMark = 256 * 1024, meter?: ContentMeter): Readable {
  const raw = createReadStream(path, { highWaterMark });
  if (!isGzip(path)) {
    if (meter)
      raw.on('data', (chunk: Buffer | string) => {
        meter.produced += chunk.length;
      });
    return raw;
  }
  const gunzip = createGunzip({ chunkSize: highWaterMark });
  let expanded = 0;
  const bounded = new Transform({
    transform(chunk: Buffer, _enc, callback) {
      expanded += chunk.length;
      if (meter) {
        meter.produced = expanded;
        meter.consumed = gunzip.bytesWritten;
      }
      try {
        checkExpansion(expanded, gunzip.bytesWritten, basename(path));
      } catch (err) {
        callback(err as Error);
        return;
      }
      callback(null, chunk);
    },
  });
  raw.on('error', (err) => gunzip.destroy(err));
  gunzip.on('error', (err) => bounded.destroy(err));
  bounded.on('close', () => {
    gunzip.destroy();
    raw.destroy();
  });
  return raw.pipe(gunzip).pipe(bounded);
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
 * NUL bytes in the first bytes mean a binary file (an image, an unknown archive), unless it is
 * UTF-16 text, which is full of them: a clear refusal beats importing garbage. (Spreadsheets
 * and zip archives never get here: formats.ts recognises them first.)
 */
export function binaryFileProblem(sample: Uint8Array, encoding: string): ImportInputError | null {
  if (/^utf-?16/i.test(encoding)) return null;
  if (sample.indexOf(0) < 0) return null;
  return new ImportInputError(
    message(
      'import.refused.binary',
      'This is not a file Deskstore can import (CSV, TSV, XLSX, ODS, JSON, GeoJSON or a ZIP of them): it contains binary data.',
    ),
  );
}

/**
 * The file's size; a missing or unreadable file is the user's problem, said plainly, and a
 * file bigger than the largest table Deskstore accepts is refused here, before it is read.
 */
export function importFileSize(path: string): number {
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new ImportInputError(message('import.refused.not_a_file', `${path} is not a file`, { path }));
    checkFileSize(stat.size, basename(path));
    return stat.size;
  } catch (err) {
    if (err instanceof ImportInputError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new ImportInputError(
      code === 'ENOENT'
        ? message('import.refused.no_file', `There is no file ${path}`, { path })
        : message('import.refused.unreadable', `Cannot read ${path}: ${(err as Error).message}`, { path, reason: (err as Error).message }),
    );
  }
}

/** The CKAN `format` of a loaded file, from its name (`data.tsv` → `TSV`, `data.csv.gz` → `CSV`); CSV when it has none. */
export function formatFromFileName(name: string): string {
  const stem = /\.gz$/i.test(name) ? name.slice(0, -3) : name;
  return extname(stem).slice(1).toUpperCase() || 'CSV';
}
