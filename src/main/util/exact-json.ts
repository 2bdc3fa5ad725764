import { parse as parseLossless } from 'lossless-json';

/** An integer literal too long for a double to hold exactly (2^53 has 16 digits). */
const LONG_INTEGER = /\d{16,}/;

/**
 * JSON.parse, except that an integer beyond 2^53 keeps every digit as its decimal text, as
 * Python's json (and so CKAN) keeps it: an int8 such as 9223372036854775807 is stored exactly
 * (docs/sql-and-values.md). Fractions stay doubles, as Python's floats. Only texts that hold
 * such a number pay for the slower lossless parser. Used for request bodies and for the
 * records of a portal's DataStore dump.
 */
export function parseJsonExact(text: string): unknown {
  if (!LONG_INTEGER.test(text)) return JSON.parse(text);
  try {
    return parseLossless(text, null, (digits) =>
      /^-?\d+$/.test(digits) && !Number.isSafeInteger(Number(digits)) ? digits : Number(digits),
    );
  } catch {
    return JSON.parse(text); // invalid: JSON.parse's error, worded as every other text's
  }
}
