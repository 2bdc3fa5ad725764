import { exactFromCanonical, type ExactNumber } from '../values/exact-number';
import { SqlQueryError } from './sql-errors';
import { numericValue } from './sql-values';

/**
 * Exact numeric arithmetic for SQL (PostgreSQL's numeric: `2.50 + 0.25 = 2.75`,
 * `2.50 * 2 = 5.00`, sums keep the largest scale), on scaled BigInts: a value is
 * `units × 10^-scale`.
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

function rescale(a: Scaled, scale: number): bigint {
  return a.units * 10n ** BigInt(scale - a.scale);
}

export function addScaled(a: Scaled, b: Scaled, sign: 1n | -1n = 1n): Scaled {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescale(a, scale) + sign * rescale(b, scale), scale };
}

/** a op b for + - * %; null when either is NULL. */
export function numericOperation(op: string, a: unknown, b: unknown): ExactNumber | null {
  const x = numericValue(a);
  const y = numericValue(b);
  if (x === null || y === null) return null;
  const l = toScaled(x);
  const r = toScaled(y);
  switch (op) {
    case '+': return fromScaled(addScaled(l, r));
    case '-': return fromScaled(addScaled(l, r, -1n));
    case '*': return fromScaled({ units: l.units * r.units, scale: l.scale + r.scale });
    case '%': {
      const scale = Math.max(l.scale, r.scale);
      const divisor = rescale(r, scale);
      if (divisor === 0n) throw new SqlQueryError('division by zero');
      return fromScaled({ units: rescale(l, scale) % divisor, scale });
    }
    default: throw new SqlQueryError(`operator does not exist: numeric ${op} numeric`);
  }
}

/** round()/trunc() to `places` decimals (half away from zero), PostgreSQL's result scale. */
export function roundNumeric(value: unknown, places: number, truncate: boolean): ExactNumber | null {
  const x = numericValue(value);
  if (x === null) return null;
  const a = toScaled(x);
  const target = Math.max(places, 0);
  if (a.scale <= places) return fromScaled({ units: rescale(a, target), scale: target });
  const factor = 10n ** BigInt(a.scale - places);
  let units = a.units / factor; // truncates toward zero
  const remainder = a.units % factor;
  if (!truncate && (remainder < 0n ? -remainder : remainder) * 2n >= factor) units += a.units < 0n ? -1n : 1n;
  // Negative places round to tens, hundreds…: scale 0.
  return places < 0 ? fromScaled({ units: units * 10n ** BigInt(-places), scale: 0 }) : fromScaled({ units, scale: places });
}
