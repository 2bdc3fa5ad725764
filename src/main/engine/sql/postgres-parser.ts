import { loadModule, parseSync, scanSync, type Node } from 'libpg-query';

/**
 * PostgreSQL's own parser (libpg_query, compiled to WASM): datastore_search_sql reads a
 * query exactly as CKAN's PostgreSQL would, with its grammar and its syntax error messages
 * (`syntax error at or near "FROM"`). Loaded once per thread.
 */
let loading: Promise<void> | null = null;

export function loadPostgresParser(): Promise<void> {
  loading ??= loadModule();
  return loading;
}

/** A query PostgreSQL could not parse; `message` is PostgreSQL's. */
export class PostgresSyntaxError extends Error {}

function syntaxError(err: unknown): PostgresSyntaxError {
  const details = (err as { sqlDetails?: { message?: string } }).sqlDetails;
  return new PostgresSyntaxError(details?.message ?? (err instanceof Error ? err.message : String(err)));
}

/**
 * How many statements the text holds, as CKAN's `is_single_statement` counts them (sqlparse
 * splits on `;` outside quotes and comments; trailing semicolons and blanks do not count).
 */
export function statementCount(sql: string): number {
  let tokens;
  try {
    tokens = scanSync(sql).tokens;
  } catch (err) {
    throw syntaxError(err);
  }
  let count = 0;
  let open = false;
  for (const token of tokens) {
    if (token.tokenName === 'SQL_COMMENT' || token.tokenName === 'C_COMMENT') continue;
    if (token.text === ';') {
      open = false;
    } else if (!open) {
      open = true;
      count++;
    }
  }
  return count;
}

/** The parse tree of one statement (loadPostgresParser() must have resolved). */
export function parseStatement(sql: string): Node {
  let result;
  try {
    result = parseSync(sql);
  } catch (err) {
    throw syntaxError(err);
  }
  const stmt = result.stmts?.[0]?.stmt;
  if (!stmt) throw new PostgresSyntaxError('syntax error at end of input');
  return stmt;
}
