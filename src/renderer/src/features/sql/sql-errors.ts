/**
 * datastore_search_sql errors carry PostgreSQL's English words (as CKAN sends them); the
 * common ones are recognised here and worded in the user's language (`sql.error.*`), the
 * original kept as technical detail. Pure.
 */
import type { ApiError } from '../../api/errors';

export interface SqlErrorText {
  readonly key: string;
  readonly params: Record<string, string>;
}

const PATTERNS: [RegExp, string, string[]][] = [
  [/relation "(.+)" does not exist/, 'relation', ['name']],
  [/column "(.+)" does not exist/, 'column', ['name']],
  [/syntax error at or near "(.*)"/, 'syntax', ['near']],
  [/syntax error at end of input/, 'end', []],
  [/Not authorized to call function (.+)$/, 'notAllowed', ['name']],
  [/Not authorized to read resource/, 'denied', []],
  [/function (.+) does not exist/, 'function', ['name']],
  [/not a single statement/i, 'single', []],
  [/read-only transaction|cannot execute/i, 'readOnly', []],
  [/system tables/i, 'system', []],
  [/canceling statement|statement timeout|time limit/i, 'timeout', []],
  [/^(.+) is not supported by Deskstore's datastore_search_sql$/, 'unsupported', ['what']],
];

/**
 * Statements that change data or the database. datastore_search_sql wraps the query in
 * `SELECT * FROM (…)` as CKAN does, so PostgreSQL answers one of them with a syntax error near
 * its second word: the screen says what is really wrong.
 */
const WRITES =
  /^(insert|update|delete|merge|upsert|drop|create|alter|truncate|grant|revoke|copy|comment|vacuum|analyze|reindex|cluster|lock|call|do|set|reset|begin|start|commit|rollback|savepoint|release|prepare|execute|deallocate|listen|notify|refresh|import|load|discard)\b/i;

/** The query from its first word: comments, spaces and opening brackets left out. */
function queryStart(sql: string): string {
  return sql
    .replace(/--[^\n]*(\n|$)/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/^[\s(]+/, '');
}

export function sqlErrorText(error: ApiError, sql = ''): SqlErrorText | null {
  if (WRITES.test(queryStart(sql))) return { key: 'sql.error.readOnly', params: {} };
  const texts = [...Object.values(error.fields).flat(), error.message];
  for (const text of texts) {
    for (const [pattern, key, names] of PATTERNS) {
      const m = pattern.exec(text);
      if (m) return { key: `sql.error.${key}`, params: Object.fromEntries(names.map((n, i) => [n, m[i + 1] ?? ''])) };
    }
  }
  return null;
}
