import type { StoredValue } from '../values/coerce';

/** The values' bytes still in the file: a range read for a few cells, the whole for many. */
export interface LazyBytes {
  readonly length: number;
  range(start: number, end: number): Buffer;
  whole(): Uint8Array;
}

/** Cells read one by one from the file before the dictionary's bytes are read whole. */
const RANGE_READS_BEFORE_WHOLE = 2000;

/**
 * Past this size the values' bytes are never read whole for cells alone, however many are
 * read: a mostly unique text column (a description) is tens of MB (82 MB in the 1M-row
 * benchmark, most of a searched server's memory after paging through answers), while a page
 * of results reads a few hundred of its cells, one small read each. Something that scans the
 * dictionary (a filter, a sort, a facet) still reads it whole.
 */
const WHOLE_FOR_CELLS_MAX_BYTES = 4 * 1024 * 1024;

/**
 * A text column's dictionary as it lies in the columns file: the UTF-8 bytes of every value
 * back to back, and where each one ends. A freshly loaded resource answers its first search
 * from this form, reading from the file and decoding only the cells it returns (the bytes are
 * read whole after a few thousand cells); the dictionary becomes a JavaScript array only when
 * something scans it whole (a filter, a sort, a facet). Decoding a million strings up front
 * was most of a restarted server's first answer and of its memory.
 *
 * `ends[i]` is where the value of code i + 1 ends; code 0 is the NULL slot, as in Column.
 * numeric/int8 dictionaries mix numbers with exact texts (`2.50`, int8 past 2^53): there
 * `numbers[i]` is 1 where the entry is a number, kept as its shortest text (which reads back
 * as the same double).
 */
export class Utf8Dictionary {
  private text: Buffer | null = null;
  private rangeReads = 0;

  constructor(
    private readonly ends: Uint32Array,
    private readonly bytes: Uint8Array | LazyBytes,
    private readonly numbers: Uint8Array | null = null,
  ) {
    if (bytes instanceof Uint8Array) this.text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Checks that the offsets describe the bytes; a damaged file fails here, at load. */
  static checked(ends: Uint32Array, bytes: Uint8Array | LazyBytes, numbers: Uint8Array | null = null): Utf8Dictionary | string {
    if (numbers && numbers.length !== ends.length) return `text dictionary has ${numbers.length} number flags for ${ends.length} entries`;
    let previous = 0;
    for (let i = 0; i < ends.length; i++) {
      const end = ends[i]!;
      if (end < previous) return `text dictionary offsets go backwards at entry ${i}`;
      previous = end;
    }
    const length = bytes instanceof Uint8Array ? bytes.byteLength : bytes.length;
    if (previous !== length) return `text dictionary offsets end at ${previous}, not at ${length}`;
    return new Utf8Dictionary(ends, bytes, numbers);
  }

  /** Entries, the NULL slot included (Column's `values.length`). */
  get size(): number {
    return this.ends.length + 1;
  }

  /** Bytes held in memory (the values' bytes only once they were read). */
  get byteLength(): number {
    return (this.text?.byteLength ?? 0) + this.ends.byteLength + (this.numbers?.byteLength ?? 0);
  }

  valueAt(code: number): StoredValue {
    if (code === 0) return null;
    const start = code === 1 ? 0 : this.ends[code - 2]!;
    const end = this.ends[code - 1]!;
    let text: string;
    if (this.text || this.readWholeForCells()) text = this.wholeText().toString('utf8', start, end);
    else text = (this.bytes as LazyBytes).range(start, end).toString('utf8');
    return this.numbers?.[code - 1] ? Number(text) : text;
  }

  /**
   * The first code holding `value` (as `materialize` would give it), 0 when none: one pass
   * over the bytes, no strings made. A write looks its few new values up this way.
   */
  codeOf(value: string | number): number {
    const isNumber = typeof value === 'number';
    if (isNumber ? !this.numbers : !isWellFormed(value)) return 0; // a lone surrogate has no UTF-8 form
    const needle = Buffer.from(isNumber ? String(value) : value, 'utf8');
    const text = this.wholeText();
    const numbers = this.numbers;
    let start = 0;
    for (let i = 0; i < this.ends.length; i++) {
      const end = this.ends[i]!;
      if (
        end - start === needle.length &&
        (numbers ? numbers[i] === (isNumber ? 1 : 0) : true) &&
        text.compare(needle, 0, needle.length, start, end) === 0
      ) {
        return i + 1;
      }
      start = end;
    }
    return 0;
  }

  /**
   * The entries as stored: entry i (code i + 1) is `text[ends[i - 1] ?? 0 .. ends[i])`, a
   * number when `numbers[i]` is 1 (its shortest text), else a string. Reads the bytes whole.
   */
  entries(): { readonly ends: Uint32Array; readonly text: Buffer; readonly numbers: Uint8Array | null } {
    return { ends: this.ends, text: this.wholeText(), numbers: this.numbers };
  }

  /**
   * Every entry by code, for a scan that reads each entry once or a few times (ranking for a
   * sort): the bytes are read whole and each entry decoded when asked for, no array kept.
   */
  reader(): { readonly size: number; valueAt(code: number): StoredValue } {
    const text = this.wholeText();
    const { ends, numbers } = this;
    return {
      size: this.size,
      valueAt: (code) => {
        if (code === 0) return null;
        const value = text.toString('utf8', code === 1 ? 0 : ends[code - 2]!, ends[code - 1]);
        return numbers?.[code - 1] ? Number(value) : value;
      },
    };
  }

  private readWholeForCells(): boolean {
    const lazy = this.bytes as LazyBytes;
    return lazy.length <= WHOLE_FOR_CELLS_MAX_BYTES && ++this.rangeReads > RANGE_READS_BEFORE_WHOLE;
  }

  private wholeText(): Buffer {
    if (!this.text) {
      const bytes = (this.bytes as LazyBytes).whole();
      this.text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    return this.text;
  }

  materialize(): StoredValue[] {
    const text = this.wholeText();
    const out = new Array<StoredValue>(this.size);
    out[0] = null;
    let start = 0;
    for (let i = 0; i < this.ends.length; i++) {
      const end = this.ends[i]!;
      const value = text.toString('utf8', start, end);
      out[i + 1] = this.numbers?.[i] ? Number(value) : value;
      start = end;
    }
    return out;
  }

  /**
   * The file form of a dictionary whose entries (after the NULL slot) are all strings, or
   * strings and numbers when `withNumbers`; null for any other dictionary.
   */
  static encode(
    values: readonly StoredValue[],
    withNumbers: boolean,
  ): { ends: Uint32Array; bytes: Uint8Array; numbers: Uint8Array | null } | null {
    const ends = new Uint32Array(values.length - 1);
    const numbers = withNumbers ? new Uint8Array(values.length - 1) : null;
    const texts: string[] = new Array(values.length - 1);
    let total = 0;
    for (let code = 1; code < values.length; code++) {
      const v = values[code];
      let text: string;
      if (typeof v === 'number' && numbers) {
        numbers[code - 1] = 1;
        text = String(v);
      } else if (typeof v === 'string' && isWellFormed(v)) {
        text = v; // a lone surrogate would not survive UTF-8: such a dictionary stays JSON, which keeps it
      } else return null;
      texts[code - 1] = text;
      total += Buffer.byteLength(text, 'utf8');
      // Offsets are 32-bit; such a column stays in the JSON form, which has no such limit.
      if (total > 0xffff_ffff) return null;
      ends[code - 1] = total;
    }
    const bytes = Buffer.allocUnsafe(total);
    let at = 0;
    for (const text of texts) at += bytes.write(text, at, 'utf8');
    return { ends, bytes, numbers };
  }
}

/** ES2024's String.prototype.isWellFormed (Node 20 has it; the project's lib setting is ES2023). */
function isWellFormed(text: string): boolean {
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed();
}
