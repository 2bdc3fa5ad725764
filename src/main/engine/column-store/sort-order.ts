import { collationKey, collationPrimaryKey, compareCollated } from '../collation/glibc-collation';
import { isStoredAsNumber, type StorageKind } from '../field-types';
import type { StoredValue } from '../values/coerce';
import type { CodeArray } from './column';
import { approximate, compareExact, type ExactNumber } from '../values/exact-number';

/**
 * The order PostgreSQL gives each type, as a comparator over stored values. Text follows the
 * `en_US.UTF-8` collation CKAN's PostgreSQL uses (engine/collation/glibc-collation.ts), through
 * sort keys computed once per distinct value.
 */

export type Comparator = (a: StoredValue, b: StoredValue) => number;

export class UnsortableTypeError extends Error {}

/**
 * The one text order of Deskstore (sorts, range filters on text, SQL ORDER BY, group-by):
 * keys that compare as plain strings the way PostgreSQL's `en_US.UTF-8` compares the texts.
 */
export const textSortKey = collationKey;

const compareNumbers: Comparator = (a, b) => (a as number) - (b as number);
const compareCodeUnits: Comparator = (a, b) => (a! < b! ? -1 : a! > b! ? 1 : 0);

function compareArrays(element: Comparator): Comparator {
  return (a, b) => {
    const x = JSON.parse(a as string) as StoredValue[];
    const y = JSON.parse(b as string) as StoredValue[];
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      // PostgreSQL: NULL elements sort after non-null ones.
      if (x[i] === null || y[i] === null) {
        if (x[i] !== y[i]) return x[i] === null ? 1 : -1;
        continue;
      }
      const c = element(x[i]!, y[i]!);
      if (c !== 0) return c;
    }
    return x.length - y.length;
  };
}

/**
 * A dictionary as ranking reads it: `size` entries (code 0, NULL, included) and the value of
 * each code. A column's dictionary still in the file's form is ranked through this without
 * becoming an array of values (Column.sortRanks): a million decoded strings or boxed numbers
 * kept for good were most of what a first sort left in memory.
 */
export interface DictionaryReader {
  readonly size: number;
  valueAt(code: number): StoredValue;
}

/**
 * Sorts distinct non-null values (dictionary codes 1..n) and returns each code's rank
 * (1-based, equal values share a rank); code 0, NULL, gets rank 0.
 */
export function rankCodes(
  dictionary: readonly StoredValue[] | DictionaryReader,
  storage: StorageKind,
  elementStorage?: StorageKind,
): Uint32Array {
  const read: DictionaryReader = Array.isArray(dictionary) ? arrayReader(dictionary as readonly StoredValue[]) : (dictionary as DictionaryReader);
  const n = read.size;
  const ranks = new Uint32Array(n);
  if (n <= 1) return ranks;
  if (storage === 'json') throw new UnsortableTypeError('could not identify an ordering operator for type json');
  if (isStoredAsNumber(storage)) {
    const keys = new Float64Array(n - 1);
    for (let c = 1; c < n; c++) keys[c - 1] = read.valueAt(c) as number;
    return rankByDoubles(keys, ranks);
  }
  if (storage === 'exact') return rankExactNumbers(read, ranks);
  if (storage === 'text') return rankTexts(read, ranks);
  const compare = storage === 'array' ? compareArrays(comparatorFor(elementStorage ?? 'text')) : compareCodeUnits;
  const at = (i: number): StoredValue => read.valueAt(i + 1);
  const order = sortIndexesBy((i, j) => compare(at(i), at(j)), n - 1);
  return assignRanks(order, ranks, (i, j) => compare(at(i), at(j)) === 0);
}

/**
 * Ranks of a dictionary of numbers in the columns file's form, one double per code after
 * NULL (`doubles[code - 1]`): number columns, and numeric/int8 ones whose every value is a
 * number (equal doubles are then equal values, so their order is the doubles' order).
 */
export function rankDoubles(doubles: Float64Array): Uint32Array {
  const ranks = new Uint32Array(doubles.length + 1);
  return doubles.length === 0 ? ranks : rankByDoubles(doubles, ranks);
}

function arrayReader(values: readonly StoredValue[]): DictionaryReader {
  return { size: values.length, valueAt: (code) => values[code]! };
}

/** From this many values, doubles are ranked by a radix sort of their bits (`rankByRadix`). */
const RADIX_FROM = 50_000;

/**
 * code → rank from each code's double (`keys[code - 1]`), equal doubles sharing a rank (-0
 * and 0 too). Many values go through a radix sort (`rankByRadix`); a few, or any NaN, through
 * a native sort and a binary search per code.
 */
function rankByDoubles(keys: Float64Array, ranks: Uint32Array): Uint32Array {
  if (keys.length >= RADIX_FROM && !keys.some((k) => Number.isNaN(k))) return rankByRadix(keys, ranks);
  return rankBySearch(keys, ranks);
}

/**
 * Each double's bits made an unsigned 64-bit key that orders as the doubles do (negative
 * ones' bits flipped, positive ones' sign bit set), sorted with their indexes four 16-bit
 * digits at a time, least significant first (stable). A million values: one pass per digit
 * instead of a binary search per code (1.5 s of a first sort's 2.5 s at load 11).
 */
function rankByRadix(keys: Float64Array, ranks: Uint32Array): Uint32Array {
  const n = keys.length;
  const bits = new Uint32Array(keys.buffer, keys.byteOffset, n * 2); // little-endian: low word first
  const high = new Uint32Array(n);
  const low = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const h = bits[2 * i + 1]!;
    const l = bits[2 * i]!;
    const negative = h >>> 31 === 1;
    high[i] = negative ? ~h >>> 0 : (h | 0x8000_0000) >>> 0;
    low[i] = negative ? ~l >>> 0 : l;
  }
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let spare = new Uint32Array(n);
  const counts = new Uint32Array(65_537);
  for (const [word, shift] of [
    [low, 0],
    [low, 16],
    [high, 0],
    [high, 16],
  ] as const) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[((word[i]! >>> shift) & 0xffff) + 1]!++;
    if (counts[((word[0]! >>> shift) & 0xffff) + 1] === n) continue; // one digit for all: nothing moves
    for (let d = 1; d < counts.length; d++) counts[d]! += counts[d - 1]!;
    for (let k = 0; k < n; k++) {
      const i = order[k]!;
      spare[counts[(word[i]! >>> shift) & 0xffff]!++] = i;
    }
    [order, spare] = [spare, order];
  }
  let rank = 0;
  for (let k = 0; k < n; k++) {
    const i = order[k]!;
    if (k === 0 || keys[i] !== keys[order[k - 1]!]) rank++;
    ranks[i + 1] = rank;
  }
  return ranks;
}

/** A native sort of the numbers, then each code's rank by binary search. */
function rankBySearch(keys: Float64Array, ranks: Uint32Array): Uint32Array {
  const sorted = Float64Array.from(keys).sort();
  const distinctRank = new Uint32Array(sorted.length);
  for (let i = 0, rank = 0; i < sorted.length; i++) distinctRank[i] = i > 0 && sorted[i] === sorted[i - 1] ? rank : ++rank;
  for (let c = 1; c <= keys.length; c++) {
    const v = keys[c - 1]!;
    let lo = 0,
      hi = sorted.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid]! < v) lo = mid + 1;
      else hi = mid;
    }
    ranks[c] = distinctRank[lo]!;
  }
  return ranks;
}

/**
 * Text: sorted by the collation's first level (base letters), which is cheaper than the full
 * key and tells most distinct values apart; only a run of values equal there (case, accents,
 * punctuation apart) is ordered by full keys.
 */
function rankTexts(read: DictionaryReader, ranks: Uint32Array): Uint32Array {
  const n = read.size;
  const text = (i: number): string => read.valueAt(i + 1) as string;
  const primary = new Array<string>(n - 1);
  for (let c = 1; c < n; c++) primary[c - 1] = collationPrimaryKey(text(c - 1));
  const order = sortIndexesBy((i, j) => (primary[i]! < primary[j]! ? -1 : primary[i]! > primary[j]! ? 1 : 0), n - 1);
  for (let k = 0; k < order.length;) {
    let end = k + 1;
    while (end < order.length && primary[order[end]!] === primary[order[k]!]) end++;
    if (end - k > 1) {
      const run = order.subarray(k, end);
      const full = new Map<number, string>();
      for (const i of run) full.set(i, collationKey(text(i)));
      run.sort((i, j) => {
        const x = full.get(i)!;
        const y = full.get(j)!;
        return x < y ? -1 : x > y ? 1 : 0;
      });
    }
    k = end;
  }
  return assignRanks(order, ranks, (i, j) => primary[i] === primary[j] && text(i) === text(j));
}

/**
 * numeric/int8 (values/exact-number.ts): ranked by their doubles, which order exact values
 * correctly except where two different values share a double (more than ~15 significant
 * digits). Equal doubles of equal values (`2.5`, `2.50`) rightly share a rank; only when some
 * double stands for two different values is the dictionary sorted with the exact comparator.
 */
function rankExactNumbers(read: DictionaryReader, ranks: Uint32Array): Uint32Array {
  const n = read.size;
  const value = (code: number): ExactNumber => read.valueAt(code) as ExactNumber;
  const keys = new Float64Array(n - 1);
  for (let c = 1; c < n; c++) keys[c - 1] = approximate(value(c));
  rankByDoubles(keys, ranks);
  const firstOfRank = new Int32Array(n).fill(-1);
  let ambiguous = false;
  for (let c = 1; c < n && !ambiguous; c++) {
    const first = firstOfRank[ranks[c]!]!;
    if (first < 0) firstOfRank[ranks[c]!] = c;
    else if (value(first) !== value(c) && compareExact(value(first), value(c)) !== 0) ambiguous = true;
  }
  if (!ambiguous) return ranks;
  const order = sortIndexesBy((i, j) => compareExact(value(i + 1), value(j + 1)), n - 1);
  return assignRanks(order, ranks, (i, j) => compareExact(value(i + 1), value(j + 1)) === 0);
}

function comparatorFor(storage: StorageKind): Comparator {
  if (isStoredAsNumber(storage)) return compareNumbers;
  if (storage === 'exact') return (a, b) => compareExact(a as ExactNumber, b as ExactNumber);
  if (storage === 'text') return (a, b) => compareCollated(a as string, b as string);
  return compareCodeUnits;
}

function sortIndexesBy(compare: (i: number, j: number) => number, count: number): Uint32Array {
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  return order.sort(compare);
}

/** order holds dictionary indexes minus one, sorted; same() tells equal neighbours. */
function assignRanks(order: Uint32Array, ranks: Uint32Array, same: (i: number, j: number) => boolean): Uint32Array {
  let rank = 0;
  for (let k = 0; k < order.length; k++) {
    if (k === 0 || !same(order[k - 1]!, order[k]!)) rank++;
    ranks[order[k]! + 1] = rank;
  }
  return ranks;
}

/**
 * Every row id of a column (1 .. codes.length - 1) in its ascending order: by rank, NULLs
 * (rank 0) first, equal ranks by row id (`rows`), and where each rank's rows start
 * (`starts[rank]`, `starts[maxRank + 1]` = the row count). Built once per table version
 * (TableStore.rowOrder), it turns a sort of most of a table into one pass over it
 * (`rowsInOrder`) instead of a counting sort of a million keys per query.
 */
export interface RowOrder {
  readonly rows: Uint32Array;
  readonly starts: Uint32Array;
}

export function rowsByRank(codes: CodeArray, ranks: Uint32Array): RowOrder {
  let maxRank = 0;
  for (let c = 0; c < ranks.length; c++) if (ranks[c]! > maxRank) maxRank = ranks[c]!;
  const starts = new Uint32Array(maxRank + 2);
  for (let r = 1; r < codes.length; r++) starts[ranks[codes[r]!]! + 1]!++;
  for (let k = 1; k < starts.length; k++) starts[k]! += starts[k - 1]!;
  const next = starts.slice(0, maxRank + 1);
  const rows = new Uint32Array(codes.length - 1);
  for (let r = 1; r < codes.length; r++) rows[next[ranks[codes[r]!]!]!++] = r;
  return { rows, starts };
}

/**
 * The rows marked in `member` (indexed by row id; `count` of them), in a column's order:
 * ascending or descending by rank, NULLs first or last, equal ranks by row id ascending, as a
 * stable sort of ascending row ids gives them.
 */
export function rowsInOrder(order: RowOrder, member: Uint8Array, count: number, descending: boolean, nullsFirst: boolean): Uint32Array {
  const { rows, starts } = order;
  const out = new Uint32Array(count);
  let n = 0;
  const nullsEnd = starts[1]!;
  if (nullsFirst) for (let k = 0; k < nullsEnd; k++) if (member[rows[k]!] === 1) out[n++] = rows[k]!;
  if (!descending) {
    for (let k = nullsEnd; k < rows.length; k++) if (member[rows[k]!] === 1) out[n++] = rows[k]!;
  } else {
    for (let rank = starts.length - 2; rank >= 1; rank--) {
      const end = starts[rank + 1]!;
      for (let k = starts[rank]!; k < end; k++) if (member[rows[k]!] === 1) out[n++] = rows[k]!;
    }
  }
  if (!nullsFirst) for (let k = 0; k < nullsEnd; k++) if (member[rows[k]!] === 1) out[n++] = rows[k]!;
  if (n !== count) throw new Error(`row order holds ${n} of the ${count} rows to sort`);
  return out;
}
