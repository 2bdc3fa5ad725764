import { createHash } from 'node:crypto';
import { parse as parseLossless } from 'lossless-json';
import type { Database } from 'sql.js';
import { compareCollated } from '../collation/glibc-collation';
import { textSortKey } from '../column-store/sort-order';
import { createAggregate } from '../sqlite/sql-js';
import { resolveFieldType } from '../field-types';
import { CoercionError, coerceValue } from '../values/coerce';
import { compareExact, exactText, scaleOf, type ExactNumber } from '../values/exact-number';
import {
  addInterval,
  dateTrunc,
  epochToTimestamp,
  extractField,
  formatDateTemplate,
  makeDate,
  nowTimestamp,
  parseDateTemplate,
} from './date-functions';
import { addScaled, divideScaled, fromScaled, numericOperation, roundNumeric, toScaled, type Scaled } from './decimal-arithmetic';
import { rowDocument, tsMatch, tsqueryValue, tsRank, tsvectorValue, textSearchLanguage } from './full-text-values';
import { PAST_DEADLINE, SqlQueryError } from './sql-errors';
import { checkText } from './sql-limits';
import { likeMatches } from './like-match';
import { posixRegex, regexReplace } from './sql-regex';
import { joinChecked, left, notLongerThanLimit, pad, repeat, replace, reverse, right, splitPart, translate } from './text-functions';
import { FLOAT_TYPES, INTEGER_TYPES, isNumberType, numericValue, pgText } from './sql-values';
import type { SqlTable } from './translate';

/**
 * The Deskstore functions a translated query calls (translate.ts, sql-functions.ts), registered
 * on its connection: where SQLite's own would answer differently from PostgreSQL (upper/lower
 * beyond ASCII, LIKE's case, regexes, casts, dates, exact numerics, full text).
 */
type SqlValue = number | string | Uint8Array | null;

/** NULL in, NULL out (PostgreSQL's strict functions); keeps `f`'s arity, which sql.js reads. */
function nullable<A extends unknown[]>(f: (...args: A) => SqlValue | boolean): (...args: A) => SqlValue | boolean {
  const wrapped = (...args: A): SqlValue | boolean => (args.some((a) => a === null || a === undefined) ? null : f(...args));
  Object.defineProperty(wrapped, 'length', { value: f.length });
  return wrapped;
}

/** An ExactNumber as SQLite should hold it: the number, or the exact text. */
const toSql = (n: ExactNumber | null): ExactNumber | null => n;

/** JSON text of `json_array(…)` with every number kept as written (int8 beyond 2^53 too). */
function jsonValues(text: unknown): unknown[] {
  return parseLossless(String(text), null, (digits) => digits) as unknown[];
}

/** PostgreSQL's cast of `value` (of type `from`) to `to`, with its errors. */
function cast(value: unknown, from: string, to: string, scale: unknown): SqlValue {
  if (value === null || value === undefined) return null;
  if (to === 'numeric') {
    const n =
      isNumberType(from) || from === 'unknown' || from === 'text' || from === 'varchar'
        ? numericValue(typeof value === 'string' ? value.trim() : value)
        : null;
    if (n === null) throw new SqlQueryError(`invalid input syntax for type numeric: "${pgText(value, from) ?? ''}"`);
    return toSql(scale === null ? n : roundNumeric(n, Number(scale), false));
  }
  if (INTEGER_TYPES.has(to) && (from === 'numeric' || FLOAT_TYPES.has(from))) {
    // numeric → integer rounds half away from zero, as PostgreSQL does.
    const rounded = roundNumeric(numericValue(value), 0, false);
    return coerce(rounded === null ? null : exactText(rounded), to);
  }
  if (from === 'bool' && INTEGER_TYPES.has(to)) return Number(value) ? 1 : 0;
  const input =
    typeof value === 'bigint' ? value.toString() : isNumberType(from) ? pgText(value, from) : from === 'bool' ? pgText(value, from) : value;
  return coerce(input, to);
}

function coerce(input: unknown, to: string): SqlValue {
  const type = resolveFieldType(to);
  if (!type) throw new SqlQueryError(`type "${to}" does not exist`);
  try {
    const stored = coerceValue(typeof input === 'string' ? input : input, type);
    return stored;
  } catch (err) {
    if (err instanceof CoercionError) throw new SqlQueryError(err.message);
    throw err;
  }
}

function extreme(which: 'min' | 'max') {
  return {
    init: (): ExactNumber | null => null,
    step: (state: ExactNumber | null, value: unknown): ExactNumber | null => {
      const n = numericValue(value);
      if (n === null) return state;
      if (state === null) return n;
      const c = compareExact(n, state);
      return (which === 'min' ? c < 0 : c > 0) ? n : state;
    },
    finalize: (state: ExactNumber | null): ExactNumber | null => state,
  };
}

/** min/max of text by the collation (PostgreSQL's), remembering the winner's key. */
function textExtreme(which: 'min' | 'max') {
  return {
    init: (): { text: string; key: string } | null => null,
    step: (state: { text: string; key: string } | null, value: unknown): { text: string; key: string } | null => {
      if (value === null || value === undefined) return state;
      const text = String(value);
      const key = textSortKey(text);
      if (state === null) return { text, key };
      return (which === 'min' ? key < state.key : key > state.key) ? { text, key } : state;
    },
    finalize: (state: { text: string; key: string } | null): string | null => state?.text ?? null,
  };
}

export interface RuntimeOptions {
  readonly tables: readonly SqlTable[];
  readonly now: Date;
  readonly random?: () => number;
  /** When the query must stop (Date.now() milliseconds); none: never. */
  readonly deadline?: number;
}

export function registerRuntimeFunctions(db: Database, options: RuntimeOptions): void {
  // sql.js takes each function's arity from its declared parameters: fixed lists, no rest.
  // Every text a function hands back is within the limit of sql-limits.ts (sql.js copies it
  // through a 5 MiB stack); the functions that can know their result's size check it first.
  const define = (name: string, f: (...args: never[]) => SqlValue | boolean) => {
    const wrapped = (...args: never[]) => {
      const out = f(...args);
      return typeof out === 'boolean' ? (out ? 1 : 0) : typeof out === 'string' ? checkText(out) : out;
    };
    Object.defineProperty(wrapped, 'length', { value: f.length });
    db.create_function(name, wrapped as never);
  };

  // Called by the translator once per row of every recursive step (translate.ts): SQLite in
  // sql.js cannot be interrupted from outside, so the loop that never ends stops itself here,
  // and the SQL worker, with its copies of the tables, goes on.
  const deadline = options.deadline ?? Infinity;
  define('deskstore_tick', () => {
    if (Date.now() > deadline) throw new Error(PAST_DEADLINE);
    return 1;
  });
  define(
    'deskstore_upper',
    nullable((s: string) => notLongerThanLimit(String(s)).toUpperCase()),
  );
  define(
    'deskstore_lower',
    nullable((s: string) => notLongerThanLimit(String(s)).toLowerCase()),
  );
  define(
    'deskstore_initcap',
    nullable((s: string) =>
      notLongerThanLimit(String(s))
        .toLowerCase()
        .replace(/(^|[^\p{L}\p{N}])(\p{L})/gu, (_, a: string, b: string) => a + b.toUpperCase()),
    ),
  );
  define(
    'deskstore_like',
    nullable((s: string, p: string, i: number) => likeMatches(String(s), String(p), i === 1)),
  );
  define(
    'deskstore_regex',
    nullable((s: string, p: string, i: number) => posixRegex(String(p), i === 1).test(String(s))),
  );
  define('deskstore_regexp_replace', (s: unknown, p: unknown, r: unknown, flags: unknown) => {
    if (s === null || p === null || r === null) return null;
    const f = String(flags ?? '');
    return regexReplace(String(s), posixRegex(String(p), f.includes('i')), String(r), f.includes('g'));
  });
  define(
    'deskstore_replace',
    nullable((s: string, from: string, to: string) => replace(String(s), String(from), String(to))),
  );
  // Where SQLite builds a text itself (string_agg, array_agg, concat, `||` in a recursive
  // step: sql-functions.ts, translate.ts), its result passes here.
  define('deskstore_text_cap', (v: unknown) => v as SqlValue);
  define('deskstore_text', (v: unknown, type: string) => pgText(v, type));
  define('deskstore_cast', (v: unknown, from: string, to: string, scale: unknown) => cast(v, from, to, scale));
  define(
    'deskstore_left',
    nullable((s: string, n: number) => left(String(s), n)),
  );
  define(
    'deskstore_right',
    nullable((s: string, n: number) => right(String(s), n)),
  );
  define(
    'deskstore_translate',
    nullable((s: string, from: string, to: string) => translate(String(s), String(from), String(to))),
  );
  define(
    'deskstore_pad',
    nullable((s: string, n: number, fill: string, atLeft: number) => pad(String(s), n, String(fill), atLeft === 1)),
  );
  define(
    'deskstore_repeat',
    nullable((s: string, n: number) => repeat(String(s), n)),
  );
  define(
    'deskstore_reverse',
    nullable((s: string) => reverse(String(s))),
  );
  define(
    'deskstore_split_part',
    nullable((s: string, d: string, n: number) => {
      if (n === 0) throw new SqlQueryError('field position must not be zero');
      return splitPart(String(s), String(d), n);
    }),
  );
  define(
    'deskstore_md5',
    nullable((s: string) => createHash('md5').update(String(s)).digest('hex')),
  );
  define(
    'deskstore_to_hex',
    nullable((n: number) => BigInt.asUintN(64, BigInt(Math.trunc(Number(n)))).toString(16)),
  );
  define(
    'deskstore_quote_ident',
    nullable((s: string) => (/^[a-z_][a-z0-9_]*$/.test(String(s)) ? String(s) : `"${notLongerThanLimit(String(s)).replace(/"/g, '""')}"`)),
  );
  define('deskstore_concat_ws', (list: string) => {
    const [sep, ...rest] = jsonValues(list);
    if (sep === null) return null;
    return joinChecked(rest.filter((v) => v !== null).map(String), String(sep));
  });
  define(
    'deskstore_cbrt',
    nullable((n: number) => Math.cbrt(n)),
  );
  const random = options.random ?? Math.random;
  define('deskstore_random', () => random());
  define(
    'deskstore_round_half_even',
    nullable((n: number) => {
      // float8 round(): the platform's rint, half to even.
      const r = Math.round(n);
      return Math.abs(n % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
    }),
  );
  define('deskstore_scale', (v: unknown) => {
    const n = numericValue(v);
    return n === null ? null : scaleOf(n);
  });
  define('deskstore_numeric_from', (v: unknown) => toSql(numericValue(v)));
  define('deskstore_numeric_op', (op: string, a: unknown, b: unknown) => toSql(numericOperation(op, a, b)));
  define('deskstore_numeric_round', (v: unknown, places: unknown) =>
    places === null ? null : toSql(roundNumeric(v, Number(places), false)),
  );
  define('deskstore_numeric_trunc', (v: unknown, places: unknown) =>
    places === null ? null : toSql(roundNumeric(v, Number(places), true)),
  );
  define('deskstore_int_div', (a: unknown, b: unknown) => {
    if (a === null || b === null) return null;
    // Integer division truncates toward zero, exactly (int8 operands arrive as text).
    const divisor = BigInt(String(b));
    if (divisor === 0n) throw new SqlQueryError('division by zero');
    const q = BigInt(String(a)) / divisor;
    return Number.isSafeInteger(Number(q)) ? Number(q) : q.toString();
  });
  define('deskstore_json_number', (v: unknown) => {
    const n = numericValue(v);
    return n === null ? null : exactText(n);
  });
  define('deskstore_json_text', (v: unknown, type: unknown) =>
    v === null
      ? null
      : type === 'true' || type === 'false'
        ? String(type)
        : typeof v === 'number' || type === 'text'
          ? String(v)
          : String(v),
  );
  define('deskstore_sort_key', (v: unknown) => (typeof v === 'string' ? textSortKey(v) : (v as SqlValue)));
  for (const which of ['greatest', 'least'] as const) {
    define(`deskstore_${which}`, (type: string, list: string) => {
      const values = jsonValues(list).filter((v) => v !== null);
      if (!values.length) return null;
      const compare = isNumberType(type)
        ? (a: unknown, b: unknown) => compareExact(numericValue(a)!, numericValue(b)!)
        : type === 'text' || type === 'varchar' || type === 'unknown'
          ? (a: unknown, b: unknown) => compareCollated(String(a), String(b))
          : (a: unknown, b: unknown) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);
      const best = values.reduce((a, b) => ((which === 'greatest' ? compare(b, a) > 0 : compare(b, a) < 0) ? b : a));
      return type === 'numeric' ? toSql(numericValue(best)) : isNumberType(type) ? Number(best) : String(best);
    });
  }
  const now = nowTimestamp(options.now);
  define('deskstore_now', () => now);
  define('deskstore_date_trunc', (unit: unknown, v: unknown, type: string) => dateTrunc(unit, v, type));
  define('deskstore_extract', (field: unknown, v: unknown, type: string) => extractField(field, v, type));
  define('deskstore_to_char', (v: unknown, type: string, template: unknown) => {
    if (v === null || template === null) return null;
    if (isNumberType(type)) return numberTemplate(v, String(template));
    return formatDateTemplate(v, String(template));
  });
  define('deskstore_to_date', (s: unknown, template: unknown, type: string) => parseDateTemplate(s, template, type));
  define('deskstore_epoch_to_timestamp', (s: unknown) => epochToTimestamp(s));
  define('deskstore_make_date', (y: unknown, m: unknown, d: unknown) => makeDate(y, m, d));
  define('deskstore_add_interval', (v: unknown, type: string, sign: number, interval: unknown) => addInterval(v, type, sign, interval));
  define('deskstore_array_to_string', (list: unknown, sep: unknown) => {
    if (list === null || sep === null) return null;
    return joinChecked(
      jsonValues(list)
        .filter((v) => v !== null)
        .map(String),
      String(sep),
    );
  });
  define('deskstore_to_json', (v: unknown, type: string) => {
    if (v === null) return null;
    if (type === 'json' || type.startsWith('_')) return String(v);
    if (isNumberType(type)) return pgText(v, type);
    if (type === 'bool') return Number(v) ? 'true' : 'false';
    return JSON.stringify(notLongerThanLimit(String(v)));
  });
  define('deskstore_to_tsvector', (config: unknown, text: unknown) =>
    text === null ? null : tsvectorValue(textSearchLanguage(config), String(text)),
  );
  define('deskstore_tsquery', (kind: string, config: unknown, text: unknown) =>
    text === null ? null : tsqueryValue(kind, config, String(text)),
  );
  define('deskstore_ts_match', (doc: unknown, query: unknown) =>
    doc === null || query === null ? null : tsMatch(String(doc), String(query)),
  );
  define('deskstore_ts_rank', (doc: unknown, query: unknown) =>
    doc === null || query === null ? null : tsRank(String(doc), String(query)),
  );
  options.tables.forEach((table, index) => {
    define(`deskstore_document_${index}`, (values: unknown) =>
      tsvectorValue(table.language, rowDocument(table.fields, jsonValues(values))),
    );
  });

  const sum = {
    init: (): Scaled | null => null,
    step: (state: Scaled | null, value: unknown): Scaled | null => {
      const n = numericValue(value);
      if (n === null) return state;
      const s = toScaled(n);
      return state === null ? s : addScaled(state, s);
    },
    finalize: (state: Scaled | null): ExactNumber | null => (state === null ? null : toSql(fromScaled(state))),
  };
  createAggregate(db, 'deskstore_numeric_sum', sum);
  // avg(int*/numeric) is numeric in PostgreSQL: the exact sum divided with numeric's scale.
  createAggregate(db, 'deskstore_numeric_avg', {
    init: (): { sum: Scaled | null; count: bigint } => ({ sum: null, count: 0n }),
    step: (state, value) => {
      const n = numericValue(value);
      if (n === null) return state;
      const s = toScaled(n);
      return { sum: state.sum === null ? s : addScaled(state.sum, s), count: state.count + 1n };
    },
    finalize: (state) => (state.sum === null ? null : fromScaled(divideScaled(state.sum, { units: state.count, scale: 0 }))),
  });
  createAggregate(db, 'deskstore_numeric_min', extreme('min'));
  createAggregate(db, 'deskstore_numeric_max', extreme('max'));
  createAggregate(db, 'deskstore_text_min', textExtreme('min'));
  createAggregate(db, 'deskstore_text_max', textExtreme('max'));
}

/**
 * to_char for numbers: `9` (a digit, blank when a leading zero), `0` (always a digit), `.`/`D`,
 * `,`/`G`, `FM` (no padding, no trailing fraction zeros); the sign sits just before the number.
 */
function numberTemplate(value: unknown, template: string): string {
  const n = numericValue(value);
  if (n === null) return '';
  const fm = /^FM/i.test(template);
  const body = fm ? template.slice(2) : template;
  const point = body.search(/[.D]/);
  const intPattern = point < 0 ? body : body.slice(0, point);
  const fracPattern = point < 0 ? '' : body.slice(point + 1);
  const places = (fracPattern.match(/[90]/g) ?? []).length;
  const rounded = exactText(roundNumeric(n, places, false)!);
  const negative = rounded.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? rounded.slice(1) : rounded).split('.');
  const slotPattern = intPattern.replace(/[^90]/g, '');
  const slots = slotPattern.length;
  const digits = whole === '0' ? '' : whole;
  if (digits.length > slots) return `${fm ? '' : ' '}${body.replace(/[90]/g, '#').replace('D', '.')}`;
  const firstZero = slotPattern.includes('0') ? slotPattern.indexOf('0') : slots;
  let slot = 0;
  let intOut = '';
  for (const c of intPattern) {
    if (c === '9' || c === '0') {
      const fromDigits = slot - (slots - digits.length);
      intOut += fromDigits >= 0 ? digits[fromDigits]! : slot >= firstZero ? '0' : ' ';
      slot++;
    } else if (c === ',' || c === 'G') {
      intOut += /\d/.test(intOut) ? ',' : ' ';
    } else {
      intOut += c;
    }
  }
  let fracOut = point < 0 ? '' : `.${fraction.padEnd(places, '0')}`;
  if (fm && fracOut) {
    const keep = fracPattern.replace(/[^90]/g, '').lastIndexOf('0') + 1;
    fracOut = `.${fraction.slice(0, keep)}${fraction.slice(keep).replace(/0+$/, '')}`;
  }
  const out = intOut + fracOut;
  const first = out.search(/\S/);
  const sign = negative ? '-' : fm ? '' : ' ';
  const signed = first < 0 ? out + sign : `${out.slice(0, first)}${sign}${out.slice(first)}`;
  return fm ? signed.trim() : signed;
}
