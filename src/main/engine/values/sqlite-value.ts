import type { FieldType } from '../field-types';
import type { StoredValue } from './coerce';
import { canonicalDecimal, exactFromCanonical } from './exact-number';

/**
 * A cell read back from SQLite (with sql.js's `useBigInt`, so int8 keeps every digit) as the
 * column store holds it. numeric cells come back as they were bound: a number, or the exact
 * text; a table written before numerics were exact has REALs, which read as their numbers.
 */
export function storedFromSqlite(value: unknown, type: FieldType): StoredValue {
  if (value === null || value === undefined) return null;
  if (type.storage === 'exact') {
    if (typeof value === 'number') return value;
    const canonical = canonicalDecimal(String(value));
    return canonical === null ? String(value) : exactFromCanonical(canonical);
  }
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  return value as StoredValue;
}
