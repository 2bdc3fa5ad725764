import { AuthorizationError, ValidationError } from '../../errors';
import { ROWS_MAX } from '../search/search-request';

/**
 * datastore_search_sql's errors in CKAN's shapes (docs/ckan-contract.md §4): a query PostgreSQL would
 * refuse is a 409 with `query` and `info` (the statement as run); an unlisted function or a
 * system table is a 403.
 */
export function queryError(message: string, statement: string): ValidationError {
  return new ValidationError({ query: [message], info: { statement: [statement], params: [{}], orig: [message] } });
}

/** The statement CKAN runs for `sql`. */
export function wrappedStatement(sql: string): string {
  return `SELECT * FROM (${sql.trim().replace(/;\s*$/, '')}) AS blah LIMIT ${ROWS_MAX + 1}`;
}

/** What the translator throws: PostgreSQL's wording where PostgreSQL would fail the same way. */
export class SqlQueryError extends Error {}

/**
 * Valid PostgreSQL that Deskstore cannot run (yet): says what, so the user can rewrite it. Told
 * after CKAN's own refusals (search-sql.ts, prepareSql): a query CKAN refuses is refused the
 * same way, whether Deskstore could run it or not.
 */
export class UnsupportedSql extends SqlQueryError {}

export function unsupported(what: string): SqlQueryError {
  return new UnsupportedSql(`${what} is not supported by Deskstore's datastore_search_sql`);
}

/** What a query past its time limit answers, whether SQLite was interrupted or its worker stopped. */
export const queryTookTooLong = (): ValidationError => new ValidationError({ query: ['Query took too long'] });

/**
 * The message `deskstore_tick` (runtime-functions.ts) fails a statement with once the query's
 * deadline has passed: runSql turns it into queryTookTooLong.
 */
export const PAST_DEADLINE = 'deskstore: the query ran past its time limit';

export function functionNotAllowed(name: string): AuthorizationError {
  return new AuthorizationError(`Not authorized to call function ${name}`);
}

export const systemTablesRefused = (): AuthorizationError => new AuthorizationError('Not authorized to access system tables');

/** What CKAN answers when PostgreSQL denies the read-only role something (EXPLAIN: permission denied). */
export const notAuthorizedToRead = (): AuthorizationError => new AuthorizationError('Not authorized to read resource.');
