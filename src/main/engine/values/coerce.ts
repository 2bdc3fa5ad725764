import { isPythonFloat } from '../../util/exact-json';
import { pythonAsciiJsonString, pythonFloatRepr, pythonNumber } from '../../util/python-text';
import type { FieldType } from '../field-types';
import { jsonDepthExceeds } from '../../util/json-depth';
import {
  canonicalDecimal,
  exactFromCanonical,
  exactText,
  int8FromNumber,
  parseInt8Text,
  type ExactNumber,
  type Int8Reading,
} from './exact-number';
import { formatDate, formatTime, formatTimestamp, formatTimestampUtc, parseDate, parseTime, parseTimestamp } from './datetime';

/**
 * What a cell holds in the column store: booleans as 0/1, dates as text, numeric and int8 as
 * an ExactNumber (a number or its exact text).
 */
export type StoredValue = string | number | null;

/** A value that does not fit its column; the message is PostgreSQL's wording. */
export class CoercionError extends Error {}

const PG_NAME: Record<string, string> = {
  int2: 'smallint',
  int4: 'integer',
  int8: 'bigint',
  float4: 'real',
  float8: 'double precision',
  numeric: 'numeric',
  bool: 'boolean',
  date: 'date',
  time: 'time',
  timestamp: 'timestamp',
  timestamptz: 'timestamp with time zone',
  json: 'json',
  text: 'text',
  varchar: 'character varying',
};

const INTEGER_RANGE: Record<string, [number, number]> = {
  int2: [-32768, 32767],
  int4: [-2147483648, 2147483647],
};

function syntax(type: FieldType, value: unknown): CoercionError {
  const shown =
    typeof value === 'string' || typeof value === 'bigint'
      ? String(value)
      : isPythonFloat(value)
        ? pythonFloatRepr(value.valueOf())
        : JSON.stringify(value);
  return new CoercionError(`invalid input syntax for type ${PG_NAME[type.name] ?? type.name}: "${shown}"`);
}

const INTEGER_TEXT = /^[+-]?\d+$/;

/** A JSON number as a plain number: a boxed Python float (`310.0`) reads as its value. */
function numberOf(value: unknown): number | null {
  return typeof value === 'number' ? value : isPythonFloat(value) ? value.valueOf() : null;
}

/** An integer beyond 2^53 from a request (a BigInt) as its digits: text from here on. */
const digitsOf = (value: unknown): unknown => (typeof value === 'bigint' ? String(value) : value);

/**
 * The numeric text PostgreSQL makes of a JSON number CKAN passes on: psycopg2 writes a Python
 * int as its digits and a float as `repr()` (`310.0`, `2.5e-07`, `1e+300`), a numeric constant
 * that a numeric column keeps with that scale and a text column receives as numeric_out
 * prints it (`310.0`, `0.00000025`, 1 followed by 300 zeros), as seen on CKAN 2.10.
 */
function numericTextOf(value: number, pythonFloat: boolean): string {
  if (!pythonFloat && Number.isSafeInteger(value)) return String(value);
  const repr = pythonFloatRepr(value);
  return Number.isFinite(value) ? (canonicalDecimal(repr) ?? repr) : repr;
}

const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

function toInteger(value: unknown, type: FieldType): number {
  value = digitsOf(value);
  let n: number;
  const number = numberOf(value);
  if (number !== null) {
    if (!Number.isFinite(number)) throw syntax(type, value);
    n = number < 0 ? -Math.round(-number) : Math.round(number); // numeric → integer rounds half away from zero
  } else if (typeof value === 'string' && INTEGER_TEXT.test(value.trim())) {
    n = Number(value.trim());
  } else {
    throw syntax(type, value);
  }
  const [lo, hi] = INTEGER_RANGE[type.name] ?? INTEGER_RANGE.int4!;
  if (n < lo || n > hi) throw new CoercionError(`${PG_NAME[type.name] ?? 'integer'} out of range`);
  return n;
}

/** numeric keeps its written scale; int8 every digit up to ±2^63 (values/exact-number.ts). */
function toExact(value: unknown, type: FieldType): ExactNumber {
  value = digitsOf(value);
  if (type.name === 'int8') {
    let n: Int8Reading;
    const number = numberOf(value);
    if (number !== null) {
      if (!Number.isFinite(number)) throw syntax(type, value);
      n = int8FromNumber(number < 0 ? -Math.round(-number) : Math.round(number));
    } else {
      n = typeof value === 'string' ? parseInt8Text(value) : { error: 'syntax' };
    }
    if ('error' in n) throw n.error === 'syntax' ? syntax(type, value) : new CoercionError('bigint out of range');
    return n.value;
  }
  // A JSON number is what psycopg2 makes of CKAN's Python value: an int's digits, a float's
  // repr (`310.0` keeps its one decimal). A string keeps the scale it was written with.
  const number = numberOf(value);
  const text =
    number !== null
      ? Number.isFinite(number)
        ? numericTextOf(number, isPythonFloat(value))
        : null
      : typeof value === 'string'
        ? value
        : null;
  const canonical = text === null ? null : canonicalDecimal(text);
  if (canonical === null) throw syntax(type, value);
  return exactFromCanonical(canonical);
}

function toReal(value: unknown, type: FieldType): number {
  if (typeof value === 'bigint') return Number(value);
  const number = numberOf(value);
  if (number !== null && !Number.isNaN(number)) return number;
  if (typeof value === 'string') {
    const text = value.trim();
    if (NUMBER_TEXT.test(text)) return Number(text);
    if (/^[+-]?infinity$/i.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  }
  throw syntax(type, value);
}

const TRUE_WORDS = new Set(['t', 'true', 'y', 'yes', 'on', '1']);
const FALSE_WORDS = new Set(['f', 'false', 'n', 'no', 'off', '0']);

function toBool(value: unknown, type: FieldType): number {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === 1 || value === 0) return value;
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return 1;
    if (FALSE_WORDS.has(word)) return 0;
  }
  throw syntax(type, value);
}

function toText(value: unknown, type: FieldType): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint') return String(value);
  const number = numberOf(value);
  if (number !== null) return numericTextOf(number, isPythonFloat(value));
  if (typeof value === 'boolean') return String(value);
  // psycopg2 sends a list as an ARRAY, which PostgreSQL casts to its array text `{a,"b c"}`;
  // a dict it cannot send at all.
  if (Array.isArray(value)) return pgArrayText(value);
  if (value !== null && typeof value === 'object') throw new CoercionError("can't adapt type 'dict'");
  throw syntax(type, value);
}

/** PostgreSQL's array output: elements quoted when empty, `NULL`, or holding `{},"\` or spaces. */
function pgArrayText(items: readonly unknown[]): string {
  return `{${items
    .map((item) => {
      if (item === null || item === undefined) return 'NULL';
      if (Array.isArray(item)) return pgArrayText(item);
      if (typeof item === 'bigint') return String(item);
      const number = numberOf(item);
      const text =
        number !== null
          ? numericTextOf(number, isPythonFloat(item))
          : typeof item === 'boolean'
            ? item
              ? 't'
              : 'f'
            : typeof item === 'object'
              ? JSON.stringify(item)
              : String(item);
      return text === '' || /^null$/i.test(text) || /[{},"\\\s]/.test(text) ? `"${text.replace(/["\\]/g, '\\$&')}"` : text;
    })
    .join(',')}}`;
}

/**
 * JSON text as Python's json.dumps writes it, which is what CKAN stores for json columns:
 * `", "` and `": "` separators, non-ASCII escaped, floats as Python prints them.
 */
export function pythonStyleJson(value: unknown): string {
  if (typeof value === 'string') return pythonAsciiJsonString(value);
  if (typeof value === 'number') return pythonNumber(value);
  if (typeof value === 'bigint') return String(value);
  if (isPythonFloat(value)) return pythonFloatRepr(value.valueOf());
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(pythonStyleJson).join(', ')}]`;
  return `{${Object.entries(value)
    .map(([k, v]) => `${pythonAsciiJsonString(k)}: ${pythonStyleJson(v)}`)
    .join(', ')}}`;
}

function toArray(value: unknown, type: FieldType): string {
  const element = type.element!;
  let items: unknown;
  if (Array.isArray(value)) items = value;
  else if (typeof value === 'string') items = parseArrayLiteral(value);
  if (!Array.isArray(items)) throw new CoercionError(`malformed array literal: "${String(value)}"`);
  // Exact numbers go in as number literals with their scale (`[2.50, 1]`), the rest as JSON.
  const cell = (item: unknown): string => {
    if (item === null) return 'null';
    const stored = coerceNonNull(item, element);
    return element.storage === 'exact' ? exactText(stored as ExactNumber) : JSON.stringify(stored);
  };
  return `[${items.map(cell).join(',')}]`;
}

/** PostgreSQL's `{a,b,"c d"}` form, for array values sent as text. */
function parseArrayLiteral(text: string): unknown[] | null {
  const t = text.trim();
  if (t.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(t);
      return Array.isArray(parsed) && !jsonDepthExceeds(parsed) ? parsed : null;
    } catch {
      return null;
    }
  }
  if (!t.startsWith('{') || !t.endsWith('}')) return null;
  const body = t.slice(1, -1);
  if (body.trim() === '') return [];
  const items: (string | null)[] = [];
  const re = /\s*(?:"((?:[^"\\]|\\.)*)"|([^,]*?))\s*(?:,|$)/gy;
  let m: RegExpExecArray | null;
  while (re.lastIndex < body.length && (m = re.exec(body))) {
    if (m[1] !== undefined) items.push(m[1].replace(/\\(.)/g, '$1'));
    else items.push(m[2]!.toUpperCase() === 'NULL' ? null : m[2]!);
    if (m[0] === '') break;
  }
  return items;
}

function coerceNonNull(value: unknown, type: FieldType): StoredValue {
  switch (type.storage) {
    case 'text':
      return toText(value, type);
    case 'integer':
      return toInteger(value, type);
    case 'real':
      return toReal(value, type);
    case 'exact':
      return toExact(value, type);
    case 'bool':
      return toBool(value, type);
    case 'json':
      return pythonStyleJson(value);
    case 'array':
      return toArray(value, type);
    case 'date': {
      const d = typeof value === 'string' ? parseDate(value) : null;
      if (!d) throw syntax(type, value);
      return formatDate(d);
    }
    case 'time': {
      const t = typeof value === 'string' ? parseTime(value) : null;
      if (!t) throw syntax(type, value);
      return formatTime(t);
    }
    case 'timestamp':
    case 'timestamptz': {
      const ts = typeof value === 'string' ? parseTimestamp(value) : null;
      if (!ts) throw syntax(type, value);
      return type.storage === 'timestamp' ? formatTimestamp(ts) : formatTimestampUtc(ts);
    }
  }
}

/**
 * A JSON value from a request (records, filters) as the column stores it. `null` stays NULL;
 * `""` becomes NULL for every type but text and json (CKAN 2.11+: its json branch runs before
 * the empty-string rule, so a json column keeps `""`). Throws CoercionError.
 */
export function coerceValue(value: unknown, type: FieldType): StoredValue {
  if (value === null || value === undefined) return null;
  if (value === '' && type.storage !== 'text' && type.storage !== 'json') return null;
  return coerceNonNull(value, type);
}
