import { exactFromCanonical, type ExactNumber } from './exact-number';

/**
 * Exact decimal arithmetic on scaled BigInts (a value is `units × 10^-scale`), as PostgreSQL's
 * numeric does it: sums keep the largest scale (`2.50 + 0.25 = 2.75`), division keeps at least
 * 16 significant digits. Used by SQL (sql/decimal-arithmetic.ts) and by group-by's exact sums
 * and means of numeric and int8 columns.
 */
export interface Scaled {
  readonly units: bigint;
  readonly scale: number;
}

export function toScaled(value: ExactNumber): Scaled {
  const text = String(value);
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const units = BigInt(whole + fraction);
  return { units: negative ? -units : units, scale: fraction.length };
}

export function fromScaled({ units, scale }: Scaled): ExactNumber {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const body = scale > 0 ? `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}` : digits;
  return exactFromCanonical(negative && /[1-9]/.test(digits) ? `-${body}` : body);
}

/** a's units at a larger scale. */
export function rescale(a: Scaled, scale: number): bigint {
  return a.units * 10n ** BigInt(scale - a.scale);
}

export function addScaled(a: Scaled, b: Scaled, sign: 1n | -1n = 1n): Scaled {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescale(a, scale) + sign * rescale(b, scale), scale };
}

/** PostgreSQL's base-10000 weight and first digit of a non-zero value (numeric.c's NBASE digits). */
function nbaseLead(a: Scaled): { weight: number; first: number } {
  const digits = (a.units < 0n ? -a.units : a.units).toString();
  const whole = digits.length > a.scale ? digits.slice(0, digits.length - a.scale) : '';
  if (whole !== '') {
    const weight = Math.floor((whole.length - 1) / 4);
    return { weight, first: Number(whole.slice(0, whole.length - weight * 4)) };
  }
  const fraction = digits.padStart(a.scale, '0');
  for (let group = 0; group * 4 < fraction.length; group++) {
    const value = Number(fraction.slice(group * 4, group * 4 + 4).padEnd(4, '0'));
    if (value !== 0) return { weight: -(group + 1), first: value };
  }
  return { weight: 0, first: 0 };
}

/**
 * a / b as PostgreSQL's numeric division: at least 16 significant digits, never fewer
 * decimals than either operand (select_div_scale), rounded half away from zero.
 */
export function divideExact(a: Scaled, b: Scaled): Scaled {
  if (b.units === 0n) throw new RangeError('division by zero');
  if (a.units === 0n) return { units: 0n, scale: Math.max(a.scale, b.scale, 0) };
  const x = nbaseLead(a);
  const y = nbaseLead(b);
  let qweight = x.weight - y.weight;
  if (x.first <= y.first) qweight--;
  const scale = Math.min(Math.max(16 - qweight * 4, a.scale, b.scale, 0), 1000);
  // units = a.units·10^-a.scale / (b.units·10^-b.scale), expressed with `scale` decimals.
  const numerator = a.units * 10n ** BigInt(scale + b.scale + 1);
  const denominator = b.units * 10n ** BigInt(a.scale);
  let q = numerator / denominator; // one extra digit, truncated toward zero
  q = (q + (q < 0n ? -5n : 5n)) / 10n;
  return { units: q, scale };
}
