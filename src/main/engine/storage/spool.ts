import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from '../../storage/data-paths';
import { storageFailure } from '../../storage/storage-failure';

/**
 * An append-only temporary file: what an import spills instead of holding it (rows read but
 * not yet typed, index runs, sections whose size is known only once written). Named like the
 * other temporary files of a resource folder (`.<label>.<random>.tmp`), so that a crash
 * leaves nothing the start-up clean-up does not remove. Writes are buffered; once written,
 * a spool is read back sequentially or copied into its final file, then removed.
 */
const BUFFER = 1 << 20;

export class Spool {
  private fd: number;
  private buffer: Buffer | null = Buffer.allocUnsafe(BUFFER);
  private buffered = 0;
  private written = 0;

  private constructor(
    readonly path: string,
    existing?: number,
  ) {
    try {
      this.fd = openSync(path, existing === undefined ? 'w+' : 'r', PRIVATE_FILE_MODE);
    } catch (err) {
      throw storageFailure(`Could not ${existing === undefined ? 'write' : 'read'} ${path}`, err);
    }
    if (existing !== undefined) {
      this.written = existing;
      this.buffer = null;
    }
  }

  static create(dir: string, label: string): Spool {
    return new Spool(join(dir, `.${label}.${randomBytes(4).toString('hex')}.tmp`));
  }

  /**
   * A spool another thread writes (or wrote), read here: its first `length` bytes, which that
   * thread has flushed. Removing it stays the writer's job (`close` here only closes).
   */
  static open(path: string, length: number): Spool {
    return new Spool(path, length);
  }

  /** Closes the file without removing it (a spool opened with `open`). */
  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }

  /** Bytes appended so far. */
  get length(): number {
    return this.written + this.buffered;
  }

  append(bytes: Uint8Array): void {
    const buffer = this.buffer;
    if (!buffer) throw new Error('spool already closed for writing');
    if (bytes.length >= BUFFER) {
      this.flush();
      this.writeDirect(bytes);
      return;
    }
    if (this.buffered + bytes.length > BUFFER) this.flush();
    buffer.set(bytes, this.buffered);
    this.buffered += bytes.length;
  }

  /** A 32-bit little-endian number (the spills' counts and lengths). */
  appendUint32(value: number): void {
    const b = Buffer.allocUnsafe(4);
    b.writeUInt32LE(value, 0);
    this.append(b);
  }

  /** Ends writing: what follows reads the spool back. */
  seal(): void {
    this.flush();
    this.buffer = null;
  }

  /** `length` bytes from `position`, in memory of their own. */
  read(position: number, length: number): Uint8Array {
    const bytes = new Uint8Array(new ArrayBuffer(length));
    let done = 0;
    try {
      while (done < length) {
        const n = readSync(this.fd, bytes, done, length - done, position + done);
        if (n === 0) throw new Error(`${this.path} ends before byte ${position + length}`);
        done += n;
      }
    } catch (err) {
      throw storageFailure(`Could not read ${this.path}`, err);
    }
    return bytes;
  }

  /** Copies the whole spool into `fd` at `position`, a few megabytes at a time. */
  copyTo(fd: number, position: number): void {
    this.copyRangeTo(0, this.written, fd, position);
  }

  /** Copies `length` bytes from `from` into `fd` at `position` (what is buffered is written out first). */
  copyRangeTo(from: number, length: number, fd: number, position: number): void {
    if (from + length > this.written) this.flush();
    const chunk = Buffer.allocUnsafe(Math.min(BUFFER * 4, Math.max(1, length)));
    for (let at = 0; at < length;) {
      const n = readSync(this.fd, chunk, 0, Math.min(chunk.length, length - at), from + at);
      if (n === 0) throw new Error(`${this.path} is shorter than written`);
      let done = 0;
      while (done < n) done += writeSync(fd, chunk, done, n - done, position + at + done);
      at += n;
    }
  }

  /** Closes and removes the file. */
  remove(): void {
    if (this.fd >= 0) {
      try {
        closeSync(this.fd);
      } catch {
        // already closed
      }
      this.fd = -1;
    }
    this.buffer = null;
    rmSync(this.path, { force: true });
  }

  /** Writes out what is buffered, so that another thread reading the file sees it. */
  flush(): void {
    if (this.buffered === 0 || !this.buffer) return;
    this.writeDirect(this.buffer.subarray(0, this.buffered));
    this.buffered = 0;
  }

  private writeDirect(bytes: Uint8Array): void {
    try {
      let done = 0;
      while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done, this.written + done);
    } catch (err) {
      throw storageFailure(`Could not write ${this.path}`, err);
    }
    this.written += bytes.length;
  }
}

/** Where a piece of a shared spool lies. */
export interface SpoolPiece {
  readonly position: number;
  readonly length: number;
}

/**
 * One spool holding pieces of many growing sections (an import's column dictionaries): a
 * file and a buffer in all, however many columns, where a spool each would hold a buffer and
 * a file descriptor per column (1,600 columns). Each owner keeps its list of pieces; the
 * container writer copies them, in order, into one section.
 */
export class PieceSpool {
  private readonly spool: Spool;

  constructor(dir: string, label: string) {
    this.spool = Spool.create(dir, label);
  }

  get underlying(): Spool {
    return this.spool;
  }

  append(pieces: SpoolPiece[], bytes: Uint8Array): void {
    if (bytes.byteLength === 0) return;
    pieces.push({ position: this.spool.length, length: bytes.byteLength });
    this.spool.append(bytes);
  }

  /** The pieces' bytes, in memory, in order (a rare path: a dictionary rebuilt as JSON). */
  read(pieces: readonly SpoolPiece[]): Uint8Array {
    this.spool.flush();
    const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of pieces) {
      out.set(this.spool.read(p.position, p.length), at);
      at += p.length;
    }
    return out;
  }

  remove(): void {
    this.spool.remove();
  }
}

/** Reads a sealed spool front to back. */
export class SpoolReader {
  constructor(
    private readonly spool: Spool,
    private position = 0,
  ) {}

  get done(): boolean {
    return this.position >= this.spool.length;
  }

  next(length: number): Uint8Array {
    const bytes = this.spool.read(this.position, length);
    this.position += length;
    return bytes;
  }

  nextUint32(): number {
    const b = this.next(4);
    return Buffer.from(b.buffer, b.byteOffset, 4).readUInt32LE(0);
  }
}
