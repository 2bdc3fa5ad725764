import { ColumnTypeInference } from './type-inference';

/**
 * Pass-one storage of an import: every column dictionary-encoded on its raw (trimmed) text as
 * rows stream in. Type inference then looks at each distinct value once, and the typed column
 * store is derived from these codes without reading the file a second time.
 *
 * A column whose values keep being new (ids, amounts, free text) stops deduplicating once
 * that is clear: every further cell is appended. Its dictionary may then repeat a value
 * (`mayRepeat`), which the column store handles, and the import skips millions of lookups. A
 * dictionary that grows past a million entries stops deduplicating too, and so does a column
 * that meets a new value once all the columns' dictionaries together hold their budget
 * (`DictionaryBudget`), so that memory stays bounded whatever the file and its width.
 *
 * Two ways to keep the codes: in memory, one per row (previews, small reads), or — when the
 * import spills (row-spill.ts) — a chunk of rows at a time, the RowCollector writing each
 * chunk out; the appended values of a spilling column then go out with their chunk instead of
 * staying in `values`, and are observed for type inference on their way out.
 */
const PROBE_ROWS = 1 << 15;
const UNIQUE_SHARE = 0.9;
/** Distinct values a column deduplicates in memory, at most. */
export const MAX_DICTIONARY_ENTRIES = 1 << 20;

/** The bytes all the in-memory dictionaries of an import may hold together (about 2 per character, 48 per entry). */
export class DictionaryBudget {
  used = 0;
  constructor(readonly limit = 192 * 1024 * 1024) {}
}

export class RawColumnBuilder {
  private lookup: Map<string, number> | null = new Map<string, number>();
  private appendOnly = false;
  /** Raw values in memory; index = code, 0 is the empty cell. */
  readonly values: string[] = [''];
  /** How many cells hold each in-memory code (inference wants the blank count). */
  counts: Uint32Array = new Uint32Array(1024);
  /**
   * In memory: a code per row (index = rowId). Spilling: a code per row of the current chunk
   * (index = rowId - chunkStart).
   */
  codes: Uint32Array;
  /** Spilling: the chunk's first rowId, and the values appended in this chunk. */
  private chunkStart = 0;
  private pending: string[] | null = null;
  private spilledValues = 0;
  /** Inference over the values that left with their chunk (each observed once, as it went). */
  readonly spilledInference = new ColumnTypeInference();

  /** `chunkRows`: spill mode, starting at row `firstRow`; otherwise codes for `initialRows` rows in memory. */
  constructor(
    initialRows = 1 << 16,
    chunk?: { rows: number; firstRow: number },
    private readonly budget?: DictionaryBudget,
  ) {
    if (chunk) {
      this.codes = new Uint32Array(chunk.rows);
      this.chunkStart = chunk.firstRow;
      this.pending = [];
    } else {
      this.codes = new Uint32Array(initialRows);
    }
  }

  /** True once the column stopped deduplicating: its dictionary may repeat values. */
  get mayRepeat(): boolean {
    return this.appendOnly;
  }

  get spills(): boolean {
    return this.pending !== null;
  }

  /** Values that left with their chunks: codes values.length .. values.length + spilledCount - 1. */
  get spilledCount(): number {
    return this.spilledValues;
  }

  /** Records the cell of row `rowId` (1-based). Empty text is the NULL code 0. */
  add(rowId: number, text: string): void {
    const spill = this.pending;
    const at = spill ? rowId - this.chunkStart : rowId;
    if (at >= this.codes.length) this.codes = grow(this.codes, at + 1);
    let code = 0;
    if (text !== '') {
      const known = this.lookup?.get(text);
      if (known !== undefined) code = known;
      else {
        if (spill && this.appendOnly) {
          code = this.values.length + this.spilledValues++;
          spill.push(text);
          this.spilledInference.observe(text);
        } else {
          code = this.values.length;
          this.values.push(text);
          this.lookup?.set(text, code);
          if (code >= this.counts.length) this.counts = grow(this.counts, code + 1);
          if (this.budget && (this.budget.used += text.length * 2 + 48) > this.budget.limit) this.appendOnly = true;
        }
      }
      if (code < this.values.length) this.counts[code]!++;
    } else {
      this.counts[0]!++;
    }
    this.codes[at] = code;
    if (
      (rowId === PROBE_ROWS && this.values.length > PROBE_ROWS * UNIQUE_SHARE) ||
      this.values.length > MAX_DICTIONARY_ENTRIES ||
      this.appendOnly
    ) {
      this.appendOnly = true;
      this.lookup = null;
    }
  }

  /** Spilling: the values appended in the current chunk (codes past `values`, in order). */
  get chunkValues(): readonly string[] {
    return this.pending ?? [];
  }

  /** Spilling: the current chunk went to the spill; the next one starts at `firstRow`. */
  startChunk(firstRow: number): void {
    this.pending = [];
    this.chunkStart = firstRow;
    this.codes.fill(0);
  }

  /**
   * Frees the lookup map once the file is read. Rows never added (a column added halfway, for
   * extra cells) are empty: their codes are 0 already, and the empty count is recomputed.
   */
  seal(rows: number): void {
    this.lookup = null;
    if (!this.spills) {
      this.codes = this.codes.length >= rows + 1 ? this.codes.slice(0, rows + 1) : grow(this.codes, rows + 1).slice(0, rows + 1);
    }
    let filled = this.spilledValues;
    for (let code = 1; code < this.values.length; code++) filled += this.counts[code]!;
    this.counts[0] = rows - filled;
  }
}

function grow(array: Uint32Array, atLeast: number): Uint32Array {
  const next = new Uint32Array(Math.max(atLeast, array.length * 2));
  next.set(array);
  return next;
}
