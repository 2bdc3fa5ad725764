import { isStoredAsNumber, type FieldType } from '../field-types';
import {
  isTextSearchLanguage,
  parseTsQuery,
  plainQueryLexemes,
  plainToTsQuery,
  tokenizeDocument,
  TsQuerySyntaxError,
  type TextSearchLanguage,
  type TsQuery,
} from '../fts';
import { scoreDocument } from '../search/full-text';
import { documentText } from '../values/document-text';
import { storedFromSqlite } from '../values/sqlite-value';
import { SqlQueryError } from './sql-errors';
import { compareUtf8Order } from '../../util/utf8-order';

/**
 * tsvector and tsquery inside a translated query. A tsvector travels through SQLite as its
 * language and document text (`_full_text` is each row's cells, as CKAN's trigger joins
 * them); it becomes PostgreSQL's tsvector text (`'lexeme':1,3 …`) only when it is output,
 * and `@@` tokenizes it with the same parser and stemmers as datastore_search.
 */
const SEPARATOR = '\u0000';

export function tsvectorValue(language: TextSearchLanguage, document: string): string {
  return `${language}${SEPARATOR}${document}`;
}

/** The `_full_text` of a row of a resource with these fields. */
export function rowDocument(fields: readonly { readonly type: FieldType }[], values: readonly unknown[]): string {
  const parts: string[] = [];
  fields.forEach((f, i) => {
    // Numbers arrive as their JSON text: only integers, floats and booleans need them as numbers.
    const raw = values[i];
    const storage = f.type.storage;
    const value = storedFromSqlite(isStoredAsNumber(storage) ? (raw === null ? null : Number(raw)) : raw, f.type);
    if (value !== null) parts.push(documentText(value, f.type.storage));
  });
  return parts.join(' ');
}

export function textSearchLanguage(config: unknown): TextSearchLanguage {
  if (config === null || config === undefined) return 'english';
  const name = String(config)
    .replace(/^pg_catalog\./, '')
    .toLowerCase();
  if (!isTextSearchLanguage(name)) throw new SqlQueryError(`text search configuration "${String(config)}" does not exist`);
  return name;
}

function splitValue(value: string): [TextSearchLanguage, string] {
  const at = value.indexOf(SEPARATOR);
  return [textSearchLanguage(value.slice(0, at)), value.slice(at + 1)];
}

const queries = new Map<string, TsQuery>();

/** A tsquery value: kind (to_tsquery, plainto_tsquery, phraseto_tsquery), language, text. */
export function tsqueryValue(kind: string, config: unknown, text: string): string {
  return [kind, textSearchLanguage(config), text].join(SEPARATOR);
}

function parsedQuery(value: string): TsQuery {
  let query = queries.get(value);
  if (!query) {
    const [kind = '', language = 'english', text = ''] = value.split(SEPARATOR);
    const lang = textSearchLanguage(language);
    try {
      if (kind === 'plainto_tsquery') query = plainToTsQuery(text, lang);
      else if (kind === 'phraseto_tsquery')
        query = parseTsQuery(
          plainQueryLexemes(text, lang)
            .map((l) => `'${l.replace(/'/g, "''")}'`)
            .join(' <-> ') || "''",
          'simple',
        );
      else query = parseTsQuery(text, lang);
    } catch (err) {
      if (err instanceof TsQuerySyntaxError) throw new SqlQueryError(`syntax error in tsquery: "${text}"`);
      throw err;
    }
    if (queries.size > 1000) queries.clear();
    queries.set(value, query);
  }
  return query;
}

export function tsMatch(tsvector: string, tsquery: string): boolean {
  const [language, document] = splitValue(tsvector);
  return scoreDocument(parsedQuery(tsquery), tokenizeDocument(document, language)).match;
}

/** A relevance that grows with term frequency (as datastore_search's rank; not ts_rank's exact value). */
export function tsRank(tsvector: string, tsquery: string): number {
  const [language, document] = splitValue(tsvector);
  const score = scoreDocument(parsedQuery(tsquery), tokenizeDocument(document, language));
  return score.match ? Number((score.weight / (1 + score.weight)).toPrecision(8)) : 0;
}

/** PostgreSQL's tsvector text: lexemes in byte order, each with its positions. */
export function tsvectorText(tsvector: string): string {
  const [language, document] = splitValue(tsvector);
  const doc = tokenizeDocument(document, language);
  const positions = new Map<string, number[]>();
  doc.lexemes.forEach((lexeme, i) => {
    const list = positions.get(lexeme);
    const position = doc.positions[i]!;
    if (!list) positions.set(lexeme, [position]);
    else if (list[list.length - 1] !== position && list.length < 256) list.push(position);
  });
  return [...positions.keys()]
    .sort(compareUtf8Order)
    .map((lexeme) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}':${positions.get(lexeme)!.join(',')}`)
    .join(' ');
}
