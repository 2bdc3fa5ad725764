import type { Column } from '../column-store/column';
import type { TableStore } from '../column-store/table-store';
import { documentLexemes, PostingsBuilder, type InvertedIndex, type TextSearchLanguage } from '../fts';
import { documentText } from '../values/document-text';

/**
 * Builds the row-level inverted index over the `indexed` columns (text-layout.ts; the other
 * columns are searched through their dictionaries). A row's document is its cells as text
 * (contract §3.4); a value that repeats is tokenized once, not once per row.
 */
export function buildTextIndex(store: TableStore, language: TextSearchLanguage, indexed: ReadonlySet<string>): InvertedIndex {
  const builder = new PostingsBuilder();
  const sources = store.columns.filter((c) => indexed.has(c.id)).map((c) => termSource(c, store.rowCount, language, builder));
  const rowTerms: number[] = [];
  const live = store.live;
  for (let r = 1; r <= store.maxRowId; r++) {
    if (!live[r]) continue;
    rowTerms.length = 0;
    for (const source of sources) source(r, rowTerms);
    builder.addRow(r, rowTerms);
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

type TermSource = (rowId: number, out: number[]) => void;

function termSource(column: Column, rows: number, language: TextSearchLanguage, builder: PostingsBuilder): TermSource {
  const codes = column.codes;
  const lexemesOf = (code: number): string[] =>
    documentLexemes(documentText(column.values[code]!, column.type.storage), language);
  if (column.distinctCount > rows / 2) {
    // Mostly unique values: a cache would cost memory and save nothing.
    return (rowId, out) => {
      const code = codes[rowId]!;
      if (code !== 0) for (const l of lexemesOf(code)) out.push(builder.internLexeme(l));
    };
  }
  // Term ids of every distinct value, flattened: offsets[code]..offsets[code + 1].
  const offsets = new Uint32Array(column.values.length + 1);
  const terms: number[] = [];
  for (let code = 1; code < column.values.length; code++) {
    offsets[code] = terms.length;
    for (const l of lexemesOf(code)) terms.push(builder.internLexeme(l));
  }
  offsets[column.values.length] = terms.length;
  const flat = Uint32Array.from(terms);
  return (rowId, out) => {
    const code = codes[rowId]!;
    for (let i = offsets[code]!, end = offsets[code + 1]!; code !== 0 && i < end; i++) out.push(flat[i]!);
  };
}
