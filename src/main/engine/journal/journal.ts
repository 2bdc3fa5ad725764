import { closeSync, fsyncSync, ftruncateSync, openSync, readFileSync, writeSync, existsSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { StorageError } from '../../errors';
import { PRIVATE_FILE_MODE } from '../../storage/data-paths';
import { fsyncDirectory } from '../storage/durable-files';
import { storageFailure } from '../../storage/storage-failure';
import { dirname } from 'node:path';

/**
 * The write-ahead journal of one resource generation: every acknowledged write since the
 * generation's files were written, one entry per request, appended and fsynced before the
 * response. Entry framing: u32 LE length, u32 LE CRC-32 of the payload, payload (UTF-8 JSON).
 * A crash can only tear the last entry, whose write was never acknowledged: replay stops
 * there and the file is cut back to its last whole entry.
 */
const HEADER = 8;

export class Journal {
  private fd: number | null = null;
  private bytes = 0;
  private entries = 0;

  private constructor(readonly path: string) {}

  /**
   * Reads a journal's whole entries, in order (a missing file has none). Nothing is written
   * until the first append, so a read-only data directory can still be served.
   */
  static open<T>(path: string): { journal: Journal; entries: T[] } {
    const journal = new Journal(path);
    const entries: T[] = [];
    let valid = 0;
    if (existsSync(path)) {
      const data = readFileSync(path);
      let at = 0;
      while (at + HEADER <= data.length) {
        const length = data.readUInt32LE(at);
        const checksum = data.readUInt32LE(at + 4);
        if (at + HEADER + length > data.length) break; // torn tail
        const payload = data.subarray(at + HEADER, at + HEADER + length);
        if (crc32(payload) !== checksum) {
          if (at + HEADER + length === data.length) break; // torn tail with garbage inside
          throw new StorageError(`The journal ${path} is damaged in the middle (entry at byte ${at}); the resource cannot be opened safely`);
        }
        entries.push(JSON.parse(payload.toString('utf8')) as T);
        at += HEADER + length;
      }
      valid = at;
    }
    journal.bytes = valid;
    journal.entries = entries.length;
    return { journal, entries };
  }

  get size(): number {
    return this.bytes;
  }

  get count(): number {
    return this.entries;
  }

  private openForAppend(): number {
    if (this.fd !== null) return this.fd;
    const existed = existsSync(this.path);
    try {
      this.fd = openSync(this.path, 'a+', PRIVATE_FILE_MODE);
      // Cut a torn tail so new entries follow the last whole one.
      ftruncateSync(this.fd, this.bytes);
      if (!existed) fsyncDirectory(dirname(this.path)); // the new file's name must survive a crash too
    } catch (err) {
      if (this.fd !== null) closeSync(this.fd);
      this.fd = null;
      throw storageFailure('Could not write the journal', err);
    }
    return this.fd;
  }

  /** Appends one entry and fsyncs; when this returns, the entry survives a crash. */
  append(payload: unknown): void {
    const fd = this.openForAppend();
    const body = Buffer.from(JSON.stringify(payload), 'utf8');
    const frame = Buffer.allocUnsafe(HEADER + body.length);
    frame.writeUInt32LE(body.length, 0);
    frame.writeUInt32LE(crc32(body), 4);
    body.copy(frame, HEADER);
    try {
      let done = 0;
      while (done < frame.length) done += writeSync(fd, frame, done, frame.length - done);
      fsyncSync(fd);
    } catch (err) {
      // A partial frame may be on disk: cut it off so the journal stays a sequence of whole
      // entries, and report the write as failed (the caller rolls back).
      try {
        ftruncateSync(fd, this.bytes);
      } catch {
        // the next open cuts the torn tail anyway
      }
      throw storageFailure('Could not write the journal', err);
    }
    this.bytes += frame.length;
    this.entries++;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
