import type { Column } from '../column-store/column';
import type { TableStore } from '../column-store/table-store';
import { isNumericStorage } from '../field-types';

/**
 * Which columns go into the row-level inverted index: text-like columns whose values are
 * mostly distinct. The rest are searched through their dictionaries (column-terms.ts). The
 * choice is made when an index is built and stored with it, so queries and later writes
 * agree with what the index holds.
 */
const REPEATS_PER_VALUE = 8;

export function chooseIndexedColumns(store: TableStore): string[] {
  return store.columns.filter((c) => isIndexable(c) && c.distinctCount * REPEATS_PER_VALUE > store.rowCount).map((c) => c.id);
}

function isIndexable(column: Column): boolean {
  return !isNumericStorage(column.type.storage);
}
