import { closeSync, fstatSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { FieldType } from '../field-types';
import type { StoredValue } from '../values/coerce';
import { DurableFileWriter } from '../storage/durable-files';
import { createTableSql } from './table-sql';
import type { CodeArray } from '../column-store/column';

/**
 * Writes a resource's SQLite table file directly in SQLite's file format
 * (https://www.sqlite.org/fileformat2.html), page by page, as rows stream in: the same table
 * `createTableSql` declares, with its `sqlite_sequence` row, readable by sql.js and by any
 * SQLite. Filling the table through sql.js instead cost most of an import (a million INSERTs
 * through WASM, then the whole database copied out of sql.js's in-memory file system) and
 * held the whole database in memory twice; here memory is one page plus 8 bytes per leaf.
 *
 * Rows must arrive in ascending `_id` order (the rowid). Leaves are written as they fill, the
 * interior pages of the b-tree at the end, then page 1 (file header and schema) over the space
 * kept for it. Values are stored as SQLite would store them after its column affinity
 * (`storedCell`), so a query cannot tell this file from one filled by INSERT; the unit test
 * compares both, value types included.
 */

const PAGE = 4096;
/** The rowid alias `_id` is stored as NULL in each record; the other columns follow. */
const SERIAL_NULL = 0;
const LEAF_TABLE = 0x0d;
const INTERIOR_TABLE = 0x05;
/** Largest payload kept whole on a leaf; beyond it, the rest goes to overflow pages (U - 35). */
const MAX_LOCAL = PAGE - 35;
/** Smallest local part of a spilled payload: ((U - 12) * 32 / 255) - 23. */
const MIN_LOCAL = Math.floor(((PAGE - 12) * 32) / 255) - 23;
const OVERFLOW_DATA = PAGE - 4;
/** Page 1 starts with the 100-byte database header. */
const FILE_HEADER = 100;
/** SQLite 3.54.1, the version sql.js 1.16 embeds: readers only use it for diagnostics. */
const SQLITE_VERSION_NUMBER = 3054001;

export type Affinity = 'TEXT' | 'INTEGER' | 'REAL' | 'BLOB';

/**
 * One dictionary's values as stored cells: per code, its serial type and where its body lies
 * in `bytes`. Encoding each distinct value once is what lets a million rows of repeated values
 * cost a lookup per cell.
 */
export class EncodedValues {
  private constructor(
    readonly serial: Float64Array,
    readonly starts: Uint32Array,
    readonly bytes: Buffer,
  ) {}

  /** `values[code]` for every code (code 0, NULL, included) as a column of `affinity` stores it. */
  static of(values: ArrayLike<StoredValue>, affinity: Affinity): EncodedValues {
    const n = values.length;
    const serial = new Float64Array(n);
    const starts = new Uint32Array(n + 1);
    let bytes = Buffer.allocUnsafe(Math.max(64, n * 8));
    let used = 0;
    const room = (need: number): void => {
      if (used + need <= bytes.length) return;
      const grown = Buffer.allocUnsafe(Math.max(bytes.length * 2, used + need));
      bytes.copy(grown, 0, 0, used);
      bytes = grown;
    };
    for (let code = 0; code < n; code++) {
      starts[code] = used;
      const value = values[code]!;
      if (value === null) continue; // serial type 0: NULL
      if (typeof value === 'string' && affinity !== 'INTEGER' && affinity !== 'REAL') {
        room(value.length * 3);
        const length = bytes.write(value, used, 'utf8');
        serial[code] = length * 2 + 13;
        used += length;
        continue;
      }
      const cell = storedCell(value, affinity);
      if (cell.kind === 'null') continue;
      if (cell.kind === 'text') {
        room(cell.text.length * 3);
        const length = bytes.write(cell.text, used, 'utf8');
        serial[code] = length * 2 + 13;
        used += length;
      } else if (cell.kind === 'real') {
        room(8);
        bytes.writeDoubleBE(cell.value, used);
        serial[code] = 7;
        used += 8;
      } else {
        room(8);
        const type = integerSerial(cell.value);
        serial[code] = type;
        used = writeInteger(bytes, used, cell.value, SERIAL_LENGTH[type]!);
      }
    }
    starts[n] = used;
    if (used > 0xffff_ffff) throw new RangeError('a dictionary of more than 4 GB cannot be encoded at once');
    return new EncodedValues(serial, starts, bytes.subarray(0, used));
  }
}

type Cell =
  { kind: 'null' } | { kind: 'text'; text: string } | { kind: 'real'; value: number } | { kind: 'integer'; value: number | bigint };

const NULL_CELL: Cell = { kind: 'null' };
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * What SQLite stores when a value is bound as sql.js binds it (a number that is a 32-bit
 * integer as an integer, any other as a double; a text as text) into a column of `affinity`
 * (https://www.sqlite.org/datatype3.html): INTEGER turns an integral number, or a text that is
 * an integer literal, into an INTEGER; REAL keeps numbers REAL (SQLite may pack an integral
 * REAL as an integer on disk, but reads it back REAL either way); BLOB (no affinity) and TEXT
 * keep what they are given. So a table file written here holds what the journal's writes,
 * replayed through sql.js by the SQL worker, hold. A combination the column store never
 * produces (a number in a TEXT column) is refused rather than guessed.
 */
export function storedCell(value: StoredValue, affinity: Affinity): Cell {
  if (value === null || value === undefined) return NULL_CELL;
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return NULL_CELL; // SQLite stores a NaN double as NULL
    if (affinity === 'TEXT') throw new TypeError(`a number (${value}) in a TEXT column`);
    if (affinity === 'INTEGER' && Number.isInteger(value) && value > -9223372036854775808 && value < 9223372036854775808) {
      return { kind: 'integer', value: Object.is(value, -0) ? 0 : value };
    }
    if (affinity === 'BLOB' && value === (value | 0)) return { kind: 'integer', value: value | 0 };
    return { kind: 'real', value };
  }
  if (typeof value !== 'string') throw new TypeError(`cannot store a ${typeof value}`);
  if (affinity === 'INTEGER' || affinity === 'REAL') {
    const integer = /^\s*([+-]?\d+)\s*$/.exec(value);
    if (integer) {
      const big = BigInt(integer[1]!);
      if (big >= INT64_MIN && big <= INT64_MAX) {
        return affinity === 'INTEGER'
          ? { kind: 'integer', value: fitsDouble(big) ? Number(big) : big }
          : { kind: 'real', value: Number(big) };
      }
    }
    if (value.trim() !== '' && Number.isFinite(Number(value)) && !/^\s*0[xX]/.test(value)) {
      throw new TypeError(`the text ${JSON.stringify(value)} in a numeric column`);
    }
  }
  return { kind: 'text', text: value };
}

function fitsDouble(big: bigint): boolean {
  return big >= -(2n ** 53n) && big <= 2n ** 53n;
}

/** SQLite's smallest serial type for an integer (schema format 4: 8 and 9 for 0 and 1). */
function integerSerial(value: number | bigint): number {
  if (typeof value === 'number') {
    if (value === 0) return 8;
    if (value === 1) return 9;
    if (value >= -128 && value <= 127) return 1;
    if (value >= -32768 && value <= 32767) return 2;
    if (value >= -8388608 && value <= 8388607) return 3;
    if (value >= -2147483648 && value <= 2147483647) return 4;
    if (value >= -140737488355328 && value <= 140737488355327) return 5;
    return 6;
  }
  if (value >= -140737488355328n && value <= 140737488355327n) return integerSerial(Number(value));
  return 6;
}

/** Big-endian two's complement in `length` bytes; returns the position after them. */
function writeInteger(bytes: Buffer, at: number, value: number | bigint, length: number): number {
  if (length === 0) return at;
  if (typeof value === 'number' && length <= 6) return bytes.writeIntBE(value, at, length);
  return bytes.writeBigInt64BE(typeof value === 'bigint' ? value : BigInt(value), at);
}

/** Body bytes of serial types 0–9. */
const SERIAL_LENGTH = [0, 1, 2, 3, 4, 6, 8, 8, 0, 0];

function varintLength(v: number): number {
  if (v < 0x80) return 1;
  if (v < 0x4000) return 2;
  if (v < 0x200000) return 3;
  if (v < 0x10000000) return 4;
  let n = 4;
  for (let x = Math.floor(v / 0x10000000); x > 0; x = Math.floor(x / 0x80)) n++;
  if (n > 8) throw new RangeError(`varint ${v} too large`);
  return n;
}

/** SQLite's big-endian varint (values below 2^56, which is every size and rowid here). */
function writeVarint(bytes: Uint8Array, at: number, v: number): number {
  const n = varintLength(v);
  let x = v;
  for (let i = n - 1; i >= 0; i--) {
    const low = x % 0x80;
    bytes[at + i] = i === n - 1 ? low : low | 0x80;
    x = Math.floor(x / 0x80);
  }
  return at + n;
}

/** One column of a batch: its encoded dictionary and a code per row of the batch. */
export interface CellColumn {
  readonly values: EncodedValues;
  /** Codes indexed by the batch position (or by rowId, see appendRows). */
  readonly codes: CodeArray;
}

/** A b-tree child page and the largest rowid under it. */
interface Child {
  readonly page: number;
  readonly maxKey: number;
}

/**
 * Packs table b-tree leaf cells into pages and hands each full page to `emit`, which numbers
 * pages consecutively; overflow pages are emitted as a cell needs them. `reserve` bytes at the
 * start of every page stay free, so that any of them can become page 1 (whose first 100 bytes
 * are the file header).
 */
class LeafBuilder {
  private page = Buffer.alloc(PAGE);
  /** Where each cell starts, in order. */
  private offsets: number[] = [];
  /** Where the cell content area starts (cells are packed from the end of the page). */
  private contentStart = PAGE;
  private maxKey = 0;
  readonly leaves: Child[] = [];

  constructor(
    private readonly emit: (page: Uint8Array) => number,
    /** The number the next emitted page will get. */
    private readonly nextPage: () => number,
    private readonly reserve = 0,
  ) {}

  /**
   * Room for a row whose whole payload stays on the leaf: writes the cell's varints and returns
   * the page and where the payload goes, or -1 when the payload needs overflow pages (then
   * `add` with the record). The caller must fill exactly `payloadLength` bytes there.
   */
  place(rowId: number, payloadLength: number): number {
    if (payloadLength > MAX_LOCAL) return -1;
    const cellLength = (payloadLength < 0x80 ? 1 : varintLength(payloadLength)) + varintLength(rowId) + payloadLength;
    if (this.offsets.length > 0 && this.reserve + 10 + this.offsets.length * 2 + cellLength > this.contentStart) this.flush();
    const at = this.contentStart - cellLength;
    const p = writeVarint(this.page, writeVarint(this.page, at, payloadLength), rowId);
    this.offsets.push(at);
    this.contentStart = at;
    this.maxKey = rowId;
    return p;
  }

  /** The page `place` wrote into. */
  get current(): Buffer {
    return this.page;
  }

  /** Adds one row; `payload[0..payloadLength)` is its record. */
  add(rowId: number, payload: Uint8Array, payloadLength: number): void {
    let local = payloadLength;
    if (payloadLength > MAX_LOCAL) {
      const k = MIN_LOCAL + ((payloadLength - MIN_LOCAL) % OVERFLOW_DATA);
      local = k <= MAX_LOCAL ? k : MIN_LOCAL;
    }
    const spills = local < payloadLength;
    const cellLength = varintLength(payloadLength) + varintLength(rowId) + local + (spills ? 4 : 0);
    if (this.offsets.length > 0 && !this.fits(cellLength)) this.flush();
    const at = this.contentStart - cellLength;
    let p = writeVarint(this.page, at, payloadLength);
    p = writeVarint(this.page, p, rowId);
    this.page.set(local === payload.length ? payload : payload.subarray(0, local), p);
    if (spills) this.page.writeUInt32BE(this.writeOverflow(payload, local, payloadLength), p + local);
    this.offsets.push(at);
    this.contentStart = at;
    this.maxKey = rowId;
  }

  private fits(cellLength: number): boolean {
    return this.reserve + 8 + (this.offsets.length + 1) * 2 + cellLength <= this.contentStart;
  }

  /** The payload's tail on a chain of overflow pages, emitted in order; returns the first's number. */
  private writeOverflow(payload: Uint8Array, from: number, to: number): number {
    const first = this.nextPage();
    let expected = first;
    for (let at = from; at < to; at += OVERFLOW_DATA) {
      const end = Math.min(to, at + OVERFLOW_DATA);
      const page = Buffer.alloc(PAGE);
      page.writeUInt32BE(end < to ? expected + 1 : 0, 0);
      page.set(payload.subarray(at, end), 4);
      if (this.emit(page) !== expected) throw new Error('overflow pages must be numbered consecutively');
      expected++;
    }
    return first;
  }

  /** Finishes the current leaf (if it holds cells) and emits it. */
  flush(): void {
    if (this.offsets.length === 0) return;
    this.leaves.push({ page: this.emit(this.finishPage(0)), maxKey: this.maxKey });
    this.page.fill(0); // emit copied it: the same buffer takes the next leaf
    this.offsets = [];
    this.contentStart = PAGE;
  }

  /** The page being filled, with its header at `headerAt` (100 for page 1), not emitted. */
  finishPage(headerAt: number): Buffer {
    const page = this.page;
    page[headerAt] = LEAF_TABLE;
    page.writeUInt16BE(0, headerAt + 1);
    page.writeUInt16BE(this.offsets.length, headerAt + 3);
    page.writeUInt16BE(this.contentStart, headerAt + 5);
    page[headerAt + 7] = 0;
    this.offsets.forEach((offset, i) => page.writeUInt16BE(offset, headerAt + 8 + i * 2));
    return page;
  }

  get pendingCells(): number {
    return this.offsets.length;
  }
}

/**
 * Interior levels over `children`, bottom-up, until one page remains: the root. Each interior
 * page holds as many children as fit (a cell per child but the last, which is the right-most
 * pointer), and the children are spread evenly so that no page has fewer than two. With
 * `rootAsPage1` the root is not emitted but returned, its header at offset 100 (the schema's).
 */
function buildInterior(children: Child[], emit: (page: Uint8Array) => number, rootAsPage1 = false): number | Buffer {
  let level = children;
  const reserve = rootAsPage1 ? FILE_HEADER : 0;
  for (;;) {
    const perPage = interiorFanout(level, reserve);
    const pages = Math.ceil(level.length / perPage);
    if (pages === 1 && rootAsPage1) return interiorPage(level, FILE_HEADER);
    if (level.length === 1 && !rootAsPage1) return level[0]!.page;
    const next: Child[] = [];
    for (let p = 0; p < pages; p++) {
      const from = Math.floor((p * level.length) / pages);
      const to = Math.floor(((p + 1) * level.length) / pages);
      const group = level.slice(from, to);
      next.push({ page: emit(interiorPage(group, 0)), maxKey: group[group.length - 1]!.maxKey });
    }
    level = next;
  }
}

/** Children per interior page, counting every key at the longest varint of this level. */
function interiorFanout(level: readonly Child[], reserve: number): number {
  const keyBytes = varintLength(level[level.length - 1]!.maxKey);
  return Math.max(2, Math.floor((PAGE - reserve - 12) / (2 + 4 + keyBytes)) + 1);
}

function interiorPage(group: readonly Child[], headerAt: number): Buffer {
  const page = Buffer.alloc(PAGE);
  let contentStart = PAGE;
  const cells = group.length - 1;
  for (let i = 0; i < cells; i++) {
    const child = group[i]!;
    contentStart -= 4 + varintLength(child.maxKey);
    page.writeUInt32BE(child.page, contentStart);
    writeVarint(page, contentStart + 4, child.maxKey);
    page.writeUInt16BE(contentStart, headerAt + 12 + i * 2);
  }
  page[headerAt] = INTERIOR_TABLE;
  page.writeUInt16BE(0, headerAt + 1);
  page.writeUInt16BE(cells, headerAt + 3);
  page.writeUInt16BE(contentStart, headerAt + 5);
  page[headerAt + 7] = 0;
  page.writeUInt32BE(group[group.length - 1]!.page, headerAt + 8);
  return page;
}

export interface TableFileOptions {
  readonly table: string;
  readonly columns: readonly { readonly id: string; readonly type: FieldType }[];
}

/**
 * A table file being written. `appendRows` any number of times (ascending rowids), then
 * `finish`, which writes the b-tree's upper levels, `sqlite_sequence` and page 1, fsyncs the
 * file and renames it into place; `abort` removes the temporary file. A crash before the
 * rename leaves only a temporary file, which the data folder's clean-up removes.
 */
export class TableFileWriter {
  private readonly file: DurableFileWriter;
  private readonly out = Buffer.allocUnsafe(PAGE * 256);
  private outPages = 0;
  /** Page 1 (header and schema) is written last, over the room kept for it. */
  private nextPage = 2;
  private readonly leaves: LeafBuilder;
  private record = Buffer.allocUnsafe(1 << 16);
  private lastRowId = 0;
  private readonly affinities: Affinity[];

  private constructor(
    readonly path: string,
    private readonly options: TableFileOptions,
  ) {
    this.file = new DurableFileWriter(path);
    this.affinities = options.columns.map((c) => c.type.sqliteType);
    this.leaves = new LeafBuilder(
      (page) => this.emit(page),
      () => this.nextPage,
    );
  }

  static create(path: string, options: TableFileOptions): TableFileWriter {
    return new TableFileWriter(path, options);
  }

  /** The dictionary of column `index` encoded for this table (its affinity applied). */
  encode(index: number, values: ArrayLike<StoredValue>): EncodedValues {
    return EncodedValues.of(values, this.affinities[index]!);
  }

  /**
   * Rows `rowIds[from..to)`, each cell `columns[c].values` at `columns[c].codes[i]`, where i
   * is the position in `rowIds` or, with `codesByRowId`, the rowid itself (a column store).
   */
  appendRows(rowIds: ArrayLike<number>, from: number, to: number, columns: readonly CellColumn[], codesByRowId = false): void {
    const width = columns.length;
    if (width !== this.affinities.length) throw new Error(`expected ${this.affinities.length} columns, got ${width}`);
    // Plain arrays of typed arrays: the loop below runs once per cell of a million rows.
    const serialOf = columns.map((c) => c.values.serial);
    const startsOf = columns.map((c) => c.values.starts);
    const bytesOf = columns.map((c) => c.values.bytes);
    const codesOf = columns.map((c) => c.codes);
    const serials = new Float64Array(width);
    const codes = new Uint32Array(width);
    const leaves = this.leaves;
    for (let i = from; i < to; i++) {
      const rowId = rowIds[i]!;
      if (!(rowId > this.lastRowId) || !Number.isInteger(rowId))
        throw new RangeError(`rowids must ascend (${rowId} after ${this.lastRowId})`);
      this.lastRowId = rowId;
      const at = codesByRowId ? rowId : i;
      // The record header: its own size, NULL for _id (the rowid), each column's serial type.
      let serialBytes = 1;
      let bodyBytes = 0;
      for (let c = 0; c < width; c++) {
        const code = codesOf[c]![at]!;
        const s = serialOf[c]![code]!;
        codes[c] = code;
        serials[c] = s;
        if (s < 0x80) serialBytes++;
        else serialBytes += varintLength(s);
        bodyBytes += s >= 12 ? (s - 12 - (s & 1)) / 2 : SERIAL_LENGTH[s]!;
      }
      const headerSize = recordHeaderSize(serialBytes);
      const payloadLength = headerSize + bodyBytes;
      let out: Buffer;
      let p = leaves.place(rowId, payloadLength);
      const direct = p >= 0;
      if (direct) out = leaves.current;
      else {
        if (payloadLength > this.record.length) this.record = Buffer.allocUnsafe(Math.max(payloadLength, this.record.length * 2));
        out = this.record;
        p = 0;
      }
      p = writeVarint(out, p, headerSize);
      out[p++] = SERIAL_NULL;
      for (let c = 0; c < width; c++) {
        const s = serials[c]!;
        if (s < 0x80) out[p++] = s;
        else p = writeVarint(out, p, s);
      }
      for (let c = 0; c < width; c++) {
        const s = serials[c]!;
        if (s === 0 || s === 8 || s === 9) continue;
        const starts = startsOf[c]!;
        const code = codes[c]!;
        let k = starts[code]!;
        const end = starts[code + 1]!;
        const bytes = bytesOf[c]!;
        if (end - k > 24) {
          bytes.copy(out, p, k, end);
          p += end - k;
        } else while (k < end) out[p++] = bytes[k++]!;
      }
      if (!direct) leaves.add(rowId, out, payloadLength);
    }
  }

  /**
   * Writes the b-tree's interior pages, `sqlite_sequence` (AUTOINCREMENT's high-water mark:
   * `sequence`, at least the largest rowid) and page 1, then makes the file durable and
   * renames it into place. Returns the file's size in bytes.
   */
  finish(sequence = this.lastRowId): number {
    try {
      this.leaves.flush();
      const root =
        this.leaves.leaves.length === 0 ? this.emit(emptyLeaf()) : (buildInterior(this.leaves.leaves, (page) => this.emit(page)) as number);
      const sequenceRoot = this.emit(sequencePage(this.options.table, Math.max(sequence, this.lastRowId)));
      const page1 = this.schema(createTableSql(this.options.table, this.options.columns), root, sequenceRoot);
      this.flushOut();
      writeFileHeader(page1, this.nextPage - 1);
      this.file.writeAt(page1, 0);
    } catch (err) {
      this.abort();
      throw err;
    }
    this.file.commit((this.nextPage - 1) * PAGE);
    return (this.nextPage - 1) * PAGE;
  }

  abort(): void {
    this.file.abort();
  }

  /**
   * Page 1 (without its file header yet): the schema table's b-tree root, whose rows are the
   * table and `sqlite_sequence`, as SQLite writes them for `CREATE TABLE … AUTOINCREMENT`.
   * A very wide table's CREATE statement can outgrow page 1: its leaves then follow the
   * table's pages and page 1 becomes their interior root.
   */
  private schema(sql: string, root: number, sequenceRoot: number): Buffer {
    const table = this.options.table;
    const rows: [string, string, string, number, string][] = [
      ['table', table, table, root, sql],
      ['table', 'sqlite_sequence', 'sqlite_sequence', sequenceRoot, 'CREATE TABLE sqlite_sequence(name,seq)'],
    ];
    const builder = new LeafBuilder(
      (page) => this.emit(page),
      () => this.nextPage,
      FILE_HEADER,
    );
    rows.forEach((row, i) => {
      const cells = row.map((v) => EncodedValues.of([v], typeof v === 'number' ? 'INTEGER' : 'TEXT'));
      const bodies = cells.map((c) => c.bytes);
      const record = Buffer.allocUnsafe(64 + bodies.reduce((n, b) => n + b.length, 0));
      builder.add(
        i + 1,
        record,
        encodeRecord(
          record,
          cells.map((c) => c.serial[0]!),
          bodies,
        ),
      );
    });
    if (builder.leaves.length === 0) return builder.finishPage(FILE_HEADER);
    builder.flush();
    return buildInterior(builder.leaves, (page) => this.emit(page), true) as Buffer;
  }

  /** Queues one page at the next page number and returns that number. */
  private emit(page: Uint8Array): number {
    if (page.length !== PAGE) throw new Error('page of the wrong size');
    this.out.set(page, this.outPages * PAGE);
    this.outPages++;
    const number = this.nextPage++;
    if (this.outPages * PAGE === this.out.length) this.flushOut();
    return number;
  }

  private flushOut(): void {
    if (this.outPages === 0) return;
    const firstPage = this.nextPage - this.outPages;
    this.file.writeAt(this.out.subarray(0, this.outPages * PAGE), (firstPage - 1) * PAGE);
    this.outPages = 0;
  }
}

/** A record header's size, which counts its own varint. */
function recordHeaderSize(serialBytes: number): number {
  let own = 1;
  while (varintLength(serialBytes + own) > own) own++;
  return serialBytes + own;
}

/** Encodes one record (header of serial types, then bodies) into `out`; returns its length. */
function encodeRecord(out: Buffer, serials: readonly number[], bodies: readonly Uint8Array[]): number {
  let serialBytes = 0;
  for (const s of serials) serialBytes += varintLength(s);
  let p = writeVarint(out, 0, recordHeaderSize(serialBytes));
  for (const s of serials) p = writeVarint(out, p, s);
  for (const b of bodies) {
    out.set(b, p);
    p += b.length;
  }
  return p;
}

function emptyLeaf(): Buffer {
  const page = Buffer.alloc(PAGE);
  page[0] = LEAF_TABLE;
  page.writeUInt16BE(PAGE, 5); // no cells: the content area starts at the end of the page
  return page;
}

/** `sqlite_sequence`'s one page, with the table's row (name, seq). */
function sequencePage(table: string, sequence: number): Buffer {
  const name = EncodedValues.of([table], 'TEXT');
  const seq = EncodedValues.of([sequence], 'INTEGER');
  const record = Buffer.allocUnsafe(32 + name.bytes.length);
  const length = encodeRecord(record, [name.serial[0]!, seq.serial[0]!], [name.bytes, seq.bytes]);
  if (length > MAX_LOCAL) throw new Error('a resource id is never that long');
  const builder = new LeafBuilder(
    () => 0,
    () => 0,
  );
  builder.add(1, record, length);
  return builder.finishPage(0);
}

/** The 100-byte database header (https://www.sqlite.org/fileformat2.html#the_database_header). */
function writeFileHeader(page: Buffer, pageCount: number): void {
  page.write('SQLite format 3\u0000', 0, 'latin1');
  page.writeUInt16BE(PAGE, 16);
  page[18] = 1; // file format write version: legacy (rollback journal)
  page[19] = 1; // read version
  page[20] = 0; // reserved bytes per page
  page[21] = 64; // max embedded payload fraction
  page[22] = 32; // min embedded payload fraction
  page[23] = 32; // leaf payload fraction
  page.writeUInt32BE(1, 24); // file change counter
  page.writeUInt32BE(pageCount, 28); // database size in pages
  page.writeUInt32BE(0, 32); // first freelist trunk page
  page.writeUInt32BE(0, 36); // freelist pages
  page.writeUInt32BE(1, 40); // schema cookie
  page.writeUInt32BE(4, 44); // schema format
  page.writeUInt32BE(0, 48); // default page cache size
  page.writeUInt32BE(0, 52); // largest root page (no auto-vacuum)
  page.writeUInt32BE(1, 56); // text encoding: UTF-8
  page.writeUInt32BE(0, 60); // user version
  page.writeUInt32BE(0, 64); // incremental vacuum
  page.writeUInt32BE(0, 68); // application id
  page.fill(0, 72, 92);
  page.writeUInt32BE(1, 92); // version-valid-for: the change counter above
  page.writeUInt32BE(SQLITE_VERSION_NUMBER, 96);
}

/**
 * A whole column store as a table file (a checkpoint, a table rebuilt from its columns): the
 * live rows, each column's dictionary encoded once. `fields` name the columns in table order.
 */
export function writeTableFromStore(
  path: string,
  table: string,
  fields: readonly { readonly id: string; readonly type: FieldType }[],
  store: { column(id: string): { values: ArrayLike<StoredValue>; codes: CodeArray } | undefined; liveRowIds(): Uint32Array },
  sequence?: number,
): number {
  const writer = TableFileWriter.create(path, { table, columns: fields });
  try {
    const cells = fields.map((f, i) => {
      const column = store.column(f.id);
      if (!column) throw new Error(`the column store has no column ${f.id}`);
      return { values: writer.encode(i, column.values), codes: column.codes };
    });
    const ids = store.liveRowIds();
    writer.appendRows(ids, 0, ids.length, cells, true);
  } catch (err) {
    writer.abort();
    throw err;
  }
  return writer.finish(sequence);
}

/**
 * A table file's bytes written from a column store, for a reader that cannot use the file on
 * disk (the SQL worker, when that file is damaged): written to a temporary file beside it,
 * read back and removed.
 */
export function tableImage(
  dir: string,
  table: string,
  fields: readonly { readonly id: string; readonly type: FieldType }[],
  store: Parameters<typeof writeTableFromStore>[3] & { maxRowId: number },
): Uint8Array {
  const path = join(dir, `.image-${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeTableFromStore(path, table, fields, store, store.maxRowId);
    return readFileSync(path);
  } finally {
    rmSync(path, { force: true });
  }
}

/**
 * Why a table file is not a SQLite database, or null: what the file's own header says it is
 * (the magic text, the page size, the page count against the file's size), the check that
 * finds a damaged or truncated file without opening it in SQLite.
 */
export function tableFileProblem(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    return (err as Error).message;
  }
  try {
    const head = Buffer.alloc(100);
    const size = fstatSync(fd).size;
    if (readSync(fd, head, 0, 100, 0) < 100) return 'shorter than a SQLite header';
    if (head.toString('latin1', 0, 16) !== 'SQLite format 3\u0000') return 'not a SQLite file';
    const raw = head.readUInt16BE(16);
    const pageSize = raw === 1 ? 65536 : raw;
    if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) return `page size ${raw}`;
    const pages = head.readUInt32BE(28);
    const counted = head.readUInt32BE(24) === head.readUInt32BE(92) && pages > 0;
    if (counted ? size < pages * pageSize : size % pageSize !== 0) return `${size} bytes for pages of ${pageSize}`;
    return null;
  } finally {
    closeSync(fd);
  }
}
