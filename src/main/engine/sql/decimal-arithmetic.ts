import type { ExactNumber } from '../values/exact-number';
import { addScaled, divideExact, fromScaled, rescale, toScaled, type Scaled } from '../values/scaled-decimal';
import { SqlQueryError } from './sql-errors';
import { numericValue } from './sql-values';

/**
 * Exact numeric arithmetic for SQL (PostgreSQL's numeric: `2.50 + 0.25 = 2.75`,
 * `2.50 * 2 = 5.00`, sums keep the largest scale), on the scaled BigInts of
 * values/scaled-decimal.ts; here the SQL errors (division by zero) and operators.
 */
export type { Scaled } from '../values/scaled-decimal';
export { addScaled, fromScaled, toScaled } from '../values/scaled-decimal';

/** a / b with numeric's scale; division by zero is PostgreSQL's error. */
export function divideScaled(a: Scaled, b: Scaled): Scaled {
  if (b.units === 0n) throw new SqlQueryError('division by zero');
  return divideExact(a, b);
}

/** a op b for + - * %; null when either is NULL. */
export function numericOperation(op: string, a: unknown, b: unknown): ExactNumber | null {
  const x = numericValue(a);
  const y = numericValue(b);
  if (x === null || y === null) return null;
  const l = toScaled(x);
  const r = toScaled(y);
  switch (op) {
    case '+':
      return fromScaled(addScaled(l, r));
    case '-':
      return fromScaled(addScaled(l, r, -1n));
    case '*':
      return fromScaled({ units: l.units * r.units, scale: l.scale + r.scale });
    case '/':
      return fromScaled(divideScaled(l, r));
    case '%': {
      const scale = Math.max(l.scale, r.scale);
      const divisor = rescale(r, scale);
      if (divisor === 0n) throw new SqlQueryError('division by zero');
      return fromScaled({ units: rescale(l, scale) % divisor, scale });
    }
    default:
      throw new SqlQueryError(`operator does not exist: numeric ${op} numeric`);
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
