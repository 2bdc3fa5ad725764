import { isStoredAsNumber, type FieldType } from '../field-types';
import type { StoredValue } from '../values/coerce';
import { approximate, type ExactNumber } from '../values/exact-number';
import { rankCodes, rankDoubles } from './sort-order';
import { F64Dictionary } from './f64-dictionary';
import { Utf8Dictionary } from './utf8-dictionary';

/**
 * A column's codes in memory, 1, 2 or 4 bytes each: the narrowest array that holds every code
 * of its dictionary. Seven of the ten columns of the 1M-row benchmark have fewer than 65,536
 * distinct values; their codes read whole took 4 bytes per row each where 1 or 2 do. Readers
 * index it like any array; only Column writes to it (and widens it when a write brings a code
 * the array cannot hold).
 */
export type CodeArray = Uint8Array | Uint16Array | Uint32Array;

/** A column's codes still in the file (storage/file-sections.ts): one row's code, or all of them. */
export interface LazyCodes {
  /** Codes in the file: the table's highest row id + 1. */
  readonly length: number;
  at(rowId: number): number;
  whole(): Uint32Array;
}

/**
 * Cells answered by reading their code from the file before a column's codes are read whole:
 * a page of results is a few hundred; a filter, sort or facet reads `codes` whole at once.
 */
const SINGLE_READS_BEFORE_WHOLE = 2000;

/**
 * Cells written while a column's codes are still in the file are kept aside (row → code) up
 * to this many, then the codes are read whole: a first write on a fresh resource (one row, or
 * a few hundred) reads no column's codes whole (4 bytes per row of the table each).
 */
const WRITTEN_CELLS_BEFORE_WHOLE = 4096;

/**
 * Values looked up in a dictionary still in its file form, one scan each, before the
 * dictionary becomes an array with a lookup table: a write brings a few new values; a bulk
 * write many, which one table then serves.
 */
const FILE_SCANS_BEFORE_LOOKUP = 64;

/**
 * One column of a resource, dictionary-encoded in memory: `codes[rowId]` is the index of the
 * row's value in `values` (0 = NULL). Every filter, sort and facet is evaluated over these
 * arrays; per distinct value first (a truth table over codes), then per row, which is what
 * makes a filter over a million rows cost about a millisecond.
 *
 * A column of mostly unique values (ids, amounts, descriptions) may keep duplicate values
 * in its dictionary (`mayRepeat`): deduplicating a million strings during an import costs
 * more than everything else it saves. Code equality then no longer means value equality, so
 * lookups go through `codesOf` and grouping through `canonicalCodes`, both built on demand.
 *
 * A column loaded from a columns file is written to without reading it whole: written cells
 * wait beside the codes still in the file, and values are found in (or added after) the
 * dictionary's file form; both join the arrays when something reads them whole. A fresh
 * server's first write read every column's codes and decoded its dictionaries before.
 */
export class Column {
  private dict: StoredValue[] | null;
  /** The dictionary as loaded from the file, until something needs it as an array. */
  private undecoded: Utf8Dictionary | F64Dictionary | null;
  /** The codes in memory, or null while they are in the file (`codesInFile`). */
  private codeArray: CodeArray | null;
  private codesInFile: LazyCodes | null;
  private singleReads = 0;
  /** Cells written while the codes are in the file (row → code), applied when they are read whole. */
  private written: Map<number, number> | null = null;
  /** The length `ensureCapacity` asked for while the codes are in the file. */
  private wantedLength = 0;
  /** Values added while the dictionary is in its file form: code `undecoded.size + i`. */
  private added: StoredValue[] = [];
  /** Codes of the values looked up in (or added to) the file form, for a column that does not repeat values. */
  private foundInFile: Map<string | number, number> | null = null;
  private fileScans = 0;
  private lookup: Map<string | number, number | number[]> | null = null;
  private ranks: Uint32Array | null = null;
  private canonical: Uint32Array | null = null;
  private approximated: Float64Array | null = null;

  constructor(
    readonly id: string,
    readonly type: FieldType,
    values: StoredValue[] | Utf8Dictionary | F64Dictionary,
    codes: CodeArray | LazyCodes,
    readonly mayRepeat = false,
  ) {
    if (Array.isArray(values)) {
      if (values.length === 0 || values[0] !== null) throw new Error('column dictionary must start with the NULL slot');
      this.dict = values;
      this.undecoded = null;
    } else {
      this.dict = null;
      this.undecoded = values;
    }
    if (ArrayBuffer.isView(codes)) {
      this.codeArray = codes;
      this.codesInFile = null;
    } else {
      this.codeArray = null;
      this.codesInFile = codes;
    }
  }

  /** Dictionary; values[0] is the NULL slot. Decoded from the file form on first use. */
  get values(): StoredValue[] {
    if (!this.dict) {
      const values = this.undecoded!.materialize();
      for (const value of this.added) values.push(value);
      this.dict = values;
      this.undecoded = null;
      this.added = [];
      this.foundInFile = null;
    }
    return this.dict;
  }

  /**
   * The dictionary in its file form (UTF-8 bytes and ends), while nothing has decoded it yet;
   * null once it is an array. Comparing two versions' values byte for byte needs no strings.
   */
  get fileDictionary(): Utf8Dictionary | null {
    // Values a write added are not in the file form: compared as an array then.
    return this.undecoded instanceof Utf8Dictionary && this.added.length === 0 ? this.undecoded : null;
  }

  /** Rough bytes the dictionary holds in memory. */
  dictionaryBytes(): number {
    return this.dict ? this.dict.length * 48 : this.undecoded!.byteLength + this.added.length * 48;
  }

  static empty(id: string, type: FieldType, capacity: number): Column {
    return new Column(id, type, [null], new Uint8Array(capacity)); // widened as values come
  }

  /**
   * codes[rowId]: read whole from the file on first use when the column was loaded lazily,
   * then kept in the narrowest array its dictionary allows (`CodeArray`).
   */
  get codes(): CodeArray {
    if (!this.codeArray) {
      // Cells written meanwhile and the length asked for join the codes here, in the narrowest
      // array that holds every code of the dictionary (the values a write added included).
      let codes = narrowestCodes(this.codesInFile!.whole(), this.distinctCount);
      if (this.wantedLength > codes.length) {
        const grown = sameWidth(codes, this.wantedLength);
        grown.set(codes);
        codes = grown;
      }
      if (this.written) for (const [rowId, code] of this.written) codes[rowId] = code;
      this.codeArray = codes;
      this.codesInFile = null;
      this.written = null;
    }
    return this.codeArray;
  }

  /**
   * The first `count` codes as 4-byte codes, the columns file's form: a view when they are
   * 4 bytes wide in memory, else a widened copy.
   */
  codesAsUint32(count: number): Uint32Array {
    const codes = this.codes;
    if (codes instanceof Uint32Array) return codes.subarray(0, count);
    const wide = new Uint32Array(count);
    wide.set(codes.subarray(0, count));
    return wide;
  }

  /** Bytes of what was derived from the dictionary and kept: sort ranks, canonical codes, doubles of exact numbers. */
  derivedBytes(): number {
    return (this.ranks?.byteLength ?? 0) + (this.canonical?.byteLength ?? 0) + (this.approximated?.byteLength ?? 0);
  }

  /** Bytes of codes held in memory (none while they are still in the file). */
  get residentCodeBytes(): number {
    return this.codeArray ? this.codeArray.byteLength : (this.written?.size ?? 0) * 16;
  }

  /** Dictionary entries (an upper bound of distinct values when `mayRepeat`). */
  get distinctCount(): number {
    return (this.dict ? this.dict.length : this.undecoded!.size + this.added.length) - 1;
  }

  valueOf(rowId: number): StoredValue {
    const code = this.codeArray ? this.codeArray[rowId]! : (this.written?.get(rowId) ?? this.codeFromFile(rowId));
    if (this.dict) return this.dict[code]!;
    const inFile = this.undecoded!;
    return code < inFile.size ? inFile.valueAt(code) : this.added[code - inFile.size]!;
  }

  /**
   * A freshly loaded resource's first answer returns a page of rows: their codes are read one
   * by one (4 bytes each) instead of every column's codes (4 bytes per row) before it can answer.
   */
  private codeFromFile(rowId: number): number {
    const file = this.codesInFile!;
    if (rowId >= file.length || rowId < 0 || ++this.singleReads > SINGLE_READS_BEFORE_WHOLE) return this.codes[rowId]!;
    return file.at(rowId);
  }

  /**
   * Every code holding `value`. Without a lookup table yet, one pass over the dictionary
   * (a few milliseconds for a million values) beats building the table (hundreds of ms);
   * the table is built for writes, which look values up over and over.
   */
  codesOf(value: StoredValue): number[] {
    if (value === null) return [0];
    if (!this.lookup) {
      const found: number[] = [];
      const values = this.values;
      for (let code = 1; code < values.length; code++) if (values[code] === value) found.push(code);
      return found;
    }
    const found = this.lookup.get(value);
    return found === undefined ? [] : typeof found === 'number' ? [found] : found;
  }

  /** code → the first code with the same value: equal values group together. */
  canonicalCodes(): Uint32Array {
    if (!this.canonical) {
      const out = new Uint32Array(this.values.length);
      if (!this.mayRepeat) {
        for (let c = 0; c < out.length; c++) out[c] = c;
      } else {
        const dict = this.dictionary();
        for (let c = 1; c < out.length; c++) {
          const found = dict.get(this.values[c]!)!;
          out[c] = typeof found === 'number' ? found : found[0]!;
        }
      }
      this.canonical = out;
    }
    return this.canonical;
  }

  /** Writes one cell (append or update), adding the value to the dictionary when new. */
  set(rowId: number, value: StoredValue): void {
    const code = this.intern(value);
    this.ensureCapacity(rowId + 1);
    if (!this.codeArray && (this.written?.size ?? 0) < WRITTEN_CELLS_BEFORE_WHOLE) {
      (this.written ??= new Map()).set(rowId, code);
      return;
    }
    this.holdCode(code)[rowId] = code;
  }

  /** The codes, widened first when `code` is past what their array holds (the 256th or 65,536th entry). */
  private holdCode(code: number): CodeArray {
    const codes = this.codes;
    if (code <= maxCodeOf(codes)) return codes;
    const wider = code <= 0xffff ? new Uint16Array(codes.length) : new Uint32Array(codes.length);
    wider.set(codes);
    this.codeArray = wider;
    return wider;
  }

  intern(value: StoredValue): number {
    if (value === null) return 0;
    if (this.undecoded) {
      const code = this.internInFileForm(value);
      if (code !== null) return code;
    }
    if (this.mayRepeat && !this.lookup) {
      // A mostly unique column may hold a value twice: appending costs nothing, where building
      // the lookup table of a million values cost the first write on a fresh resource seconds.
      const code = this.values.length;
      this.values.push(value);
      this.ranks = null;
      this.canonical = null;
      return code;
    }
    const dict = this.dictionary();
    const found = dict.get(value);
    if (found !== undefined) return typeof found === 'number' ? found : found[0]!;
    const code = this.values.length;
    this.values.push(value);
    dict.set(value, code);
    this.ranks = null; // a new value has no rank yet
    this.canonical = null;
    return code;
  }

  ensureCapacity(size: number): void {
    if (!this.codeArray) {
      // Grown when the codes are read whole (the `codes` getter), not read for it.
      if (size > this.wantedLength) this.wantedLength = size;
      return;
    }
    const codes = this.codeArray;
    if (size <= codes.length) return;
    const grown = sameWidth(codes, Math.max(size, Math.ceil(codes.length * 1.5) + 1024));
    grown.set(codes);
    this.codeArray = grown;
  }

  /** code → sort rank in this column's type order (NULL = 0, equal values share a rank). */
  sortRanks(): Uint32Array {
    this.ranks ??= this.rankDictionary();
    return this.ranks;
  }

  /**
   * Ranks from the dictionary as it is: a dictionary still in the file's form is ranked from
   * its doubles or its UTF-8 bytes, without becoming an array of values the sort would keep
   * (a million boxed numbers or strings, tens of MB, for a column sorted once).
   */
  private rankDictionary(): Uint32Array {
    // Values a write added beside the file form are ranked with the rest, as an array.
    const file = this.added.length === 0 ? this.undecoded : null;
    const storage = this.type.storage;
    if (file instanceof F64Dictionary && (isStoredAsNumber(storage) || storage === 'exact')) return rankDoubles(file.doubles);
    if (file instanceof Utf8Dictionary) return rankCodes(file.reader(), storage, this.type.element?.storage);
    return rankCodes(this.values, storage, this.type.element?.storage);
  }

  /**
   * numeric/int8 (values/exact-number.ts): each dictionary entry's nearest double, so that
   * comparisons read a typed array and parse no text; extended as the dictionary grows.
   */
  approximations(): Float64Array {
    const values = this.values;
    const known = this.approximated;
    if (known && known.length === values.length) return known;
    const out = new Float64Array(values.length);
    if (known) out.set(known);
    for (let code = known ? known.length : 1; code < values.length; code++) out[code] = approximate(values[code] as ExactNumber);
    this.approximated = out;
    return out;
  }

  /** Evaluates `test` once per dictionary entry: the truth table a row scan then indexes by code. */
  truthTable(test: (value: StoredValue) => boolean): Uint8Array {
    const table = new Uint8Array(this.values.length);
    for (let code = 1; code < this.values.length; code++) table[code] = test(this.values[code]!) ? 1 : 0;
    return table;
  }

  /**
   * `intern` while the dictionary is in its file form: a column that may repeat values appends
   * the value; another looks it up by a scan of the file form (its values are few) and appends
   * it when new. Null after too many scans: the caller then builds the lookup table.
   */
  private internInFileForm(value: string | number): number | null {
    const inFile = this.undecoded!;
    if (!this.mayRepeat) {
      const known = this.foundInFile?.get(value);
      if (known !== undefined) return known;
      if (++this.fileScans > FILE_SCANS_BEFORE_LOOKUP) return null;
      const code = inFile.codeOf(value);
      if (code !== 0) {
        (this.foundInFile ??= new Map()).set(value, code);
        return code;
      }
    }
    const code = inFile.size + this.added.length;
    this.added.push(value);
    if (!this.mayRepeat) (this.foundInFile ??= new Map()).set(value, code);
    this.ranks = null;
    this.canonical = null;
    return code;
  }

  private dictionary(): Map<string | number, number | number[]> {
    if (!this.lookup) {
      const map = new Map<string | number, number | number[]>();
      for (let code = 1; code < this.values.length; code++) {
        const v = this.values[code]!;
        const seen = map.get(v);
        if (seen === undefined) map.set(v, code);
        else if (typeof seen === 'number') map.set(v, [seen, code]);
        else seen.push(code);
      }
      this.lookup = map;
    }
    return this.lookup;
  }
}

function maxCodeOf(codes: CodeArray): number {
  return codes instanceof Uint8Array ? 0xff : codes instanceof Uint16Array ? 0xffff : 0xffff_ffff;
}

function sameWidth(codes: CodeArray, length: number): CodeArray {
  return codes instanceof Uint8Array ? new Uint8Array(length) : codes instanceof Uint16Array ? new Uint16Array(length) : new Uint32Array(length);
}

/**
 * Codes read whole from the file (4 bytes each) in the narrowest array that holds the codes of
 * a dictionary of `entries` values besides NULL, and every code present (a damaged file's code
 * past the dictionary keeps its value, as before, rather than being cut to fit).
 */
export function narrowestCodes(codes: Uint32Array, entries: number): CodeArray {
  let max = entries;
  if (max > 0xffff) return codes;
  for (let i = 0; i < codes.length; i++) if (codes[i]! > max) max = codes[i]!;
  if (max > 0xffff) return codes;
  const narrow = max <= 0xff ? new Uint8Array(codes.length) : new Uint16Array(codes.length);
  narrow.set(codes);
  return narrow;
}
