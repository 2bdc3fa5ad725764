/**
 * Pass-one storage of a CSV import: every column dictionary-encoded on its raw (trimmed) text
 * as rows stream in. Type inference then looks at each distinct value once, and the typed
 * column store is derived from these codes without reading the file a second time.
 *
 * A column whose values keep being new (ids, amounts, free text) stops deduplicating once
 * that is clear: every further cell is appended. Its dictionary may then repeat a value
 * (`mayRepeat`), which the column store handles, and the import skips millions of lookups.
 */
const PROBE_ROWS = 1 << 15;
const UNIQUE_SHARE = 0.9;

export class RawColumnBuilder {
  private lookup: Map<string, number> | null = new Map<string, number>();
  private appendOnly = false;
  /** Raw values; index = code, 0 is the empty cell. */
  readonly values: string[] = [''];
  /** How many cells hold each code (inference wants the blank count). */
  counts: Uint32Array = new Uint32Array(1024);
  codes: Uint32Array;

  constructor(initialRows = 1 << 16) {
    this.codes = new Uint32Array(initialRows);
  }

  /** True once the column stopped deduplicating: its dictionary may repeat values. */
  get mayRepeat(): boolean {
    return this.appendOnly;
  }

  /** Records the cell of row `rowId` (1-based). Empty text is the NULL code 0. */
  add(rowId: number, text: string): void {
    if (rowId >= this.codes.length) this.codes = grow(this.codes, rowId + 1);
    let code = 0;
    if (text !== '') {
      const known = this.lookup?.get(text);
      if (known === undefined) {
        code = this.values.length;
        this.values.push(text);
        this.lookup?.set(text, code);
        if (code >= this.counts.length) this.counts = grow(this.counts, code + 1);
      } else {
        code = known;
      }
    }
    this.codes[rowId] = code;
    this.counts[code]!++;
    if (rowId === PROBE_ROWS && this.values.length > PROBE_ROWS * UNIQUE_SHARE) {
      this.appendOnly = true;
      this.lookup = null;
    }
  }

  /**
   * Frees the lookup map once the file is read. Rows never added (a column added halfway, for
   * extra cells) are empty: their codes are 0 already, and the empty count is recomputed.
   */
  seal(rows: number): void {
    this.lookup = null;
    this.codes = this.codes.length >= rows + 1 ? this.codes.slice(0, rows + 1) : grow(this.codes, rows + 1).slice(0, rows + 1);
    let filled = 0;
    for (let code = 1; code < this.values.length; code++) filled += this.counts[code]!;
    this.counts[0] = rows - filled;
  }
}

function grow(array: Uint32Array, atLeast: number): Uint32Array {
  const next = new Uint32Array(Math.max(atLeast, array.length * 2));
  next.set(array);
  return next;
}
