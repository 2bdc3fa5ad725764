import { canonicalDecimal, exactFromCanonical, type ExactNumber } from '../values/exact-number';
import { parseTimestamp, type TimestampParts } from '../values/datetime';

/**
 * Values inside a translated query (docs/sql-and-values.md): what a PostgreSQL type's value is
 * in SQLite, and how PostgreSQL would write it as text. Integers are INTEGER (read as BigInt),
 * numeric a REAL or its exact TEXT, floats REAL, booleans 0/1, dates and times their canonical
 * text (`2020-01-02T03:04:05`), json and arrays JSON text, tsvector a document (see
 * full-text-values.ts).
 */

export const INTEGER_TYPES = new Set(['int2', 'int4', 'int8']);
export const FLOAT_TYPES = new Set(['float4', 'float8']);
export const TEXT_TYPES = new Set(['text', 'varchar', 'bpchar', 'unknown', 'name']);
export const TIME_TYPES = new Set(['date', 'timestamp', 'timestamptz', 'time']);

export const isNumberType = (type: string): boolean => INTEGER_TYPES.has(type) || FLOAT_TYPES.has(type) || type === 'numeric';

/** A numeric's exact value from whatever SQLite holds (REAL, exact TEXT, INTEGER). */
export function numericValue(value: unknown): ExactNumber | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return exactFromCanonical(value.toString());
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    return exactFromCanonical(canonicalDecimal(String(value))!);
  }
  const canonical = canonicalDecimal(String(value));
  return canonical === null ? null : exactFromCanonical(canonical);
}

/** An integer value as its exact decimal text. */
export function integerText(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) < 1e21 ? String(value) : String(Math.trunc(value));
  return String(value);
}

/** float8out: the shortest text that reads back, exponents with two digits (`1e-07`, `1e+21`). */
export function floatText(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
  return String(n).replace(/e([+-])(\d)$/, 'e$10$2');
}

/**
 * Python's repr of a float, which is how CKAN's JSON writes float8 results of
 * datastore_search_sql (psycopg2 gives floats): `1.0`, `0.1`, `1e-07`, `1e+16`, `1.5e+300`.
 */
export function pythonFloatText(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n > 0 ? 'Infinity' : '-Infinity';
  const abs = Math.abs(n);
  if (abs !== 0 && (abs >= 1e16 || abs < 1e-4)) {
    const [mantissa, exponent] = n.toExponential().split('e');
    const e = Number(exponent);
    return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  const text = String(n);
  return /[.e]/.test(text) ? text : `${text}.0`;
}

export function timestampParts(value: unknown): TimestampParts | null {
  return value === null || value === undefined ? null : parseTimestamp(String(value));
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** Python's `datetime.isoformat()`: microseconds only when not zero, six digits. */
export function isoformat(t: TimestampParts, zone: boolean): string {
  const micro = t.fraction.padEnd(6, '0').slice(0, 6);
  const time = `${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}${/[1-9]/.test(micro) ? `.${micro}` : ''}`;
  return `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}T${time}${zone ? '+00:00' : ''}`;
}

/** PostgreSQL's text output of a timestamp (`2020-01-02 03:04:05.678`, `…+00` with zone). */
export function timestampText(t: TimestampParts, zone: boolean): string {
  const fraction = t.fraction.replace(/0+$/, '');
  return `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}${fraction ? `.${fraction}` : ''}${zone ? '+00' : ''}`;
}

/** A value of PostgreSQL type `type` as PostgreSQL writes it as text (casts, `||`, concat). */
export function pgText(value: unknown, type: string): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  if (INTEGER_TYPES.has(type)) return integerText(value);
  if (type === 'numeric') {
    const n = numericValue(value);
    return n === null ? String(value) : String(n);
  }
  if (FLOAT_TYPES.has(type)) return floatText(Number(value));
  if (type === 'bool') return value === 1 || value === 1n || value === '1' || value === true ? 'true' : 'false';
  if (type === 'timestamp' || type === 'timestamptz') {
    const t = timestampParts(value);
    return t ? timestampText(t, type === 'timestamptz') : String(value);
  }
  if (typeof value === 'bigint') return value.toString();
  return String(value);
}
