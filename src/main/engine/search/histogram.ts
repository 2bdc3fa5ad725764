import type { StorageKind } from '../field-types';
import { textOfEpoch, utcMillis } from '../values/epoch';

/**
 * Histogram bins a person can read: numbers on round boundaries (1, 2 or 5 × 10ⁿ wide),
 * dates on calendar boundaries (hours, days, months, or 1/2/5/10… years). `binOf` places a
 * value; bins are [from, to) except the last, which also holds the maximum.
 */
export interface Bins {
  readonly count: number;
  readonly unit: string | null;
  binOf(value: number): number;
  bounds(index: number): { from: number | string; to: number | string };
}

const tidy = (x: number): number => Number(x.toPrecision(12));

function niceStep(rough: number): number {
  const power = 10 ** Math.floor(Math.log10(rough));
  const f = rough / power;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * power;
}

/** Bins for numbers from `min` to `max` (finite), about `wanted` of them. */
export function numberBins(min: number, max: number, wanted: number, integers: boolean): Bins {
  if (min === max) {
    return { count: 1, unit: null, binOf: () => 0, bounds: () => ({ from: min, to: max }) };
  }
  let step = niceStep((max - min) / wanted);
  if (integers) step = Math.max(1, Math.round(step));
  const start = Math.floor(min / step) * step;
  const count = Math.max(1, Math.floor((max - start) / step) + 1);
  return {
    count,
    unit: null,
    binOf: (v) => Math.min(count - 1, Math.max(0, Math.floor((v - start) / step))),
    bounds: (i) => ({ from: tidy(start + i * step), to: tidy(start + (i + 1) * step) }),
  };
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const YEAR_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];

/** Calendar bins for instants (ms since 1970) between `min` and `max`. */
export function dateBins(min: number, max: number, wanted: number, storage: StorageKind): Bins {
  const text = (ms: number) => textOfEpoch(ms, storage);
  const span = max - min;
  const fixed = (size: number, unit: string): Bins => {
    const start = Math.floor(min / size) * size;
    const count = Math.floor((max - start) / size) + 1;
    return {
      count,
      unit,
      binOf: (v) => Math.min(count - 1, Math.floor((v - start) / size)),
      bounds: (i) => ({ from: text(start + i * size), to: text(start + (i + 1) * size) }),
    };
  };
  if (storage !== 'date' && span <= 2 * DAY) return fixed(HOUR, 'hour');
  if (span <= 92 * DAY) return fixed(DAY, 'day');
  const first = new Date(min);
  const last = new Date(max);
  if (span <= 4 * 366 * DAY) {
    const startMonth = first.getUTCFullYear() * 12 + first.getUTCMonth();
    const count = last.getUTCFullYear() * 12 + last.getUTCMonth() - startMonth + 1;
    const monthStart = (k: number) => utcMillis(Math.floor(k / 12), (k % 12) + 1, 1);
    return {
      count,
      unit: 'month',
      binOf: (v) => {
        const d = new Date(v);
        return d.getUTCFullYear() * 12 + d.getUTCMonth() - startMonth;
      },
      bounds: (i) => ({ from: text(monthStart(startMonth + i)), to: text(monthStart(startMonth + i + 1)) }),
    };
  }
  const years = last.getUTCFullYear() - first.getUTCFullYear() + 1;
  const step = YEAR_STEPS.find((s) => years / s <= wanted) ?? Math.ceil(years / wanted);
  const startYear = Math.floor(first.getUTCFullYear() / step) * step;
  const count = Math.floor((last.getUTCFullYear() - startYear) / step) + 1;
  return {
    count,
    unit: step === 1 ? 'year' : `${step} years`,
    binOf: (v) => Math.floor((new Date(v).getUTCFullYear() - startYear) / step),
    bounds: (i) => ({ from: text(utcMillis(startYear + i * step, 1, 1)), to: text(utcMillis(startYear + (i + 1) * step, 1, 1)) }),
  };
}
