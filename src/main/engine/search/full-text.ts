import type { Column } from '../column-store/column';
import {
  matchesPhrase,
  parseTsQuery,
  plainToTsQuery,
  tokenizeDocument,
  TsQuerySyntaxError,
  type AnalyzedDocument,
  type TextSearchLanguage,
  type TsQuery,
} from '../fts';
import { documentText } from '../values/document-text';
import type { ColumnTest } from './column-predicates';
import { invalidQuery } from './invalid-query';

/** The whole-row full-text index of a resource, as a search sees it. */
export interface ResourceTextIndex {
  /** `_id`s whose row document matches, ascending. */
  match(query: TsQuery): Uint32Array;
  /** A score in (0, 1) per row, aligned with `rowIds`; higher means more query terms. */
  rank(query: TsQuery, rowIds: Uint32Array): Float64Array;
  /** `_id`s (ascending) with a word starting with an accent-folded prefix, inside punctuated tokens too. */
  matchFoldedPrefix(foldedPrefix: string): Uint32Array;
  /** `_id`s (ascending) with a word whose folded form, or a word inside it after punctuation, is exactly `folded`. */
  matchFoldedKey(folded: string): Uint32Array;
  /** A row's text as its full-text document (every column), for checks the index cannot answer. */
  documentText(rowId: number): string;
}

/** plainto_tsquery / to_tsquery; a syntax error (or a query over PostgreSQL's size limit) is CKAN's 409 `Invalid query`. */
export function rowTextQuery(text: string, plain: boolean, language: TextSearchLanguage): TsQuery {
  try {
    return plain ? plainToTsQuery(text, language) : parseTsQuery(text, language);
  } catch (err) {
    if (err instanceof TsQuerySyntaxError) {
      // The query is echoed as CKAN does, but a huge one only in part.
      const shown = text.length > 1000 ? `${text.slice(0, 1000)}...` : text;
      throw invalidQuery(err.message, `${plain ? 'plainto_tsquery' : 'to_tsquery'}('${language}', $1)`, [shown]);
    }
    throw err;
  }
}

interface DocumentScore {
  match: boolean;
  weight: number;
}

function countTerm(lexemes: readonly string[], lexeme: string, prefix: boolean): number {
  let n = 0;
  for (const l of lexemes) if (prefix ? l.startsWith(lexeme) : l === lexeme) n++;
  return n;
}

/** Evaluates a tsquery on one document; weight grows with term frequency. */
export function scoreDocument(query: TsQuery, doc: AnalyzedDocument): DocumentScore {
  const lexemes = doc.lexemes;
  switch (query.type) {
    case 'empty':
      return { match: false, weight: 0 };
    case 'term': {
      const tf = countTerm(lexemes, query.lexeme, query.prefix);
      return { match: tf > 0, weight: 0.1 * tf };
    }
    case 'not': {
      const inner = scoreDocument(query.item, doc);
      return { match: !inner.match, weight: 0 };
    }
    case 'phrase': {
      const parts = query.items.map((i) => scoreDocument(i, doc));
      return { match: matchesPhrase(query, lexemes, doc.positions), weight: parts.reduce((s, p) => s + p.weight, 0) };
    }
    case 'and':
    case 'or': {
      const parts = query.items.map((i) => scoreDocument(i, doc));
      const match = query.type === 'and' ? parts.every((p) => p.match) : parts.some((p) => p.match);
      return { match, weight: parts.reduce((s, p) => s + (p.match ? p.weight : 0), 0) };
    }
  }
}

/**
 * An object `q` entry `{column: text}`: `to_tsvector(language, column::text) @@ query`,
 * evaluated once per distinct value of the column; the row scan then reads the result by code.
 */
export function columnTextQuery(
  column: Column,
  text: string,
  plain: boolean,
  language: TextSearchLanguage,
): { test: ColumnTest; scoreByCode: Float64Array } {
  const query = rowTextQuery(text, plain, language);
  const table = new Uint8Array(column.values.length);
  const scoreByCode = new Float64Array(column.values.length);
  for (let code = 1; code < column.values.length; code++) {
    const doc = tokenizeDocument(documentText(column.values[code]!, column.type.storage), language);
    const { match, weight } = scoreDocument(query, doc);
    if (match) {
      table[code] = 1;
      scoreByCode[code] = weight / (weight + 1);
    }
  }
  return { test: { column, table }, scoreByCode };
}
