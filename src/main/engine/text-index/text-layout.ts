import type { TableStore } from '../column-store/table-store';
import { isNumericStorage, type FieldType } from '../field-types';

/**
 * Which columns go into the row-level inverted index: text-like columns whose values are
 * mostly distinct. The rest are searched through their dictionaries (column-terms.ts). The
 * choice is made when an index is built and stored with it, so queries and later writes
 * agree with what the index holds.
 */
const REPEATS_PER_VALUE = 8;

export function chooseIndexedColumns(store: TableStore): string[] {
  return store.columns.filter((c) => isIndexedColumn(c.type, c.distinctCount, store.rowCount)).map((c) => c.id);
}

/** The rule itself, for a column known by its type and dictionary size (a streamed import). */
export function isIndexedColumn(type: FieldType, distinctCount: number, rowCount: number): boolean {
  return !isNumericStorage(type.storage) && distinctCount * REPEATS_PER_VALUE > rowCount;
}
