import type { CodeArray } from '../column-store/column';

/**
 * Orders matched rows by several keys. Every key is first turned into a small unsigned integer
 * per row (its rank in the column's order, NULL placement and direction folded in), so the
 * sort itself never compares values: large sets go through one stable counting sort per key
 * (least significant first), small ones through a comparison sort on those integers.
 * Ties keep `_id` order because the input is ascending and every pass is stable.
 */

export interface RowKey {
  /** keys[i] is the key of the i-th input row; smaller sorts first. */
  readonly keys: Uint32Array;
  readonly max: number;
}

const COMPARISON_SORT_BELOW = 20_000;

export function sortByKeys(rowIds: Uint32Array, keys: readonly RowKey[]): Uint32Array {
  const n = rowIds.length;
  if (n < 2 || keys.length === 0) return rowIds;
  let order: Uint32Array = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  if (n < COMPARISON_SORT_BELOW) {
    order.sort((a, b) => {
      for (const k of keys) {
        const d = k.keys[a]! - k.keys[b]!;
        if (d !== 0) return d;
      }
      return a - b;
    });
  } else {
    for (let k = keys.length - 1; k >= 0; k--) order = countingSort(order, keys[k]!);
  }
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = rowIds[order[i]!]!;
  return out;
}

function countingSort(order: Uint32Array, key: RowKey): Uint32Array {
  const counts = new Uint32Array(key.max + 2);
  const k = key.keys;
  for (let i = 0; i < order.length; i++) counts[k[order[i]!]! + 1]!++;
  for (let v = 1; v < counts.length; v++) counts[v]! += counts[v - 1]!;
  const out = new Uint32Array(order.length);
  for (let i = 0; i < order.length; i++) {
    const idx = order[i]!;
    out[counts[k[idx]!]!++] = idx;
  }
  return out;
}

/**
 * A column key from dictionary ranks. PostgreSQL puts NULLs last ascending and first
 * descending unless the clause says otherwise.
 */
export function columnKey(rowIds: Uint32Array, codes: CodeArray, ranks: Uint32Array, descending: boolean, nullsFirst: boolean): RowKey {
  let maxRank = 0;
  for (let c = 0; c < ranks.length; c++) if (ranks[c]! > maxRank) maxRank = ranks[c]!;
  const keys = new Uint32Array(rowIds.length);
  const nullKey = nullsFirst ? 0 : maxRank + 1;
  for (let i = 0; i < rowIds.length; i++) {
    const rank = ranks[codes[rowIds[i]!]!]!;
    keys[i] = rank === 0 ? nullKey : descending ? maxRank + 1 - rank : rank;
  }
  return { keys, max: maxRank + 1 };
}

/** `_id` as a sort key. */
export function idKey(rowIds: Uint32Array, descending: boolean): RowKey {
  let max = 0;
  for (let i = 0; i < rowIds.length; i++) if (rowIds[i]! > max) max = rowIds[i]!;
  const keys = new Uint32Array(rowIds.length);
  for (let i = 0; i < rowIds.length; i++) keys[i] = descending ? max - rowIds[i]! : rowIds[i]!;
  return { keys, max };
}

/** Float scores (full-text rank), highest first. */
export function scoreKeyDescending(scores: Float64Array): RowKey {
  const distinct = Float64Array.from(new Set(scores)).sort();
  const keys = new Uint32Array(scores.length);
  for (let i = 0; i < scores.length; i++) {
    let lo = 0,
      hi = distinct.length - 1;
    const s = scores[i]!;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (distinct[mid]! < s) lo = mid + 1;
      else hi = mid;
    }
    keys[i] = distinct.length - 1 - lo;
  }
  return { keys, max: distinct.length };
}
