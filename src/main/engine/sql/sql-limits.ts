import { SqlQueryError } from './sql-errors';

/**
 * What one datastore_search_sql query may build (docs/security.md, "SQL functions"):
 *
 * - every text value a function makes (lpad/rpad, repeat, translate, replace, regexp_replace,
 *   concat/concat_ws, string_agg, array_agg, array_to_string, upper/lower/initcap, `||` in a
 *   recursive step, …) holds at most SQL_TEXT_MAX_BYTES of UTF-8. A function that can tell
 *   its result's size beforehand checks it before building anything: one allocation of
 *   gigabytes kills a whole process in V8, worker resource limits or not
 *   (`lpad('x', 2000000000)` did). The size is also bound by sql.js, which hands a JS
 *   function's text result to SQLite through its 5 MiB WASM stack: a longer one overwrote
 *   SQLite's memory.
 * - SQLite's own allocations in the SQL worker (values `||` builds outside loops, aggregates
 *   while they grow, sorts) stop at SQLITE_HEAP_LIMIT_BYTES (`PRAGMA hard_heap_limit`): past
 *   it a statement fails with "out of memory", which the query is answered with.
 */
export const SQL_TEXT_MAX_BYTES = 4 * 1024 * 1024;

/** The SQL worker's SQLite heap (page caches, sorts, values being built), for every query together. */
export const SQLITE_HEAP_LIMIT_BYTES = 256 * 1024 * 1024;

/** PostgreSQL's words for a value past its limit, with Deskstore's limit after them. */
export function textTooLong(): SqlQueryError {
  return new SqlQueryError(
    `requested length too large: a text value built by a query may hold at most ${SQL_TEXT_MAX_BYTES / 1024 / 1024} MB`,
  );
}

/** Fails when a result of `bytes` UTF-8 bytes would pass the limit: called before building it. */
export function checkTextBytes(bytes: number): void {
  if (!(bytes <= SQL_TEXT_MAX_BYTES)) throw textTooLong();
}

/** UTF-8 bytes of `s`, computed only when its length alone cannot decide. */
export function checkText(s: string): string {
  // One UTF-16 unit is 1 to 3 UTF-8 bytes (a surrogate pair, two units, is 4).
  if (s.length * 3 <= SQL_TEXT_MAX_BYTES) return s;
  if (s.length > SQL_TEXT_MAX_BYTES) throw textTooLong();
  checkTextBytes(Buffer.byteLength(s, 'utf8'));
  return s;
}

/** The most UTF-8 bytes a string of `length` UTF-16 units can take: sizes checked before building. */
export const maxUtf8Bytes = (length: number): number => length * 3;

/** SQLite's failure when its heap limit is reached, in words a user can act on. */
export function sqliteOutOfMemory(): SqlQueryError {
  return new SqlQueryError(
    `out of memory: the query needs more than the ${SQLITE_HEAP_LIMIT_BYTES / 1024 / 1024} MB Deskstore gives SQL; select fewer rows or columns, or aggregate`,
  );
}
