import { closeSync, copyFileSync, existsSync, fsyncSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { dirname } from 'node:path';
import { StorageError } from '../../errors';
import { PRIVATE_FILE_MODE } from '../../storage/data-paths';
import { storageFailure } from '../../storage/storage-failure';
import { fsyncDirectory, writeFileDurably } from '../storage/durable-files';

/**
 * The write-ahead journal of one resource generation: every acknowledged write since the
 * generation's files were written, one entry per request, appended and fsynced before the
 * response. Entry framing: u32 LE length, u32 LE CRC-32 of the payload, payload (UTF-8 JSON
 * of an object).
 *
 * A crash can only tear the last entry, whose write was never acknowledged: replay stops there
 * and the first append cuts the file back to its last whole entry. Anything else that fails its
 * checks is damage (docs/security.md, "journal damage"): the damaged file is copied aside
 * untouched, the entries before the damage are replayed (and an entry whose only fault is its
 * length field is recovered whole), the journal is rewritten with them, and `damage` says what
 * happened so the caller can say it loudly. Acknowledged data is never cut away: what could not
 * be replayed is still in the copy.
 */
const HEADER = 8;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

export interface JournalDamage {
  /** Byte offset of the first entry that failed its checks. */
  readonly offset: number;
  readonly replayed: number;
  /** Entries whose length field was damaged but whose content checked out, replayed too. */
  readonly recovered: number;
  /** An entry could not be read at all (otherwise only length fields were damaged). */
  readonly lostEntry: boolean;
  /** Whole entries found after the lost one, not replayed (they may depend on it). */
  readonly notReplayed: number;
  /** The untouched copy of the damaged journal, or null if it could not be written. */
  readonly keptAs: string | null;
  /** Why the journal could not be rewritten (it then refuses appends), or null. */
  readonly unrepaired: string | null;
}

interface Frame {
  readonly end: number;
  readonly payload: unknown;
}

/** A whole entry at `at` whose payload is `data[at + 8, end)`, checked; null otherwise. */
function frameEndingAt(data: Buffer, at: number, end: number): Frame | null {
  const start = at + HEADER;
  if (end <= start || end > data.length || data[start] !== OPEN_BRACE || data[end - 1] !== CLOSE_BRACE) return null;
  const payload = data.subarray(start, end);
  if (crc32(payload) !== data.readUInt32LE(at + 4)) return null;
  try {
    return { end, payload: JSON.parse(payload.toString('utf8')) as unknown };
  } catch {
    return null;
  }
}

function frameAt(data: Buffer, at: number): Frame | null {
  return at + HEADER <= data.length ? frameEndingAt(data, at, at + HEADER + data.readUInt32LE(at)) : null;
}

/** The first whole entry starting after `from`, or -1. Cheap: most offsets fail the brace test. */
function nextFrame(data: Buffer, from: number): number {
  for (let at = from; at + HEADER < data.length; at++) {
    if (data[at + HEADER] === OPEN_BRACE && frameAt(data, at)) return at;
  }
  return -1;
}

/** What a write cut short by a crash looks like: the frame does not fit, or its bytes never reached the disk. */
function looksTorn(data: Buffer, at: number): boolean {
  if (at + HEADER > data.length || at + HEADER + data.readUInt32LE(at) > data.length) return true;
  return data.subarray(at + HEADER).every((byte) => byte === 0);
}

function encodeFrame(payload: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(payload), 'utf8');
  const frame = Buffer.allocUnsafe(HEADER + body.length);
  frame.writeUInt32LE(body.length, 0);
  frame.writeUInt32LE(crc32(body), 4);
  body.copy(frame, HEADER);
  return frame;
}

export class Journal {
  private fd: number | null = null;
  private bytes = 0;
  private entries = 0;
  /** Set when damage could not be repaired: appending would build on a broken file. */
  private refuse: string | null = null;

  private constructor(readonly path: string) {}

  /**
   * Reads a journal's whole entries, in order (a missing file has none). Nothing is written
   * until the first append unless the journal is damaged, so a read-only data directory can
   * still be served.
   */
  static open<T>(path: string): { journal: Journal; entries: T[]; damage: JournalDamage | null } {
    const journal = new Journal(path);
    if (!existsSync(path)) return { journal, entries: [], damage: null };
    const data = readFileSync(path);
    const entries: T[] = [];
    let at = 0;
    let recovered = 0;
    let damagedAt = -1;
    let lostEntry = false;
    let notReplayed = 0;
    while (at + HEADER <= data.length) {
      const whole = frameAt(data, at);
      if (whole) {
        entries.push(whole.payload as T);
        at = whole.end;
        continue;
      }
      const next = nextFrame(data, at + 1);
      // Only the length field wrong: the content, up to the next entry (or the end), checks out.
      const relengthed = frameEndingAt(data, at, next === -1 ? data.length : next);
      if (relengthed) {
        entries.push(relengthed.payload as T);
        recovered++;
        if (damagedAt < 0) damagedAt = at;
        at = relengthed.end;
        continue;
      }
      if (next === -1 && looksTorn(data, at)) break; // the unacknowledged last write
      damagedAt = damagedAt < 0 ? at : damagedAt;
      lostEntry = true;
      for (let p = next; p >= 0;) {
        const frame = frameAt(data, p);
        if (!frame) break;
        notReplayed++;
        p = frame.end;
      }
      break;
    }
    journal.entries = entries.length;
    if (damagedAt < 0) {
      journal.bytes = at; // a torn tail, if any, is cut at the first append
      return { journal, entries, damage: null };
    }
    return { journal, entries, damage: journal.repair(entries, { offset: damagedAt, recovered, lostEntry, notReplayed }) };
  }

  /**
   * The entries between bytes `from` and `to` of a journal the engine has open (so any damage
   * was already repaired, and both are boundaries between whole entries): what the SQL worker
   * replays onto a generation's table file (sql/sql-worker.ts).
   */
  static entriesBetween<T>(path: string, from: number, to: number): T[] {
    if (to <= from) return [];
    let data: Buffer;
    try {
      data = readFileSync(path).subarray(0, to);
    } catch (err) {
      throw storageFailure(`Could not read ${path}`, err);
    }
    const entries: T[] = [];
    for (let at = from; at < to;) {
      const frame = frameAt(data, at);
      if (!frame) throw new StorageError(`The journal ${path} changed while it was read at byte ${at}`);
      entries.push(frame.payload as T);
      at = frame.end;
    }
    return entries;
  }

  /** Keeps the damaged file aside, then rewrites the journal with the entries replayed. */
  private repair(
    entries: readonly unknown[],
    found: Pick<JournalDamage, 'offset' | 'recovered' | 'lostEntry' | 'notReplayed'>,
  ): JournalDamage {
    const keptAs = `${this.path}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    const frames = entries.map(encodeFrame);
    let kept: string | null = null;
    try {
      copyFileSync(this.path, keptAs);
      kept = keptAs;
      writeFileDurably(this.path, frames);
      this.bytes = frames.reduce((n, f) => n + f.length, 0);
      return { ...found, replayed: entries.length, keptAs, unrepaired: null };
    } catch (err) {
      this.refuse =
        `The journal ${this.path} is damaged and could not be repaired (${(err as Error).message}); ` +
        'writes to this resource are refused until it can be';
      return { ...found, replayed: entries.length, keptAs: kept, unrepaired: (err as Error).message };
    }
  }

  get size(): number {
    return this.bytes;
  }

  get count(): number {
    return this.entries;
  }

  private openForAppend(): number {
    if (this.refuse) throw new StorageError(this.refuse);
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
    const frame = encodeFrame(payload);
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
