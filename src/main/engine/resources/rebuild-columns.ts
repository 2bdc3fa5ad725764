import type { Database } from 'sql.js';
import { Column } from '../column-store/column';
import { TableStore } from '../column-store/table-store';
import type { DatastoreRecord } from '../catalogue/records';
import { fieldTypeOf } from '../field-types';
import type { InvertedIndex, TextSearchLanguage } from '../fts';
import { quoteIdentifier } from '../sqlite/identifiers';
import { rowWithBigInts } from '../sqlite/sql-js';
import { buildTextIndex } from '../text-index/build-text-index';
import { chooseIndexedColumns } from '../text-index/text-layout';
import { storedFromSqlite } from '../values/sqlite-value';

/**
 * The column store and full-text index rebuilt from a generation's SQLite table: what the
 * engine does when a `.columns` file is missing or damaged but the table is intact (the two
 * files hold the same data; either can restore the other).
 */
export function rebuildColumnsFromSqlite(db: Database, resourceId: string, record: DatastoreRecord):
  { store: TableStore; textIndex: InvertedIndex; indexedColumns: string[] } {
  const fields = record.fields.map((f) => ({ id: f.id, type: fieldTypeOf(f.type) }));
  const names = ['_id', ...fields.map((f) => f.id)].map(quoteIdentifier).join(', ');
  const stmt = db.prepare(`SELECT ${names} FROM ${quoteIdentifier(resourceId)} ORDER BY _id`);
  const columns = fields.map((f) => Column.empty(f.id, f.type, 1024));
  let live = new Uint8Array(1024);
  let maxRowId = 0;
  try {
    while (stmt.step()) {
      const row = rowWithBigInts(stmt);
      const rowId = Number(row[0]);
      if (rowId >= live.length) {
        const grown = new Uint8Array(rowId * 2);
        grown.set(live);
        live = grown;
      }
      live[rowId] = 1;
      maxRowId = Math.max(maxRowId, rowId);
      for (let c = 0; c < columns.length; c++) columns[c]!.set(rowId, storedFromSqlite(row[c + 1], fields[c]!.type));
    }
  } finally {
    stmt.free();
  }
  // AUTOINCREMENT's high-water mark: `_id`s of rows deleted at the end are never given again.
  const sequence = Number(db.exec('SELECT seq FROM sqlite_sequence WHERE name = ?', [resourceId])[0]?.values[0]?.[0] ?? 0);
  if (sequence > maxRowId) {
    maxRowId = sequence;
    if (maxRowId >= live.length) {
      const grown = new Uint8Array(maxRowId + 1);
      grown.set(live);
      live = grown;
    }
  }
  for (const c of columns) c.ensureCapacity(live.length);
  const store = new TableStore(columns, live, maxRowId);
  const indexedColumns = chooseIndexedColumns(store);
  const textIndex = buildTextIndex(store, record.ftsLanguage as TextSearchLanguage, new Set(indexedColumns));
  return { store, textIndex, indexedColumns };
}
