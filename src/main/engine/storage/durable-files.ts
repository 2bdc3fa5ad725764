import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { PRIVATE_FILE_MODE } from '../../storage/data-paths';
import { storageFailure } from '../../storage/storage-failure';

/**
 * Crash-safe file replacement: write a temporary file next to the target, fsync it, rename
 * it over the target, fsync the directory. After a crash the target is either the old file
 * or the new one, never a mix (docs/architecture.md §3).
 */
export function writeFileDurably(path: string, parts: readonly Uint8Array[]): void {
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.tmp`);
  let fd: number | null = null;
  try {
    fd = openSync(tmp, 'w', PRIVATE_FILE_MODE);
    for (const part of parts) {
      let done = 0;
      while (done < part.byteLength) done += writeSync(fd, part, done, part.byteLength - done);
    }
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    renameSync(tmp, path);
    fsyncDirectory(dirname(path));
  } catch (err) {
    if (fd !== null) closeSync(fd);
    rmSync(tmp, { force: true });
    throw storageFailure(`Could not write ${path}`, err);
  }
}

export function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
