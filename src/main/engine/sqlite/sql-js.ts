import initSqlJs, { type Database, type SqlJsStatic, type Statement } from 'sql.js';

/**
 * sql.js compiles its WASM module once per thread; every database of the thread shares it.
 * (Each worker has its own copy: WASM memory is per isolate.)
 */
let loading: Promise<SqlJsStatic> | null = null;
let loaded: SqlJsStatic | null = null;

export function loadSqlJs(): Promise<SqlJsStatic> {
  // SQLite's own math functions (sqrt, ln, power, …) instead of sql.js's deprecated JS ones,
  // which print a warning on every first use.
  const config = { useOldExtensionFunctions: false } as Parameters<typeof initSqlJs>[0];
  loading ??= initSqlJs(config).then((module) => (loaded = module));
  return loading;
}

/** The module, for synchronous paths of a thread that already awaited loadSqlJs(). */
export function sqlJsLoaded(): SqlJsStatic {
  if (!loaded) throw new Error('sql.js is not loaded yet in this thread (await loadSqlJs() at start-up)');
  return loaded;
}

/**
 * The current row of a stepped statement with INTEGERs as BigInt (sql.js's `useBigInt`
 * option, which its typings lack), so that an int8 keeps every digit.
 */
export function rowWithBigInts(stmt: Statement): unknown[] {
  const get = stmt.get as unknown as (this: Statement, params: null, config: { useBigInt: boolean }) => unknown[];
  return get.call(stmt, null, { useBigInt: true });
}

/** An aggregate function written in JS (sql.js ≥1.10's `create_aggregate`, missing from its typings). */
export interface JsAggregate<S> {
  init(): S;
  step(state: S, value: unknown): S;
  finalize(state: S): number | string | null;
}

export function createAggregate<S>(db: Database, name: string, aggregate: JsAggregate<S>): void {
  const create = (db as unknown as { create_aggregate: (name: string, functions: JsAggregate<S>) => void }).create_aggregate;
  create.call(db, name, aggregate);
}
