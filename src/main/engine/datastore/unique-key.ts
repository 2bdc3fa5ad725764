import type { Database } from 'sql.js';
import { ValidationError } from '../../errors';
import type { FieldType } from '../field-types';
import { quoteIdentifier } from '../sqlite/identifiers';
import { uniqueIndexSql } from '../sqlite/table-sql';
import { ckanIndexName } from './index-name';

/**
 * `primary_key` is a unique index, which CKAN creates after inserting the records of the same
 * request (create_indexes runs after insert_data). Rows that already break it make the
 * index fail: 2.11 answers `constraints` (its message lacks a space: the two string parts
 * are joined without one) and PostgreSQL's error under `info`, with the duplicated key.
 */
export function createUniqueKey(
  db: Database,
  table: string,
  columns: readonly string[],
  fields: readonly { id: string; type: FieldType }[],
): void {
  try {
    db.exec(uniqueIndexSql(table, columns));
  } catch {
    const name = ckanIndexName(table, columns, fields);
    const list = columns.map(quoteIdentifier).join(', ');
    const duplicate =
      db.exec(`SELECT ${list} FROM ${quoteIdentifier(table)} GROUP BY ${list} HAVING count(*) > 1 LIMIT 1`)[0]?.values[0] ?? [];
    const key = `Key (${columns.join(', ')})=(${duplicate.map((v) => (v === null ? '' : String(v))).join(', ')}) is duplicated.`;
    throw new ValidationError({
      constraints: ['Cannot insert records or create indexbecause of uniqueness constraint'],
      info: { orig: `could not create unique index "${name}"\nDETAIL:  ${key}\n`, pgcode: '23505' },
    });
  }
}

export function dropUniqueKey(db: Database, table: string): void {
  db.exec(`DROP INDEX IF EXISTS ${quoteIdentifier(`${table}_pkey`)}`);
}
