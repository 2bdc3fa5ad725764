import type { Database } from 'sql.js';
import type { TableStore } from '../column-store/table-store';
import type { FieldType } from '../field-types';
import type { StoredValue } from '../values/coerce';
import { quoteIdentifier } from './identifiers';

/**
 * A resource's table in its own SQLite database, named by the resource id so that
 * datastore_search_sql can say `FROM "<resource id>"` as on CKAN. `_id` is the rowid, assigned
 * in insertion order and never reused (AUTOINCREMENT keeps deleted ids from coming back).
 */

export interface TableColumn {
  readonly id: string;
  readonly type: FieldType;
}

export function createTableSql(table: string, columns: readonly TableColumn[]): string {
  const cols = columns.map((c) => `${quoteIdentifier(c.id)} ${c.type.sqliteType}`);
  return `CREATE TABLE ${quoteIdentifier(table)} (_id INTEGER PRIMARY KEY AUTOINCREMENT${cols.map((c) => `, ${c}`).join('')})`;
}

export function uniqueIndexSql(table: string, columns: readonly string[]): string {
  return `CREATE UNIQUE INDEX ${quoteIdentifier(`${table}_pkey`)} ON ${quoteIdentifier(table)} (${columns.map(quoteIdentifier).join(', ')})`;
}

/**
 * Rows go in batches of one multi-row INSERT: far fewer statement steps than one per row,
 * within SQLite's limit on bound parameters (32766 in sql.js's build).
 */
const MAX_BATCH_ROWS = 64;
const MAX_PARAMETERS = 32_000;

/** Inserts the given live rows of a column store (all of them by default), keeping `_id`s. */
export function insertFromStore(db: Database, table: string, store: TableStore, rowIds?: Uint32Array): void {
  const ids = rowIds ?? store.liveRowIds();
  const columns = store.columns;
  const names = ['_id', ...columns.map((c) => c.id)].map(quoteIdentifier).join(', ');
  const tuple = `(${new Array(columns.length + 1).fill('?').join(',')})`;
  const prepare = (rows: number) =>
    db.prepare(`INSERT INTO ${quoteIdentifier(table)} (${names}) VALUES ${new Array(rows).fill(tuple).join(',')}`);
  const width = columns.length + 1;
  const BATCH_ROWS = Math.max(1, Math.min(MAX_BATCH_ROWS, Math.floor(MAX_PARAMETERS / width)));
  const full = prepare(BATCH_ROWS);
  const values: StoredValue[] = new Array(width * BATCH_ROWS);
  try {
    let i = 0;
    for (; i + BATCH_ROWS <= ids.length; i += BATCH_ROWS) {
      for (let k = 0; k < BATCH_ROWS; k++) fillRow(values, k * width, ids[i + k]!, columns);
      full.run(values);
    }
    if (i < ids.length) {
      const rest = ids.length - i;
      const last = prepare(rest);
      const tail: StoredValue[] = new Array(width * rest);
      for (let k = 0; k < rest; k++) fillRow(tail, k * width, ids[i + k]!, columns);
      last.run(tail);
      last.free();
    }
  } finally {
    full.free();
  }
}

function fillRow(out: StoredValue[], at: number, rowId: number, columns: TableStore['columns']): void {
  out[at] = rowId;
  for (let c = 0; c < columns.length; c++) out[at + 1 + c] = columns[c]!.valueOf(rowId);
}
