import type { Column } from '../column-store/column';
import type { TableStore } from '../column-store/table-store';
import { documentLexemes, PostingsBuilder, type InvertedIndex, type TextSearchLanguage } from '../fts';
import { documentText } from '../values/document-text';

/**
 * Builds the whole-row full-text index of a column store: each row's document is all its
 * cells as text (contract §3.4). Cells are tokenized once per distinct value, not per row,
 * for columns whose values repeat: a region name is tokenized once for a million rows.
 */
export function buildTextIndex(store: TableStore, language: TextSearchLanguage): InvertedIndex {
  const builder = new PostingsBuilder();
  const sources = store.columns.map((c) => termSource(c, store.rowCount, language, builder));
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

/** The lexemes of one row's document, for verifying phrase queries and re-indexing a row. */
export function rowDocumentLexemes(store: TableStore, rowId: number, language: TextSearchLanguage): string[] {
  const out: string[] = [];
  for (const c of store.columns) {
    const value = c.valueOf(rowId);
    if (value !== null) out.push(...documentLexemes(documentText(value, c.type.storage), language));
  }
  return out;
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
