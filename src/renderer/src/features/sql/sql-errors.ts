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
  [/function (.+) does not exist/, 'function', ['name']],
  [/not a single statement/i, 'single', []],
  [/read-only transaction|cannot execute/i, 'readOnly', []],
  [/system tables/i, 'system', []],
  [/canceling statement|statement timeout|time limit/i, 'timeout', []],
];

export function sqlErrorText(error: ApiError): SqlErrorText | null {
  const texts = [...Object.values(error.fields).flat(), error.message];
  for (const text of texts) {
    for (const [pattern, key, names] of PATTERNS) {
      const m = pattern.exec(text);
      if (m) return { key: `sql.error.${key}`, params: Object.fromEntries(names.map((n, i) => [n, m[i + 1] ?? ''])) };
    }
  }
  return null;
}
