import initSqlJs, { type SqlJsStatic } from 'sql.js';

/**
 * sql.js compiles its WASM module once per thread; every database of the thread shares it.
 * (Each worker has its own copy: WASM memory is per isolate.)
 */
let loading: Promise<SqlJsStatic> | null = null;

export function loadSqlJs(): Promise<SqlJsStatic> {
  loading ??= initSqlJs();
  return loading;
}
