import type { Column } from '../column-store/column';
import type { TableStore } from '../column-store/table-store';
import { documentLexemes, documentTermIds, PostingsBuilder, TermInterner, type InvertedIndex, type TextSearchLanguage } from '../fts';
import { documentText } from '../values/document-text';

/** Rows to index: `fromRowId`..`toRowId`, both inclusive (default: every row). */
export interface TextIndexRowRange {
  readonly fromRowId?: number;
  readonly toRowId?: number;
}

/**
 * Builds the row-level inverted index over the `indexed` columns (text-layout.ts; the other
 * columns are searched through their dictionaries). A row's document is its cells as text
 * (docs/ckan-contract.md §3.4); a value that repeats is tokenized once, not once per row. With `range`,
 * only the live rows in it are indexed: indexes of consecutive ranges (built e.g. in two
 * workers) combine with mergeDisjointIndexes into the index of the whole table.
 */
export function buildTextIndex(
  store: TableStore,
  language: TextSearchLanguage,
  indexed: ReadonlySet<string>,
  range?: TextIndexRowRange,
): InvertedIndex {
  const live = store.live;
  const from = Math.max(1, Math.ceil(range?.fromRowId ?? 1));
  const to = Math.min(store.maxRowId, Math.floor(range?.toRowId ?? store.maxRowId));
  let rows = 0;
  for (let r = from; r <= to; r++) if (live[r]) rows++;
  const builder = new PostingsBuilder({ expectedRows: rows });
  const interner = new TermInterner(language, builder);
  const sources = store.columns.filter((c) => indexed.has(c.id)).map((c) => termSource(c, store.rowCount, language, interner));
  const rowTerms: number[] = [];
  for (let r = from; r <= to; r++) {
    if (!live[r]) continue;
    // rowTerms is reused, never truncated (that would free its storage every row).
    let n = 0;
    for (const source of sources) n = source(r, rowTerms, n);
    builder.addRow(r, rowTerms, n);
  }
  return builder.finish();
}

/** The lexemes a written row contributes to the inverted index. */
export function rowDocumentLexemes(store: TableStore, rowId: number, language: TextSearchLanguage, indexed: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const c of store.columns) {
    const value = c.valueOf(rowId);
    if (value !== null && indexed.has(c.id)) out.push(...documentLexemes(documentText(value, c.type.storage), language));
  }
  return out;
}

/** A row's whole document text, every column, as CKAN's trigger joins it (phrase checks). */
export function rowDocumentText(store: TableStore, rowId: number): string {
  const parts: string[] = [];
  for (const c of store.columns) {
    const value = c.valueOf(rowId);
    if (value !== null) parts.push(documentText(value, c.type.storage));
  }
  return parts.join(' ');
}

/** Writes a row's term ids for one column to out[at..] and returns the end index. */
type TermSource = (rowId: number, out: number[], at: number) => number;

function termSource(column: Column, rows: number, language: TextSearchLanguage, interner: TermInterner): TermSource {
  const codes = column.codes;
  const values = column.values;
  const storage = column.type.storage;
  if (column.distinctCount > rows / 2) {
    // Mostly unique values: a cache would cost memory and save nothing.
    return (rowId, out, at) => {
      const code = codes[rowId]!;
      return code === 0 ? at : documentTermIds(documentText(values[code]!, storage), language, interner, out, at);
    };
  }
  // Term ids of each distinct value, tokenized the first time a row in range holds it:
  // flat[start[code] .. start[code] + len[code]], start[code] = -1 until then.
  const start = new Int32Array(values.length).fill(-1);
  const len = new Uint32Array(values.length);
  let flat = new Uint32Array(1024);
  let used = 0;
  const scratch: number[] = [];
  return (rowId, out, at) => {
    const code = codes[rowId]!;
    if (code === 0) return at;
    let s = start[code]!;
    if (s < 0) {
      const n = documentTermIds(documentText(values[code]!, storage), language, interner, scratch, 0);
      if (used + n > flat.length) {
        const grown = new Uint32Array(Math.max(used + n, flat.length * 2));
        grown.set(flat.subarray(0, used));
        flat = grown;
      }
      for (let i = 0; i < n; i++) flat[used + i] = scratch[i]!;
      s = used;
      start[code] = s;
      len[code] = n;
      used += n;
    }
    let k = at;
    for (let i = s, end = s + len[code]!; i < end; i++) out[k++] = flat[i]!;
    return k;
  };
}
