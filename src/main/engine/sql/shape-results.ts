import { exactText } from '../values/exact-number';
import { SqlQueryError } from './sql-errors';
import { tsvectorText } from './full-text-values';
import { FLOAT_TYPES, INTEGER_TYPES, integerText, isoformat, numericValue, pythonFloatText, timestampParts } from './sql-values';

/**
 * Rows of a translated query as CKAN 2.11 answers datastore_search_sql (docs/ckan-contract.md §4): each
 * value converted as CKAN's `convert()` and written by its JSON encoder (simplejson): numeric
 * a number literal with its scale (`2.50`), int8 every digit, float8 as Python writes floats
 * (`1.0`), timestamps by `isoformat()`, json columns decoded, arrays as lists, tsvector as
 * text. Records are objects keyed by column name: a repeated name keeps its first place and
 * its last value, as Python's dict does; `fields` lists every column.
 */
export interface ShapedColumn {
  readonly name: string;
  readonly type: string;
  /** A json column of a table (CKAN's `nested`): decoded; other json values stay text. */
  readonly nested?: boolean;
}

export function jsonValue(value: unknown, column: ShapedColumn): string {
  if (value === null || value === undefined) return 'null';
  const type = column.type;
  if (INTEGER_TYPES.has(type)) return integerText(checkedInteger(value, type));
  if (type === 'numeric') {
    const n = numericValue(value);
    return n === null ? JSON.stringify(String(value)) : exactText(n);
  }
  if (FLOAT_TYPES.has(type)) {
    const n = Number(value);
    return Number.isFinite(n) ? pythonFloatText(n) : JSON.stringify(pythonFloatText(n));
  }
  if (type === 'bool') return Number(value) ? 'true' : 'false';
  if (type === 'timestamp' || type === 'timestamptz') {
    const t = timestampParts(value);
    return JSON.stringify(t ? isoformat(t, type === 'timestamptz') : String(value));
  }
  if (type === 'date') return JSON.stringify(String(value).slice(0, 10));
  if (type === 'time') return JSON.stringify(String(value).replace(/\.(\d+)$/, (_, f: string) => `.${f.padEnd(6, '0')}`));
  if (type === 'tsvector') return JSON.stringify(tsvectorText(String(value)));
  if ((type === 'json' && column.nested) || type.startsWith('_')) {
    try {
      JSON.parse(String(value));
      return String(value);
    } catch {
      return JSON.stringify(String(value));
    }
  }
  if (value instanceof Uint8Array) return JSON.stringify(Buffer.from(value).toString('utf8'));
  return JSON.stringify(typeof value === 'bigint' ? value.toString() : String(value));
}

const INTEGER_LIMITS: Record<string, [bigint, bigint, string]> = {
  int2: [-32768n, 32767n, 'smallint'],
  int4: [-2147483648n, 2147483647n, 'integer'],
  int8: [-9223372036854775808n, 9223372036854775807n, 'bigint'],
};

/**
 * SQLite's integer arithmetic goes to 64 bits and then silently to a REAL; PostgreSQL stops
 * at the type's range. A result outside it is PostgreSQL's error, not a rounded number.
 */
function checkedInteger(value: unknown, type: string): unknown {
  const [lo, hi, name] = INTEGER_LIMITS[type]!;
  let n: bigint | null;
  if (typeof value === 'bigint') n = value;
  else if (typeof value === 'number') n = Number.isSafeInteger(value) ? BigInt(value) : null;
  else return value;
  if (n === null || n < lo || n > hi) throw new SqlQueryError(`${name} out of range`);
  return n;
}

/** The `records` member as JSON text. */
export function recordsJson(columns: readonly ShapedColumn[], rows: readonly (readonly unknown[])[]): string {
  // One key per name, in the order names first appear, holding the last column of that name.
  const lastIndex = new Map<string, number>();
  columns.forEach((c, i) => lastIndex.set(c.name, i));
  const keys = [...lastIndex].map(([name, index]) => ({ key: `${JSON.stringify(name)}:`, index }));
  const parts = rows.map((row) => `{${keys.map(({ key, index }) => key + jsonValue(row[index], columns[index]!)).join(',')}}`);
  return `[${parts.join(',')}]`;
}
