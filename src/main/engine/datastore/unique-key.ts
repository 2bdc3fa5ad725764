import { ValidationError } from '../../errors';
import type { FieldType } from '../field-types';
import type { StoredValue } from '../values/coerce';
import { ckanIndexName } from './index-name';
import { keyText } from './write-state';

/**
 * `primary_key` is a unique index, which CKAN creates after inserting the records of the same
 * request (create_indexes runs after insert_data). Rows that already break it make the index
 * fail: 2.11 answers `constraints` (its message lacks a space: the two string parts are joined
 * without one) and PostgreSQL's error under `info`, with the duplicated key (the first one
 * found in `_id` order). `rows` yields each row's key values, in key order.
 */
export function checkUniqueKey(
  rows: Iterable<readonly StoredValue[]>,
  table: string,
  columns: readonly string[],
  fields: readonly { id: string; type: FieldType }[],
): void {
  const types = columns.map((id) => fields.find((f) => f.id === id)!.type);
  const seen = new Set<string>();
  for (const values of rows) {
    const key = keyText(values, types);
    if (key === null) continue;
    if (!seen.has(key)) {
      seen.add(key);
      continue;
    }
    const name = ckanIndexName(table, columns, fields);
    const shown = `Key (${columns.join(', ')})=(${values.map((v) => (v === null ? '' : String(v))).join(', ')}) is duplicated.`;
    throw new ValidationError({
      constraints: ['Cannot insert records or create indexbecause of uniqueness constraint'],
      info: { orig: `could not create unique index "${name}"\nDETAIL:  ${shown}\n`, pgcode: '23505' },
    });
  }
}
