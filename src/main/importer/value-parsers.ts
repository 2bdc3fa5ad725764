/**
 * Recognising and converting single CSV cell values: the vocabulary shared by type inference
 * (which classifies every distinct value of a column) and the pipeline (which converts every
 * cell with the parser of the column's inferred or forced type).
 *
 * Stored forms match the engine's canonical forms: int4 as JS numbers, int8 and numeric as
 * exact numbers (a JS number or the exact text, `2.50`: engine/values/exact-number.ts), booleans as
 * booleans, dates `YYYY-MM-DD`, timestamps `YYYY-MM-DDTHH:MM:SS[.ffffff]` (fraction cut to
 * microseconds, trailing zeros dropped). Empty cells are null; `NA`, `-`, `n.d.` are values.
 */
import type { InferredColumn } from './type-inference';
import { parseDateValue, parseTimestampValue, type DateOrder } from './date-values';
import { canonicalDecimal, exactFromCanonical, parseInt8Text } from '../engine/importer-api';
import type { ExactNumber } from '../engine/engine-api';

import type { ImportType } from '../../shared/wire/import';

/** How a column's values are written in the file (what its parser expects). */
export type ValueFormat =
  | 'text'
  | 'integer' // 42, -7 (no leading zeros, no sign +)
  | 'numeric-dot' // 1.644, -0.5, 15.643452700000001, 1e-05
  | 'numeric-italian' // 1.234,56 / 0,5 / 1.234.567 (thousands dots, decimal comma)
  | 'bool-words' // true/false, t/f, yes/no, sì/si/no, vero/falso (any case)
  | 'date-iso' // 2020-02-24
  | 'date-dmy' // 24/02/2020, 4/2/2020, 24-02-2020, 24.02.2020
  | 'timestamp-iso' // 2020-02-24T18:00:00, 2020-02-24 18:00 (dates alone = midnight)
  | 'timestamp-iso-utc' // 2020-02-24T18:00:00+01:00 / ...Z, stored converted to UTC
  | 'timestamp-dmy'; // 22/03/2022 17:18:54, 22/03/2022 17:18 (dates alone = midnight)

export type ParsedValue = number | string | boolean | null;

/** A cell that does not fit its column's type; the message names the value. */
export class ValueParseError extends Error {
  readonly code = 'VALUE_PARSE_ERROR' as const;
  constructor(
    readonly value: string,
    readonly type: ImportType,
    detail?: string,
  ) {
    super(`${quote(value)} is not a valid ${TYPE_WORDS[type]}${detail ? `: ${detail}` : ''}`);
  }
}

const TYPE_WORDS: Record<ImportType, string> = {
  int4: 'int4 (32-bit integer)',
  int8: 'int8 (64-bit integer)',
  numeric: 'number',
  bool: 'boolean',
  date: 'date',
  timestamp: 'timestamp',
  text: 'text',
};

/** A value for messages: JSON-quoted, long cells shortened. */
export function quote(value: string, max = 80): string {
  return JSON.stringify(value.length > max ? `${value.slice(0, max)}…` : value);
}

export const INT4_MIN = -2147483648;
export const INT4_MAX = 2147483647;

/**
 * Only spaces and tabs around a cell are insignificant (CSV padding such as ISTAT's
 * `" 001 "`); NBSP and zero-width spaces are kept because they are part of the text.
 */
export function trimCell(raw: string): string {
  let start = 0;
  let end = raw.length;
  while (start < end && (raw.charCodeAt(start) === 32 || raw.charCodeAt(start) === 9)) start++;
  while (end > start && (raw.charCodeAt(end - 1) === 32 || raw.charCodeAt(end - 1) === 9)) end--;
  return start === 0 && end === raw.length ? raw : raw.slice(start, end);
}

/**
 * A cell with nothing visible is null: empty after trimming, or only Unicode whitespace
 * (NBSP, U+3000, a stray BOM) and zero-width spaces. country-codes.csv has 94 NBSP-only cells
 * standing for "no code" (the data README counts them as empty); a non-blank value keeps its
 * NBSPs, and an NBSP next to a digit still makes the value text.
 */
const BLANK = /^[\s\u200b]+$/;

export function isBlankCell(raw: string): boolean {
  const c = raw.charCodeAt(0);
  if (c > 32 && c < 0xa0) return false; // starts with a visible ASCII character: the common case, no pattern run
  const text = trimCell(raw);
  return text === '' || BLANK.test(text);
}

/** Longer values are never numbers, dates or booleans: no pattern is even tried on them. */
export const MAX_TYPED_LENGTH = 64;

// ---- numbers -------------------------------------------------------------------------------

export const INTEGER = /^-?(?:0|[1-9]\d*)$/;
/** `001`, `-01`, `00.5`, `01,5`: codes whose zeros would be lost as numbers. */
export const LEADING_ZERO = /^-?0\d+(?:[.,]\d+)?$/;
/** `1.234`: a decimal point, or an Italian thousands separator. The column decides. */
export const AMBIGUOUS_THOUSANDS = /^-?[1-9]\d{0,2}\.\d{3}$/;
export const DOT_DECIMAL = /^-?(?:(?:0|[1-9]\d*)?\.\d+(?:[eE][+-]?\d+)?|(?:0|[1-9]\d*)[eE][+-]?\d+)$/;
export const ITALIAN_DECIMAL = /^-?(?:0|[1-9]\d{0,2}(?:\.\d{3})+|[1-9]\d*),\d+$/;
/** Two or more thousands groups (`1.234.567`): can only be Italian. */
export const ITALIAN_INTEGER = /^-?[1-9]\d{0,2}(?:\.\d{3}){2,}$/;

/** Which integer type holds the integer written as `text` (digits, optional sign), or null beyond int8. */
export function integerClass(text: string): 'int4' | 'int8' | null {
  const n = Number(text);
  if (Number.isSafeInteger(n)) return n >= INT4_MIN && n <= INT4_MAX ? 'int4' : 'int8';
  return 'error' in parseInt8Text(text) ? null : 'int8';
}

/** `1.234.567,50` → `1234567.50`: the same number in the dot notation PostgreSQL reads. */
export function italianToDot(text: string): string {
  return text.replace(/\./g, '').replace(',', '.');
}

/** A numeric as written, exactly (its scale kept: `12,50` → `12.50`); null if not a number. */
function exactNumeric(dotText: string): ExactNumber | null {
  const canonical = canonicalDecimal(dotText);
  return canonical === null ? null : exactFromCanonical(canonical);
}

// ---- booleans ------------------------------------------------------------------------------

const BOOL_WORDS = new Map<string, boolean>([
  ['true', true],
  ['t', true],
  ['yes', true],
  ['sì', true],
  ['si', true],
  ['vero', true],
  ['false', false],
  ['f', false],
  ['no', false],
  ['falso', false],
]);
/** Forced `bool` also takes PostgreSQL's other spellings. */
const FORCED_BOOL_WORDS = new Map<string, boolean>([
  ...BOOL_WORDS,
  ['y', true],
  ['on', true],
  ['1', true],
  ['n', false],
  ['off', false],
  ['0', false],
]);

export function boolWord(text: string): boolean | undefined {
  return text.length <= 5 ? BOOL_WORDS.get(text.normalize('NFC').toLowerCase()) : undefined;
}

// ---- classification -----------------------------------------------------------------------

export type ValueKind =
  | 'int4'
  | 'int8'
  | 'huge-integer'
  | 'leading-zero'
  | 'dot-decimal'
  | 'ambiguous-thousands'
  | 'italian-decimal'
  | 'italian-integer'
  | 'bool'
  | 'date-iso'
  | 'date-dmy'
  | 'timestamp-iso'
  | 'timestamp-iso-tz'
  | 'timestamp-dmy'
  | 'text';

export interface ClassifiedValue {
  kind: ValueKind;
  /** For booleans: the value. */
  bool?: boolean;
  /** For integers (plain or Italian): beyond the int4 range. */
  int8?: boolean;
}

const INT4_VALUE: ClassifiedValue = Object.freeze({ kind: 'int4' });
const INT8_VALUE: ClassifiedValue = Object.freeze({ kind: 'int8', int8: true });
const DOT_DECIMAL_VALUE: ClassifiedValue = Object.freeze({ kind: 'dot-decimal' });

/**
 * The two shapes most numbers have, `-123` and `-123.45`, told apart by one pass over the
 * characters (an import classifies every value of a column of unique numbers: the chain of
 * patterns below cost more than the rest of reading it). Anything else, including `0123` and
 * `1.234`, is left to the patterns (undefined); the unit test checks both agree.
 */
function plainNumber(text: string): ClassifiedValue | undefined {
  const n = text.length;
  let i = text.charCodeAt(0) === 45 ? 1 : 0;
  const intStart = i;
  while (i < n && isDigit(text.charCodeAt(i))) i++;
  const intLength = i - intStart;
  if (intLength === 0 || (intLength > 1 && text.charCodeAt(intStart) === 48)) return undefined;
  if (i === n) {
    if (intLength < 10) return INT4_VALUE; // |n| < 10^9 fits int4
    return undefined;
  }
  if (text.charCodeAt(i) !== 46) return undefined;
  const fracStart = ++i;
  while (i < n && isDigit(text.charCodeAt(i))) i++;
  if (i !== n || i === fracStart) return undefined;
  if (intLength <= 3 && i - fracStart === 3) return undefined; // `1.234`: the column decides
  return DOT_DECIMAL_VALUE;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** What one trimmed, non-empty value could be, without looking at the rest of the column. */
export function classifyValue(text: string): ClassifiedValue {
  return (text.length <= MAX_TYPED_LENGTH ? plainNumber(text) : undefined) ?? classifyByPatterns(text);
}

/** classifyValue without its shortcut (the unit test compares the two). */
export function classifyByPatterns(text: string): ClassifiedValue {
  if (text.length > MAX_TYPED_LENGTH) return { kind: 'text' };
  const c0 = text.charCodeAt(0);
  const startsNumeric = (c0 >= 48 && c0 <= 57) || c0 === 45 || c0 === 46; // digit, '-', '.'
  if (startsNumeric) {
    if (INTEGER.test(text)) {
      const cls = integerClass(text);
      return cls === 'int8' ? INT8_VALUE : cls === 'int4' ? INT4_VALUE : { kind: 'huge-integer' };
    }
    if (LEADING_ZERO.test(text)) return { kind: 'leading-zero' };
    if (AMBIGUOUS_THOUSANDS.test(text)) return { kind: 'ambiguous-thousands' };
    // `1e400` is Infinity as a JS number: not a storable numeric.
    if (DOT_DECIMAL.test(text)) return { kind: Number.isFinite(Number(text)) ? 'dot-decimal' : 'text' };
    if (ITALIAN_DECIMAL.test(text)) return { kind: 'italian-decimal' };
    if (ITALIAN_INTEGER.test(text)) {
      const cls = integerClass(italianToDot(text));
      if (cls === null) return { kind: 'huge-integer' };
      return cls === 'int8' ? { kind: 'italian-integer', int8: true } : { kind: 'italian-integer' };
    }
    const date = parseDateValue(text);
    if (date) return { kind: date.order === 'iso' ? 'date-iso' : 'date-dmy' };
    const ts = parseTimestampValue(text);
    if (ts) {
      if (ts.order === 'dmy') return { kind: 'timestamp-dmy' };
      return { kind: ts.zoned ? 'timestamp-iso-tz' : 'timestamp-iso' };
    }
    return { kind: 'text' };
  }
  const bool = boolWord(text);
  return bool === undefined ? { kind: 'text' } : { kind: 'bool', bool };
}

// ---- parsers -------------------------------------------------------------------------------

type Parser = (raw: string) => ParsedValue;

/** An integer column's value from digits with an optional sign (`text` already in dot form). */
function integerOrThrow(text: string, raw: string, type: ImportType): ExactNumber {
  // Most integers are safe ones, which a JS number holds exactly: the BigInt reading below is
  // for int8 values past 2^53 (it runs once per spilled id otherwise, on both import threads).
  const n = Number(text);
  if (Number.isSafeInteger(n) && (type !== 'int4' || (n >= INT4_MIN && n <= INT4_MAX))) return n === 0 ? 0 : n; // `-0` reads as 0
  const cls = integerClass(text);
  const reading = parseInt8Text(text); // `-0` reads as 0
  if (cls === null || (type === 'int4' && cls !== 'int4') || 'error' in reading) {
    throw new ValueParseError(raw, type, type === 'int4' ? 'out of the int4 range' : 'out of the int8 range');
  }
  return reading.value;
}

function numericOrThrow(dotText: string, raw: string): ExactNumber {
  const n = exactNumeric(dotText);
  if (n === null) throw new ValueParseError(raw, 'numeric', 'out of range');
  return n;
}

function dateOrThrow(text: string, raw: string, order: DateOrder | null): string {
  const d = parseDateValue(text);
  if (!d || (order && d.order !== order)) throw new ValueParseError(raw, 'date', order ? `expected ${order} order` : undefined);
  return d.value;
}

function timestampOrThrow(text: string, raw: string, order: DateOrder | null, zoned: boolean | null): string {
  const ts = parseTimestampValue(text) ?? dateAsTimestamp(text);
  if (!ts || (order && ts.order !== order) || (zoned !== null && ts.zoned !== zoned)) {
    throw new ValueParseError(raw, 'timestamp');
  }
  return ts.value;
}

/** A date alone in a timestamp column means midnight. */
function dateAsTimestamp(text: string): { value: string; order: DateOrder; zoned: boolean } | null {
  const d = parseDateValue(text);
  return d ? { value: `${d.value}T00:00:00`, order: d.order, zoned: false } : null;
}

/** Wraps a parser of trimmed, non-empty text: blank cells become null. */
function nonBlank(parse: (text: string, raw: string) => ParsedValue): Parser {
  return (raw) => {
    const text = trimCell(raw);
    return text === '' || BLANK.test(text) ? null : parse(text, raw);
  };
}

/**
 * The converter for a column as inferred. Values the inference did not see (or that do not
 * fit) throw ValueParseError. Text is returned untouched (the pipeline decides on trimming).
 */
export function parserFor(column: Pick<InferredColumn, 'type' | 'format'>): Parser {
  const { type, format } = column;
  switch (format) {
    case 'text':
      return nonBlank((_text, raw) => raw);
    case 'integer':
      return nonBlank((text, raw) => {
        if (!INTEGER.test(text)) throw new ValueParseError(raw, type);
        return type === 'numeric' ? numericOrThrow(text, raw) : integerOrThrow(text, raw, type);
      });
    case 'numeric-dot':
      return nonBlank((text, raw) => {
        const ok = INTEGER.test(text) || DOT_DECIMAL.test(text) || AMBIGUOUS_THOUSANDS.test(text);
        if (!ok || !Number.isFinite(Number(text))) throw new ValueParseError(raw, type);
        return numericOrThrow(text, raw);
      });
    case 'numeric-italian':
      return nonBlank((text, raw) => {
        const ok =
          INTEGER.test(text) ||
          AMBIGUOUS_THOUSANDS.test(text) ||
          ITALIAN_INTEGER.test(text) ||
          (type === 'numeric' && ITALIAN_DECIMAL.test(text));
        if (!ok) throw new ValueParseError(raw, type, 'expected Italian number format (1.234,56)');
        const dot = italianToDot(text);
        return type === 'numeric' ? numericOrThrow(dot, raw) : integerOrThrow(dot, raw, type);
      });
    case 'bool-words':
      return nonBlank((text, raw) => {
        const b = boolWord(text);
        if (b === undefined) throw new ValueParseError(raw, 'bool');
        return b;
      });
    case 'date-iso':
    case 'date-dmy':
      return nonBlank((text, raw) => dateOrThrow(text, raw, format === 'date-iso' ? 'iso' : 'dmy'));
    case 'timestamp-iso':
      return nonBlank((text, raw) => timestampOrThrow(text, raw, 'iso', false));
    case 'timestamp-iso-utc':
      return nonBlank((text, raw) => timestampOrThrow(text, raw, 'iso', true));
    case 'timestamp-dmy':
      return nonBlank((text, raw) => timestampOrThrow(text, raw, 'dmy', false));
  }
}

const FORCED_INTEGER = /^[+-]?\d+$/;
const FORCED_DOT_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const FORCED_ITALIAN_NUMBER = /^[+-]?(?:\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+,\d+)$/;

/**
 * Converts one cell to a type the user forced, more leniently than inference: leading zeros
 * and a `+` sign are accepted for numbers, `1.234.567` / `1.234,5` / `0,5` are read as
 * Italian, `1.234` as a decimal point, bool also takes y/n/on/off/1/0, timestamps take ISO
 * (with a zone: converted to UTC) or day-first forms and bare dates (midnight).
 * Blank → null. Throws ValueParseError naming the value otherwise.
 */
export function parseAs(type: ImportType, raw: string): ParsedValue {
  const text = trimCell(raw);
  if (text === '' || BLANK.test(text)) return null;
  if (type === 'text') return raw;
  if (text.length > MAX_TYPED_LENGTH) throw new ValueParseError(raw, type, 'too long');
  switch (type) {
    case 'int4':
    case 'int8':
      if (FORCED_INTEGER.test(text)) return integerOrThrow(text, raw, type);
      if (ITALIAN_INTEGER.test(text.replace(/^[+-]/, ''))) return integerOrThrow(italianToDot(text), raw, type);
      throw new ValueParseError(raw, type);
    case 'numeric':
      if (FORCED_DOT_NUMBER.test(text)) return numericOrThrow(text, raw);
      if (FORCED_ITALIAN_NUMBER.test(text)) return numericOrThrow(italianToDot(text), raw);
      throw new ValueParseError(raw, type);
    case 'bool': {
      const b = FORCED_BOOL_WORDS.get(text.normalize('NFC').toLowerCase());
      if (b === undefined) throw new ValueParseError(raw, type);
      return b;
    }
    case 'date':
      return dateOrThrow(text, raw, null);
    case 'timestamp':
      return timestampOrThrow(text, raw, null, null);
  }
}
