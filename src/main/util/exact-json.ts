/**
 * How Deskstore reads JSON request bodies so that numbers mean what they mean to CKAN, whose
 * Python `json` gives an `int` for `310` and a `float` for `310.0` (docs/sql-and-values.md §2):
 * - an integer beyond 2^53 keeps every digit, as a BigInt (an int8 such as
 *   9223372036854775807 is stored exactly; a JSON column keeps it a number);
 * - a float literal whose value is whole (`310.0`, `1e3`, `2E2`) becomes a boxed Number,
 *   `new Number(310)`: a Python float that JavaScript would otherwise take for an int. It
 *   decides what CKAN decides with a float: a numeric column stores `310.0`, a text column
 *   `'310.0'`, a JSON column keeps `310.0`, datastore_create guesses `float`. Boxed Numbers
 *   survive postMessage (structured clone keeps Number objects) and read as numbers in
 *   arithmetic; isPythonFloat() tells them. Other fractions are plain numbers, floats anyway.
 * Only texts that may hold such a number pay for the reviver, which reads each number's source
 * text (JSON.parse source access, Node 21+).
 */

/** An integer literal too long for a double to hold exactly (2^53 has 16 digits). */
const LONG_INTEGER = /\d{16,}/;
/** A float literal that may be whole: an exponent, a fraction ending in 0, or a long fraction. */
const WHOLE_FLOAT = /\d[eE]|\.\d*0(?!\d)|\.\d{15,}/;
const FLOAT_SYNTAX = /[.eE]/;

/** A boxed Number: `instanceof Number`, read with valueOf(). */
export interface PythonFloat {
  valueOf(): number;
}

/** A JSON float literal with a whole value (`310.0`), boxed by parseJsonExact. */
export function isPythonFloat(value: unknown): value is PythonFloat {
  return value instanceof Number;
}

interface SourceContext {
  readonly source?: string;
}

function revive(_key: string, value: unknown, context?: SourceContext): unknown {
  if (typeof value !== 'number' || context?.source === undefined) return value;
  const source = context.source;
  if (FLOAT_SYNTAX.test(source)) return Number.isInteger(value) ? new Number(value) : value;
  return Number.isSafeInteger(value) ? value : BigInt(source);
}

/** JSON.parse with CKAN's reading of numbers (above). */
export function parseJsonExact(text: string): unknown {
  if (!LONG_INTEGER.test(text) && !WHOLE_FLOAT.test(text)) return JSON.parse(text);
  return (JSON.parse as (text: string, reviver: typeof revive) => unknown)(text, revive);
}

/**
 * Replaces boxed Python floats by plain numbers and big integers by their digits, deep and in
 * place (a `__proto__` key stays an own property): every parameter but `records` is read by
 * validators that expect plain JSON, and int8 filters take digits.
 */
export function unboxPythonFloats(value: unknown): unknown {
  if (value instanceof Number) return value.valueOf();
  if (typeof value === 'bigint') return String(value);
  if (value === null || typeof value !== 'object') return value;
  for (const [k, v] of Object.entries(value)) {
    const plain = unboxPythonFloats(v);
    if (plain !== v) Object.defineProperty(value, k, { value: plain, enumerable: true, writable: true, configurable: true });
  }
  return value;
}
