import type { StorageKind } from '../field-types';
import type { CellValue } from '../../../shared/wire/search';
import type { StoredValue } from './coerce';
import { exactText } from './exact-number';
import { pgFloat8Text } from './pg-floats';

/**
 * Stored values as datastore_search writes them (docs/ckan-contract.md §3.9, CKAN 2.11 shape): one
 * function for JSON records (objects/lists) and one for csv/tsv cells.
 */

/** JSON text of one cell in `objects`/`lists` records. */
export function jsonCell(value: StoredValue, storage: StorageKind): string {
  if (value === null) return 'null';
  switch (storage) {
    case 'integer':
      return Number.isFinite(value) ? String(value) : JSON.stringify(String(value));
    case 'real':
      // PostgreSQL's to_json: `2.5e-07`, and "NaN"/"Infinity" as strings.
      return Number.isFinite(value) ? pgFloat8Text(value as number) : JSON.stringify(pgFloat8Text(value as number));
    case 'exact':
      // A number literal with its scale and every digit (`2.50`), as PostgreSQL's JSON writes it.
      return exactText(value);
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

/**
 * JSON text of one cell as a CKAN write must receive it to store the same value (push): an
 * exact number as a string of its text (a JSON number would become a Python float there:
 * `310.00` → `310.0`), a timestamp whole (with its fraction), the rest as records carry it.
 */
export function writeCell(value: StoredValue, storage: StorageKind): string {
  if (value === null) return 'null';
  if (storage === 'exact') return JSON.stringify(exactText(value));
  if (storage === 'timestamp') return JSON.stringify(value);
  return jsonCell(value, storage);
}

/** A stored value as the JSON value datastore_search records carry (for summaries' values). */
export function recordValue(value: StoredValue, storage: StorageKind): CellValue {
  // An exact number a double cannot say (`2.50`, an int8 beyond 2^53) stays its text: the UI
  // shows it as written and sends it back as a filter value unchanged.
  if (storage === 'exact' && typeof value === 'string') return value;
  return JSON.parse(jsonCell(value, storage)) as CellValue;
}

/** Array values are stored as compact JSON; JSON columns as Python-style JSON text. */
function textCell(value: NonNullable<StoredValue>, storage: StorageKind): string {
  switch (storage) {
    case 'bool':
      return value ? 't' : 'f';
    case 'timestamp':
      return (value as string).slice(0, 19);
    case 'integer':
      return String(value);
    case 'real':
      return pgFloat8Text(value as number);
    case 'exact':
      return exactText(value);
    default:
      return value as string;
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
