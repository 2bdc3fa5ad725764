import type { GroupByMetric } from '../../../shared/wire/group-by';
import type { Column } from '../column-store/column';
import { recordValue } from '../values/encode';
import { scaleOf, type ExactNumber } from '../values/exact-number';
import { divideExact, fromScaled, toScaled } from '../values/scaled-decimal';

/**
 * The metric of one group-by value column, accumulated row by row into each group's slot:
 * `sum` and `mean` over every number type (int2/int4 and float as doubles; numeric and int8
 * exactly, as PostgreSQL's sum and avg give them), `min` and `max` over numbers and dates by
 * the column's sort ranks (the value itself is reported as records show it).
 */
export interface MetricSlot {
  count: number;
  /** Rows with a value (not NULL). */
  values: number;
  sum: number;
  /** The exact sum's units when they may not fit a double's integers. */
  bigSum: bigint;
  /** The largest scale among the values summed (PostgreSQL's sum keeps it: 2.50 + 0.25 = 2.75). */
  scale: number;
  minCode: number;
  maxCode: number;
}

export function newSlot(): MetricSlot {
  return { count: 0, values: 0, sum: 0, bigSum: 0n, scale: 0, minCode: 0, maxCode: 0 };
}

export interface MetricColumn {
  /** Adds the value of dictionary code `code` (not NULL) to `slot`. */
  add(slot: MetricSlot, code: number): void;
  /** The metric of a group, null when no row had a value. */
  result(slot: MetricSlot): number | string | null;
}

/** `count`: nothing to add up. */
const COUNT: MetricColumn = { add: () => undefined, result: (slot) => slot.count };

function extremes(column: Column, metric: 'min' | 'max'): MetricColumn {
  const ranks = column.sortRanks();
  const storage = column.type.storage;
  return {
    add(slot, code) {
      if (slot.values === 1 || ranks[code]! < ranks[slot.minCode]!) slot.minCode = code;
      if (slot.values === 1 || ranks[code]! > ranks[slot.maxCode]!) slot.maxCode = code;
    },
    result(slot) {
      if (!slot.values) return null;
      return recordValue(column.values[metric === 'min' ? slot.minCode : slot.maxCode]!, storage) as number | string;
    },
  };
}

/** int2/int4 and float: doubles, as before (an int4 sum stays exact far beyond any table here). */
function doubles(column: Column, metric: 'sum' | 'mean'): MetricColumn {
  const values = column.values;
  return {
    add(slot, code) {
      slot.sum += values[code] as number;
    },
    result(slot) {
      if (!slot.values) return null;
      return metric === 'sum' ? slot.sum : slot.sum / slot.values;
    },
  };
}

/**
 * numeric and int8: every value as integer units at the column's largest scale. When no sum
 * of `rows` such units can pass 2^53, they are added as doubles (exact integers, fast);
 * otherwise as BigInts.
 */
function exact(column: Column, metric: 'sum' | 'mean', rows: number): MetricColumn {
  const values = column.values as ExactNumber[];
  const size = values.length;
  const scales = new Uint16Array(size);
  let scale = 0;
  for (let code = 1; code < size; code++) {
    scales[code] = scaleOf(values[code]!);
    if (scales[code]! > scale) scale = scales[code]!;
  }
  const units: bigint[] = new Array<bigint>(size).fill(0n);
  let largest = 0n;
  for (let code = 1; code < size; code++) {
    const s = toScaled(values[code]!);
    const u = s.units * 10n ** BigInt(scale - s.scale);
    units[code] = u;
    const magnitude = u < 0n ? -u : u;
    if (magnitude > largest) largest = magnitude;
  }
  const small = largest * BigInt(Math.max(1, rows)) <= BigInt(Number.MAX_SAFE_INTEGER);
  const asDoubles = small ? Float64Array.from(units, Number) : null;
  return {
    add(slot, code) {
      if (asDoubles) slot.sum += asDoubles[code]!;
      else slot.bigSum += units[code]!;
      if (scales[code]! > slot.scale) slot.scale = scales[code]!;
    },
    result(slot) {
      if (!slot.values) return null;
      // every value summed has at most slot.scale decimals: dividing back is exact
      const total = (asDoubles ? BigInt(slot.sum) : slot.bigSum) / 10n ** BigInt(scale - slot.scale);
      const sum = { units: total, scale: slot.scale };
      return fromScaled(metric === 'sum' ? sum : divideExact(sum, { units: BigInt(slot.values), scale: 0 }));
    },
  };
}

export function metricColumn(column: Column | null, metric: GroupByMetric, rows: number): MetricColumn {
  if (!column || metric === 'count') return COUNT;
  if (metric === 'min' || metric === 'max') return extremes(column, metric);
  return column.type.storage === 'exact' ? exact(column, metric, rows) : doubles(column, metric);
}
