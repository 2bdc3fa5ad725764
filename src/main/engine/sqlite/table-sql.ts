import type { FieldType } from '../field-types';
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
