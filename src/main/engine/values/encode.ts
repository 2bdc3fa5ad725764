import type { StorageKind } from '../field-types';
import type { CellValue } from '../../../shared/wire/search';
import type { StoredValue } from './coerce';

/**
 * Stored values as datastore_search writes them (contract §3.9, CKAN 2.11 shape): one
 * function for JSON records (objects/lists) and one for csv/tsv cells.
 */

/** JSON text of one cell in `objects`/`lists` records. */
export function jsonCell(value: StoredValue, storage: StorageKind): string {
  if (value === null) return 'null';
  switch (storage) {
    case 'integer':
    case 'real':
      return Number.isFinite(value) ? String(value) : JSON.stringify(String(value));
    case 'bool':
      return value ? 'true' : 'false';
    case 'json':
    case 'array':
      return value as string; // stored as JSON text already
    case 'timestamp':
      // 2.11 truncates the fraction (2.12 would add milliseconds).
      return JSON.stringify((value as string).slice(0, 19));
    default:
      return JSON.stringify(value);
  }
}

/** A stored value as the JSON value datastore_search records carry (for summaries' values). */
export function recordValue(value: StoredValue, storage: StorageKind): CellValue {
  return JSON.parse(jsonCell(value, storage)) as CellValue;
}

/** Array values are stored as compact JSON; JSON columns as Python-style JSON text. */
function textCell(value: StoredValue, storage: StorageKind): string {
  switch (storage) {
    case 'bool': return value ? 't' : 'f';
    case 'timestamp': return (value as string).slice(0, 19);
    case 'integer':
    case 'real': return String(value);
    default: return value as string;
  }
}

/**
 * One csv/tsv cell as PostgreSQL's `COPY ... csv` writes it: quoted only when it contains the
 * delimiter, a quote, CR or LF; NULL is empty for scalars but `null` for json and arrays;
 * the empty string is `""` so that it differs from NULL.
 */
export function delimitedCell(value: StoredValue, storage: StorageKind, delimiter: string): string {
  if (value === null) return storage === 'json' || storage === 'array' ? 'null' : '';
  const text = textCell(value, storage);
  if (text === '') return '""';
  if (text.includes(delimiter) || text.includes('"') || text.includes('\n') || text.includes('\r')) {
    return `"${text.replace(/"/g, '""')}"`;
  }
  return text;
}
