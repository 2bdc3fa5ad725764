import type { FieldType } from '../field-types';
import { type EncodedValues, TableFileWriter, type CellColumn } from '../sqlite/table-file-writer';
import type { StoredValue } from '../values/coerce';

/**
 * The SQLite table file of an import, filled a chunk of rows at a time (the import's version
 * writer does it, or a second worker while the first writes the columns file). A column's
 * values are either all known up front (a repetitive column's dictionary: encoded for the
 * table once) or arrive with the rows (codes past the dictionary, each met once, in order).
 */
export interface TableColumn {
  readonly id: string;
  readonly type: FieldType;
  /** The entries known before the rows: index = code, [0] is the NULL slot (null). */
  readonly dictionary: readonly StoredValue[];
  /** Entries in all, NULL slot included: the dictionary's and those that arrive with the rows. */
  readonly entries: number;
}

/** One column's part of a chunk of rows (the same parts feed the table file and the columns file). */
export interface ColumnChunk {
  /** A code per row of the chunk. */
  readonly codes: Uint32Array;
  /** The entries this chunk brings, in code order, after every earlier chunk's. */
  readonly values?: readonly StoredValue[];
}

export class TableChunks {
  private readonly table: TableFileWriter;
  private readonly fixed: (EncodedValues | null)[];
  /** Per column, the code the next arriving value gets. */
  private readonly arrived: number[];
  private nextRow = 1;

  constructor(
    path: string,
    table: string,
    private readonly columns: readonly TableColumn[],
  ) {
    this.table = TableFileWriter.create(path, { table, columns });
    try {
      this.fixed = columns.map((c, i) => (c.entries === c.dictionary.length ? this.table.encode(i, c.dictionary) : null));
    } catch (err) {
      this.table.abort();
      throw err;
    }
    this.arrived = columns.map((c) => c.dictionary.length);
  }

  /** The next `count` rows (`_id`s continue from the previous chunk). */
  add(count: number, parts: readonly ColumnChunk[]): void {
    const cells: CellColumn[] = this.columns.map((_column, i) => {
      const part = parts[i]!;
      const base = this.arrived[i]!;
      this.arrived[i] = base + (part.values?.length ?? 0);
      const fixed = this.fixed[i];
      return fixed ? { values: fixed, codes: part.codes } : this.chunkCells(i, part, base);
    });
    const rowIds = new Uint32Array(count);
    for (let k = 0; k < count; k++) rowIds[k] = this.nextRow + k;
    this.table.appendRows(rowIds, 0, count, cells);
    this.nextRow += count;
  }

  /**
   * A chunk's cells of a column whose values arrive with the rows: its own little dictionary,
   * the arrivals first (their codes follow each other, so no lookup), then the entries of the
   * up-front dictionary that its rows use.
   */
  private chunkCells(column: number, part: ColumnChunk, base: number): CellColumn {
    const dictionary = this.columns[column]!.dictionary;
    const arrived = part.values ?? [];
    const values: StoredValue[] = [null, ...arrived];
    const local = new Uint32Array(part.codes.length);
    let known: Map<number, number> | null = null;
    for (let i = 0; i < part.codes.length; i++) {
      const code = part.codes[i]!;
      if (code === 0) continue;
      if (code >= base) {
        local[i] = 1 + code - base;
        continue;
      }
      known ??= new Map();
      let mapped = known.get(code);
      if (mapped === undefined) {
        mapped = values.length;
        if (code >= dictionary.length) throw new Error(`a row refers to value ${code}, which came with an earlier chunk`);
        values.push(dictionary[code]!);
        known.set(code, mapped);
      }
      local[i] = mapped;
    }
    return { values: this.table.encode(column, values), codes: local };
  }

  /** Writes the b-tree's upper levels and page 1, renames the file into place; returns its size. */
  finish(): number {
    return this.table.finish();
  }

  abort(): void {
    this.table.abort();
  }
}
