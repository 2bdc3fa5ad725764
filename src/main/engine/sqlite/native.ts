import type { SqlJsStatic, Statement } from 'sql.js';

/**
 * sqlite3 C functions that sql.js exports but does not wrap (fast binding, value types).
 * cwrap of an all-number signature hands back the WASM export itself: no conversion cost.
 */
export interface NativeSqlite {
  _sqlite3_bind_text(stmt: number, index: number, ptr: number, bytes: number, destructor: number): number;
  _sqlite3_bind_double(stmt: number, index: number, value: number): number;
  _sqlite3_step(stmt: number): number;
  _sqlite3_reset(stmt: number): number;
  _sqlite3_clear_bindings(stmt: number): number;
  _sqlite3_column_type(stmt: number, column: number): number;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  writeArrayToMemory(array: Uint8Array, ptr: number): void;
  cwrap(name: string, ret: string, args: string[]): (...args: unknown[]) => unknown;
}

export const SQLITE_DONE = 101;
export const SQLITE_FLOAT = 2;

export function native(SQL: SqlJsStatic): NativeSqlite {
  return SQL as unknown as NativeSqlite;
}

/** The sqlite3_stmt* of a sql.js Statement: the numeric field whose SQL text is ours. */
export function statementPointer(SQL: SqlJsStatic, stmt: Statement, sql: string): number | null {
  const sqlOf = native(SQL).cwrap('sqlite3_sql', 'string', ['number']) as (p: number) => string;
  for (const value of Object.values(stmt as unknown as Record<string, unknown>)) {
    if (typeof value !== 'number' || value <= 4096) continue;
    try {
      if (sqlOf(value) === sql) return value;
    } catch {
      // not a statement pointer
    }
  }
  return null;
}
