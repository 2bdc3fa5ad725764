import type { Column } from '../column-store/column';
import type { StoredValue } from '../values/coerce';

/**
 * A column's distinct values as group keys, for a pass that groups rows by code: `keyOf[code]`
 * for every dictionary code, key 0 for NULL, one key per distinct value even where a mostly
 * unique dictionary holds a value twice (Column.canonicalCodes), and each key's value as
 * `valueOf` writes it (records' form for deskstore_group_by, SQLite's cells for SQL aggregates).
 */
export interface GroupKeys<K> {
  readonly keyOf: Int32Array;
  /** keys[0] is NULL. */
  readonly keys: (K | null)[];
}

export function groupKeys<K>(column: Column, valueOf: (value: StoredValue) => K): GroupKeys<K> {
  const values = column.values;
  const canonical = column.canonicalCodes();
  const keyOf = new Int32Array(values.length);
  const keyOfCanonical = new Int32Array(values.length).fill(-1);
  const keys: (K | null)[] = [null];
  for (let code = 1; code < values.length; code++) {
    const c = canonical[code]!;
    if (keyOfCanonical[c]! < 0) {
      keyOfCanonical[c] = keys.length;
      keys.push(valueOf(values[c]!));
    }
    keyOf[code] = keyOfCanonical[c]!;
  }
  return { keyOf, keys };
}
