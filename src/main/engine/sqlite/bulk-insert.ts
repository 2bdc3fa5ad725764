import type { Database, SqlJsStatic } from 'sql.js';
import type { Column } from '../column-store/column';
import type { TableStore } from '../column-store/table-store';
import { quoteIdentifier } from './identifiers';
import { native as nativeOf, SQLITE_DONE, statementPointer, type NativeSqlite as Native } from './native';

/**
 * Copies a column store into its SQLite table, fast. sql.js's `Statement.run(values)`
 * converts every string through a JS byte array and a heap allocation per cell, which is
 * most of the cost of inserting a million rows. Here each column's dictionary is UTF-8
 * encoded once into WASM memory, and every cell is bound by pointer (SQLITE_STATIC) with
 * sqlite3's own exported functions; NULLs come from sqlite3_clear_bindings.
 */

/** Rows per INSERT statement: fewer steps, within SQLite's limit on bound parameters. */
const MAX_BATCH_ROWS = 64;
const MAX_PARAMETERS = 32_000;

/** A string dictionary as one UTF-8 block in WASM memory: code → (pointer, byte length). */
class EncodedDictionary {
  readonly base: number;
  readonly offsets: Uint32Array;

  constructor(
    private readonly native: Native,
    values: readonly unknown[],
  ) {
    const encoder = new TextEncoder();
    let buffer = new Uint8Array(1 << 20);
    let used = 0;
    this.offsets = new Uint32Array(values.length + 1);
    for (let code = 0; code < values.length; code++) {
      this.offsets[code] = used;
      const v = values[code];
      if (typeof v !== 'string') continue;
      if (buffer.length - used < v.length * 3) {
        const grown = new Uint8Array(Math.max(buffer.length * 2, used + v.length * 3));
        grown.set(buffer.subarray(0, used));
        buffer = grown;
      }
      used += encoder.encodeInto(v, buffer.subarray(used)).written;
    }
    this.offsets[values.length] = used;
    this.base = native._malloc(Math.max(used, 1));
    native.writeArrayToMemory(buffer.subarray(0, used), this.base);
  }

  free(): void {
    this.native._free(this.base);
  }
}

type Binder = (stmt: number, param: number, rowId: number) => void;

function binderFor(native: Native, column: Column, dictionaries: EncodedDictionary[]): Binder {
  const codes = column.codes;
  const values = column.values;
  let strings = 0;
  for (let i = 1; i < values.length; i++) if (typeof values[i] === 'string') strings++;
  if (strings === values.length - 1 && strings > 0) {
    const { base, offsets } = encoded(native, values, dictionaries);
    return (stmt, param, rowId) => {
      const code = codes[rowId]!;
      if (code !== 0) native._sqlite3_bind_text(stmt, param, base + offsets[code]!, offsets[code + 1]! - offsets[code]!, 0);
    };
  }
  if (strings > 0) {
    // numeric/int8 (values/exact-number.ts): numbers bound as such, exact texts as text.
    const { base, offsets } = encoded(native, values, dictionaries);
    return (stmt, param, rowId) => {
      const code = codes[rowId]!;
      if (code === 0) return;
      const value = values[code];
      if (typeof value === 'number') native._sqlite3_bind_double(stmt, param, value);
      else native._sqlite3_bind_text(stmt, param, base + offsets[code]!, offsets[code + 1]! - offsets[code]!, 0);
    };
  }
  return (stmt, param, rowId) => {
    const code = codes[rowId]!;
    if (code !== 0) native._sqlite3_bind_double(stmt, param, values[code] as number);
  };
}

function encoded(native: Native, values: readonly unknown[], dictionaries: EncodedDictionary[]): EncodedDictionary {
  const dict = new EncodedDictionary(native, values);
  dictionaries.push(dict);
  return dict;
}

/** Inserts the live rows of a column store (or `rowIds`), keeping their `_id`s. */
export function insertFromStore(SQL: SqlJsStatic, db: Database, table: string, store: TableStore, rowIds?: Uint32Array): void {
  const native = nativeOf(SQL);
  const ids = rowIds ?? store.liveRowIds();
  const columns = store.columns;
  const width = columns.length + 1;
  const batch = Math.max(1, Math.min(MAX_BATCH_ROWS, Math.floor(MAX_PARAMETERS / width)));
  const head = `INSERT INTO ${quoteIdentifier(table)} (${['_id', ...columns.map((c) => c.id)].map(quoteIdentifier).join(', ')})`;
  const tuple = `(${new Array(width).fill('?').join(',')})`;
  const sqlFor = (rows: number) => `${head} VALUES ${new Array(rows).fill(tuple).join(',')}`;
  const insertWithSqlJs = (from: number, to: number) => {
    const stmt = db.prepare(sqlFor(to - from));
    try {
      const params: (string | number | null)[] = [];
      for (let i = from; i < to; i++) params.push(ids[i]!, ...columns.map((c) => c.valueOf(ids[i]!)));
      stmt.run(params);
    } finally {
      stmt.free();
    }
  };

  const fullSql = sqlFor(batch);
  const full = db.prepare(fullSql);
  const stmt = statementPointer(SQL, full, fullSql);
  const dictionaries: EncodedDictionary[] = [];
  try {
    const whole = Math.floor(ids.length / batch) * batch;
    if (stmt === null) {
      for (let i = 0; i < whole; i += batch) insertWithSqlJs(i, i + batch); // another sql.js build: slow but right
    } else {
      const binders = columns.map((c) => binderFor(native, c, dictionaries));
      for (let i = 0; i < whole; i += batch) {
        native._sqlite3_clear_bindings(stmt);
        let param = 1;
        for (let k = 0; k < batch; k++) {
          const rowId = ids[i + k]!;
          native._sqlite3_bind_double(stmt, param++, rowId);
          for (let c = 0; c < binders.length; c++) binders[c]!(stmt, param++, rowId);
        }
        const rc = native._sqlite3_step(stmt);
        native._sqlite3_reset(stmt);
        // Let sql.js run the same rows to raise the error with SQLite's message.
        if (rc !== SQLITE_DONE) insertWithSqlJs(i, i + batch);
      }
    }
    if (whole < ids.length) insertWithSqlJs(whole, ids.length);
  } finally {
    full.free();
    for (const d of dictionaries) d.free();
  }
}
