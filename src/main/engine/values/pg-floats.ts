/**
 * Floats as PostgreSQL prints them (float8out/float4out, PostgreSQL 12+: the shortest digits that
 * read back as the same value), which is what datastore_search's records and csv cells carry on
 * CKAN: the digits JavaScript finds too, but in scientific notation from a decimal exponent of
 * 15 (float8) or 6 (float4) up and below -4, with at least two exponent digits (`2.5e-07`,
 * `1e+16`, `1.234567e+06`), and `-0` kept. Seen on PostgreSQL 15.
 */

function format(digits: string, exponent: number, negative: boolean, maxPlainExponent: number): string {
  const sign = negative ? '-' : '';
  if (exponent < -4 || exponent >= maxPlainExponent) {
    const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${mantissa}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  if (digits.length > exponent + 1) return `${sign}${digits.slice(0, exponent + 1)}.${digits.slice(exponent + 1)}`;
  return `${sign}${digits}${'0'.repeat(exponent + 1 - digits.length)}`;
}

/** The shortest significant digits of `n` (no sign) and its decimal exponent. */
function shortest(n: number, precision?: number): { digits: string; exponent: number } {
  const [mantissa, exp] = Math.abs(n).toExponential(precision).split('e') as [string, string];
  return { digits: mantissa.replace('.', '').replace(/0+$/, '') || '0', exponent: Number(exp) };
}

function special(n: number): string | null {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  return null;
}

/** A float8 as PostgreSQL prints it: `2.5e-07`, `0.1`, `1e+16`, `123456789012345.6`. */
export function pgFloat8Text(n: number): string {
  const s = special(n);
  if (s !== null) return s;
  const { digits, exponent } = shortest(n);
  return format(digits, exponent, n < 0, 15);
}

/** A float4 as PostgreSQL prints it: the shortest digits that read back as the same float4 (`0.057308756`). */
export function pgFloat4Text(n: number): string {
  const s = special(n);
  if (s !== null) return s;
  const f = Math.fround(n);
  for (let p = 0; p < 9; p++) {
    const candidate = Number(Math.abs(f).toExponential(p));
    if (Math.fround(candidate) === Math.abs(f)) {
      const { digits, exponent } = shortest(candidate, p);
      return format(digits, exponent, f < 0, 6);
    }
  }
  const { digits, exponent } = shortest(f, 8);
  return format(digits, exponent, f < 0, 6);
}
