import { closeSync, fsyncSync, ftruncateSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
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

/**
 * A file written in place-addressed pieces (a section here, a page there) into a temporary file
 * next to `path`, then made durable and renamed over it by `commit`, as writeFileDurably does
 * for a file held whole: after a crash the target is the old file or the new one, and the
 * temporary file is removed by the data folder's clean-up. `abort` removes it at once.
 */
export class DurableFileWriter {
  private readonly fd: number;
  private readonly tmp: string;
  private closed = false;

  constructor(readonly path: string) {
    this.tmp = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      this.fd = openSync(this.tmp, 'w+', PRIVATE_FILE_MODE);
    } catch (err) {
      throw storageFailure(`Could not write ${path}`, err);
    }
  }

  /** Reads back `length` bytes written at `position`. */
  readAt(position: number, length: number): Uint8Array {
    const bytes = new Uint8Array(length);
    let done = 0;
    try {
      while (done < length) {
        const n = readSync(this.fd, bytes, done, length - done, position + done);
        if (n === 0) break; // never written: a hole, which reads as zeros
        done += n;
      }
    } catch (err) {
      throw storageFailure(`Could not read ${this.tmp}`, err);
    }
    return bytes;
  }

  /** The open temporary file, for copies into it (Spool.copyTo). */
  get descriptor(): number {
    return this.fd;
  }

  writeAt(bytes: Uint8Array, position: number): void {
    try {
      let done = 0;
      while (done < bytes.byteLength) done += writeSync(this.fd, bytes, done, bytes.byteLength - done, position + done);
    } catch (err) {
      throw storageFailure(`Could not write ${this.path}`, err);
    }
  }

  /** Sets the file's length, fsyncs it, renames it into place and fsyncs the folder. */
  commit(length: number): void {
    if (this.closed) throw new Error(`${this.path} was already committed or aborted`);
    try {
      ftruncateSync(this.fd, length);
      fsyncSync(this.fd);
      closeSync(this.fd);
      this.closed = true;
      renameSync(this.tmp, this.path);
      fsyncDirectory(dirname(this.path));
    } catch (err) {
      this.abort();
      throw storageFailure(`Could not write ${this.path}`, err);
    }
  }

  abort(): void {
    if (!this.closed) {
      this.closed = true;
      try {
        closeSync(this.fd);
      } catch {
        // already closed
      }
    }
    rmSync(this.tmp, { force: true });
  }
}
