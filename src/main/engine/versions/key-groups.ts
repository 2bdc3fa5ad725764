/**
 * Matching rows of two versions by key, in linear time over typed arrays. A key of several
 * columns is turned into one integer per row by numbering its distinct combinations (two
 * counting sorts per added column, no strings, no hashing), then rows with the same integer
 * pair up, the n-th of the older version with the n-th of the newer, in `_id` order.
 */

/** Per shared-coded column (shared-codes.ts): its size and each version's code per `_id`. */
export interface KeyColumnCodes {
  readonly size: number;
  readonly before: Uint32Array;
  readonly after: Uint32Array;
}

/** A key per live row: `before[i]` for the older version's i-th live row, `after[j]` likewise. */
export interface RowKeys {
  readonly before: Uint32Array;
  readonly after: Uint32Array;
  readonly size: number;
}

export function pairKeys(columns: readonly KeyColumnCodes[], liveBefore: Uint32Array, liveAfter: Uint32Array): RowKeys {
  const nb = liveBefore.length;
  const gather = (c: KeyColumnCodes): Uint32Array => {
    const out = new Uint32Array(nb + liveAfter.length);
    for (let i = 0; i < nb; i++) out[i] = c.before[liveBefore[i]!]!;
    for (let j = 0; j < liveAfter.length; j++) out[nb + j] = c.after[liveAfter[j]!]!;
    return out;
  };
  let keys: Uint32Array = new Uint32Array(nb + liveAfter.length);
  let size = 1;
  columns.forEach((column, i) => {
    const codes = gather(column);
    if (i === 0) {
      keys = codes;
      size = column.size;
    } else {
      ({ keys, size } = combine(keys, size, codes, column.size));
    }
  });
  return { before: keys.subarray(0, nb), after: keys.subarray(nb), size };
}

/** Numbers the distinct (k1, k2) pairs densely: sorted by k2, then stably by k1, then counted. */
function combine(k1: Uint32Array, r1: number, k2: Uint32Array, r2: number): { keys: Uint32Array; size: number } {
  const n = k1.length;
  const start = new Uint32Array(n);
  for (let i = 0; i < n; i++) start[i] = i;
  const order = countingSort(k1, r1, countingSort(k2, r2, start));
  const out = new Uint32Array(n);
  let id = -1;
  let p1 = -1;
  let p2 = -1;
  for (let i = 0; i < n; i++) {
    const row = order[i]!;
    if (k1[row] !== p1 || k2[row] !== p2) {
      id++;
      p1 = k1[row]!;
      p2 = k2[row]!;
    }
    out[row] = id;
  }
  return { keys: out, size: id + 1 };
}

/** `input` (indexes into `keys`) reordered by key, stable; keys are below `range`. */
function countingSort(keys: Uint32Array, range: number, input: Uint32Array): Uint32Array {
  const starts = new Uint32Array(range + 1);
  for (const i of input) starts[keys[i]! + 1]!++;
  for (let k = 1; k <= range; k++) starts[k]! += starts[k - 1]!;
  const out = new Uint32Array(input.length);
  for (const i of input) out[starts[keys[i]!]!++] = i;
  return out;
}

export interface RowGroups {
  /** Matched pairs (`_id` before, `_id` after), in the newer version's `_id` order. */
  readonly pairsBefore: Uint32Array;
  readonly pairsAfter: Uint32Array;
  readonly removed: Uint32Array;
  readonly added: Uint32Array;
}

export function groupRows(keys: RowKeys, liveBefore: Uint32Array, liveAfter: Uint32Array): RowGroups {
  const starts = new Uint32Array(keys.size + 1);
  for (const k of keys.after) starts[k + 1]!++;
  for (let k = 1; k <= keys.size; k++) starts[k]! += starts[k - 1]!;
  const byKey = new Uint32Array(liveAfter.length);
  const next = starts.slice();
  for (let j = 0; j < liveAfter.length; j++) byKey[next[keys.after[j]!]!++] = j;
  next.set(starts);
  // partner[j]: the older version's `_id` paired with the newer one's j-th live row (0: none).
  const partner = new Uint32Array(liveAfter.length);
  const removed: number[] = [];
  for (let i = 0; i < liveBefore.length; i++) {
    const k = keys.before[i]!;
    if (next[k]! < starts[k + 1]!) partner[byKey[next[k]!++]!] = liveBefore[i]!;
    else removed.push(liveBefore[i]!);
  }
  const matched = liveBefore.length - removed.length;
  const added = new Uint32Array(liveAfter.length - matched);
  const pairsBefore = new Uint32Array(matched);
  const pairsAfter = new Uint32Array(matched);
  let a = 0;
  let p = 0;
  for (let j = 0; j < liveAfter.length; j++) {
    if (partner[j] === 0) added[a++] = liveAfter[j]!;
    else {
      pairsBefore[p] = partner[j]!;
      pairsAfter[p++] = liveAfter[j]!;
    }
  }
  return { pairsBefore, pairsAfter, removed: Uint32Array.from(removed), added };
}
