/**
 * Exact numbers for `numeric` and `int8` columns (docs/sql-and-values.md). PostgreSQL's
 * `numeric` keeps the scale it was written with (`2.50` stays `2.50`) and `int8` holds all of
 * ±9223372036854775807; a JS number does neither. A value is kept as an `ExactNumber`:
 *
 * - a JS number when its shortest JS text *is* the value's PostgreSQL text (`2.5`, `1000`,
 *   `-0.25`, any safe integer): most values, which keeps dictionaries, sorts and files as
 *   cheap as plain numbers;
 * - otherwise that canonical text itself (`2.50`, `0.0000001`, `9223372036854775807`).
 *
 * Either way `exactText` gives the PostgreSQL text, which is also a JSON number literal.
 * Numbers order like the decimals they stand for (a double's shortest text rounds back to
 * it, and rounding is monotonic), so comparisons go through doubles first and fall back to
 * the decimal text only when two doubles are equal.
 */
export type ExactNumber = number | string;

const PLAIN_CANONICAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;
const NEGATIVE_ZERO = /^-0(?:\.0*)?$/;
const DECIMAL_INPUT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
/** PostgreSQL's numeric limits: 131072 digits before the point, 16383 after. */
const MAX_INTEGER_DIGITS = 131072;
const MAX_SCALE = 16383;

/**
 * The canonical PostgreSQL text of a numeric written as `text` (numeric_in): sign, no
 * leading zeros, the scale as written (`2.50`), exponents applied (`1.5e1` → `15`,
 * `1e-3` → `0.001`), `-0` → `0`. Null when the text is not a number.
 */
export function canonicalDecimal(text: string): string | null {
  // Most cells are already canonical (`12345.60`, `-3`): one test, no rebuilding.
  if (PLAIN_CANONICAL.test(text) && !NEGATIVE_ZERO.test(text)) return text;
  const m = DECIMAL_INPUT.exec(text.trim());
  if (!m) return null;
  const [, sign, whole = '', fraction = '', exponentText] = m;
  if (whole === '' && fraction === '') return null;
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > MAX_INTEGER_DIGITS + MAX_SCALE) return null;
  // The digits with the decimal point moved by the exponent: value = digits × 10^-scale.
  let digits = whole + fraction;
  let scale = fraction.length - exponent;
  if (scale < 0) {
    digits += '0'.repeat(-scale);
    scale = 0;
  }
  if (scale > MAX_SCALE) return null;
  if (digits.length < scale + 1) digits = '0'.repeat(scale + 1 - digits.length) + digits;
  let integer = digits.slice(0, digits.length - scale).replace(/^0+(?=\d)/, '');
  if (integer.length > MAX_INTEGER_DIGITS) return null;
  const decimals = digits.slice(digits.length - scale);
  if (integer === '') integer = '0';
  const isZero = /^0*$/.test(integer + decimals);
  const body = scale > 0 ? `${integer}.${decimals}` : integer;
  return sign === '-' && !isZero ? `-${body}` : body;
}

/** The representation of a canonical text: a number when the number says it exactly. */
export function exactFromCanonical(canonical: string): ExactNumber {
  // A fraction ending in 0 says more than any double (`2.50`): no need to ask.
  const point = canonical.indexOf('.');
  if (point >= 0 && canonical.charCodeAt(canonical.length - 1) === 48) return canonical;
  const n = Number(canonical);
  // Up to 15 digits a double always gives the digits back, unless JS would write it with an
  // exponent (below 1e-6): then the text is compared.
  if (canonical.length <= 15 && !canonical.includes('.000000')) return n;
  return String(n) === canonical ? n : canonical;
}

/** The value's PostgreSQL text (also a valid JSON number literal). */
export function exactText(value: ExactNumber): string {
  return typeof value === 'number' ? String(value) : value;
}

/** The nearest double (what sorting and range filters compare first). */
export function approximate(value: ExactNumber): number {
  return typeof value === 'number' ? value : Number(value);
}

/** Digits after the decimal point, as PostgreSQL's `scale()` reports it. */
export function scaleOf(value: ExactNumber): number {
  const text = exactText(value);
  const point = text.indexOf('.');
  return point < 0 ? 0 : text.length - point - 1;
}

/** Compares two canonical decimal texts exactly. */
function compareDecimalText(a: string, b: string): number {
  const negA = a.startsWith('-');
  const negB = b.startsWith('-');
  if (negA !== negB) return negA ? -1 : 1;
  const magnitude = compareMagnitude(negA ? a.slice(1) : a, negB ? b.slice(1) : b);
  return negA ? -magnitude : magnitude;
}

function compareMagnitude(a: string, b: string): number {
  const [ai = '', af = ''] = a.split('.');
  const [bi = '', bf = ''] = b.split('.');
  if (ai.length !== bi.length) return ai.length < bi.length ? -1 : 1;
  if (ai !== bi) return ai < bi ? -1 : 1;
  const fa = af.replace(/0+$/, '');
  const fb = bf.replace(/0+$/, '');
  // Same integer part: the fractions compare digit by digit (a shorter one is padded with zeros).
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}

/** Numeric order: `2.5` and `2.50` are equal, as in PostgreSQL. */
export function compareExact(a: ExactNumber, b: ExactNumber): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  const x = approximate(a);
  const y = approximate(b);
  if (x !== y) return x < y ? -1 : 1;
  return compareDecimalText(exactText(a), exactText(b));
}

const INT8_MIN = -(2n ** 63n);
const INT8_MAX = 2n ** 63n - 1n;

/** An int8 read from a request or a file: its value, or which of PostgreSQL's two errors. */
export type Int8Reading = { readonly value: ExactNumber } | { readonly error: 'syntax' | 'range' };

/** An int8 written as `text` (`+12`, ` 007 `). */
export function parseInt8Text(text: string): Int8Reading {
  const t = text.trim();
  if (!/^[+-]?\d+$/.test(t)) return { error: 'syntax' };
  const n = BigInt(t);
  if (n < INT8_MIN || n > INT8_MAX) return { error: 'range' };
  return { value: exactFromCanonical(n.toString()) };
}

/** A JS number given for an int8 (already an integer): exact when it is a safe integer. */
export function int8FromNumber(n: number): Int8Reading {
  if (Number.isSafeInteger(n)) return { value: n };
  // A double beyond 2^53 stands for one exact integer; PostgreSQL would store that integer.
  const big = BigInt(n);
  return big < INT8_MIN || big > INT8_MAX ? { error: 'range' } : { value: big.toString() };
}
