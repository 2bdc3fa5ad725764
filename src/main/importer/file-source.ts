import { createReadStream, openSync, readSync, closeSync } from 'node:fs';
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
