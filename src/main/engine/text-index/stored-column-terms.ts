import type { TableStore } from '../column-store/table-store';
import { isNumericStorage, type FieldType, type StorageKind } from '../field-types';
import { documentTermIds, encodeIndex, PostingsBuilder, TermInterner, type InvertedIndex, type TextSearchLanguage } from '../fts';
import type { StoredValue } from '../values/coerce';
import { documentText } from '../values/document-text';

/**
 * The lexeme → codes tables of the columns searched through their dictionaries
 * (column-terms.ts `DictionaryTerms`: repeating text, dates, booleans), written into the
 * columns file at import so that a restarted server's first `q` reads them instead of
 * tokenizing every distinct value (232 ms of a 1M-row resource's first `q`, most of it one
 * column of 110,000 codes). Each table is an inverted index whose "rows" are dictionary codes
 * (fts/index-codec.ts, the same form and reader as the row-level index): one entry per
 * distinct value, so small. It covers codes below `entries`; codes a write adds later are
 * tokenized in memory, and a file without the tables (written before them) is searched by
 * tokenizing, as before.
 */

/** One column's table as the columns file's header lists it (`text.dictionaryTerms`). */
export interface StoredColumnTermsHeader {
  readonly column: string;
  /** Dictionary entries covered, NULL slot included: codes 1..entries-1. */
  readonly entries: number;
  readonly meta: unknown;
  readonly sections: number[];
}

/** A column's table as loaded: the index (term table read when opened, postings on demand). */
export interface StoredColumnTerms {
  readonly index: InvertedIndex;
  readonly entries: number;
}

/** A column's table as built (in memory, whole). */
export interface BuiltColumnTerms extends StoredColumnTerms {
  readonly column: string;
}

/** Whether a column is searched through its dictionary rather than the inverted index. */
export function hasDictionaryTerms(type: FieldType, id: string, indexed: ReadonlySet<string>): boolean {
  return !isNumericStorage(type.storage) && !indexed.has(id);
}

/** Builds one column's table from its dictionary, a slice of values at a time in code order. */
export class ColumnTermsBuilder {
  private readonly builder: PostingsBuilder;
  private readonly interner: TermInterner;
  private readonly scratch: number[] = [];
  private next = 1; // code 0 is the NULL slot

  constructor(
    readonly column: string,
    private readonly storage: StorageKind,
    private readonly language: TextSearchLanguage,
    expectedEntries = 0,
  ) {
    this.builder = new PostingsBuilder({ expectedRows: expectedEntries });
    this.interner = new TermInterner(language, this.builder);
  }

  /** The next dictionary entries (codes continue from the previous call's). */
  add(values: readonly StoredValue[]): void {
    for (const value of values) {
      const code = this.next++;
      if (value === null) continue;
      const n = documentTermIds(documentText(value, this.storage), this.language, this.interner, this.scratch, 0);
      if (n > 0) this.builder.addRow(code, this.scratch, n);
    }
  }

  finish(): BuiltColumnTerms {
    return { column: this.column, index: this.builder.finish(), entries: this.next };
  }
}

/** Every dictionary-searched column's table, from a whole column store (a checkpoint, a rebuilt file). */
export function buildStoreColumnTerms(
  store: TableStore,
  language: TextSearchLanguage,
  indexed: ReadonlySet<string>,
): BuiltColumnTerms[] {
  return store.columns
    .filter((c) => hasDictionaryTerms(c.type, c.id, indexed))
    .map((c) => {
      const values = c.values;
      const builder = new ColumnTermsBuilder(c.id, c.type.storage, language, values.length);
      builder.add(values.slice(1));
      return builder.finish();
    });
}

/** Built tables as the text reader opens them (by column id). */
export function openedColumnTerms(tables: readonly BuiltColumnTerms[]): Map<string, () => StoredColumnTerms> {
  return new Map(tables.map((t) => [t.column, () => t]));
}

/** Appends each table's sections (`append` returns a section's number) and returns the header entries. */
export function writeColumnTerms(
  tables: readonly BuiltColumnTerms[],
  append: (bytes: Uint8Array) => number,
): StoredColumnTermsHeader[] {
  return tables.map(({ column, index, entries }) => {
    const encoded = encodeIndex(index);
    return { column, entries, meta: encoded.meta, sections: encoded.buffers.map(append) };
  });
}
