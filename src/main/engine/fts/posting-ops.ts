// Set operations on ascending Uint32Array row-id lists. Results are fresh arrays unless noted
// (an input may be returned as-is when it already is the answer; callers never mutate them).

export const EMPTY_ROWS = new Uint32Array(0);

/** First index >= from with list[index] >= value (exponential then binary search). */
export function gallop(list: Uint32Array, from: number, value: number): number {
  const n = list.length;
  if (from >= n || list[from]! >= value) return from;
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < n && list[hi]! < value) {
    lo = hi;
    step *= 2;
    hi = lo + step;
  }
  if (hi > n) hi = n;
  // list[lo] < value; find the first >= value in (lo, hi]
  lo++;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function intersect(a: Uint32Array, b: Uint32Array): Uint32Array {
  if (a.length > b.length) [a, b] = [b, a];
  if (a.length === 0) return EMPTY_ROWS;
  const out = new Uint32Array(a.length);
  let k = 0;
  if (b.length > a.length * 16) {
    // Very different sizes: gallop through the long list.
    let j = 0;
    for (let i = 0; i < a.length && j < b.length; i++) {
      const v = a[i]!;
      j = gallop(b, j, v);
      if (j < b.length && b[j] === v) out[k++] = v;
    }
  } else {
    let i = 0,
      j = 0;
    while (i < a.length && j < b.length) {
      const x = a[i]!,
        y = b[j]!;
      if (x === y) {
        out[k++] = x;
        i++;
        j++;
      } else if (x < y) i++;
      else j++;
    }
  }
  return k === out.length ? out : out.slice(0, k);
}

/** AND of many lists, shortest first so the running result shrinks as fast as possible. */
export function intersectMany(lists: Uint32Array[]): Uint32Array {
  if (lists.length === 0) return EMPTY_ROWS;
  const sorted = [...lists].sort((x, y) => x.length - y.length);
  let acc = sorted[0]!;
  for (let i = 1; i < sorted.length && acc.length > 0; i++) acc = intersect(acc, sorted[i]!);
  return acc;
}

export function union(a: Uint32Array, b: Uint32Array): Uint32Array {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out = new Uint32Array(a.length + b.length);
  let i = 0,
    j = 0,
    k = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!,
      y = b[j]!;
    if (x === y) {
      out[k++] = x;
      i++;
      j++;
    } else if (x < y) {
      out[k++] = x;
      i++;
    } else {
      out[k++] = y;
      j++;
    }
  }
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return k === out.length ? out : out.slice(0, k);
}

/** OR of many lists: pairwise merging for a few lists, a bitmap when there are many
 * (a prefix like `a:*` can expand to hundreds of thousands of lexemes). */
export function unionMany(lists: Uint32Array[]): Uint32Array {
  const nonEmpty = lists.filter((l) => l.length > 0);
  if (nonEmpty.length === 0) return EMPTY_ROWS;
  if (nonEmpty.length === 1) return nonEmpty[0]!;
  if (nonEmpty.length <= 8) {
    let level = nonEmpty;
    while (level.length > 1) {
      const next: Uint32Array[] = [];
      for (let i = 0; i < level.length; i += 2) next.push(i + 1 < level.length ? union(level[i]!, level[i + 1]!) : level[i]!);
      level = next;
    }
    return level[0]!;
  }
  let max = 0;
  let total = 0;
  for (const l of nonEmpty) {
    const last = l[l.length - 1]!;
    if (last > max) max = last;
    total += l.length;
  }
  const bits = new Uint32Array((max >>> 5) + 1);
  for (const l of nonEmpty) {
    for (let i = 0; i < l.length; i++) {
      const v = l[i]!;
      bits[v >>> 5] = bits[v >>> 5]! | (1 << (v & 31));
    }
  }
  return bitsToRows(bits, Math.min(total, max + 1));
}

/** Ascending row ids of the set bits. */
export function bitsToRows(bits: Uint32Array, capacity: number): Uint32Array {
  const out = new Uint32Array(capacity);
  let k = 0;
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w]!;
    while (word !== 0) {
      const low = word & -word;
      out[k++] = (w << 5) + (31 - Math.clz32(low));
      word ^= low;
    }
  }
  return k === out.length ? out : out.slice(0, k);
}

/** Rows of `a` not in `b`. */
export function difference(a: Uint32Array, b: Uint32Array): Uint32Array {
  if (a.length === 0 || b.length === 0) return a;
  const out = new Uint32Array(a.length);
  let k = 0;
  let j = 0;
  const galloping = b.length > a.length * 16;
  for (let i = 0; i < a.length; i++) {
    const v = a[i]!;
    if (galloping) j = gallop(b, j, v);
    else while (j < b.length && b[j]! < v) j++;
    if (j >= b.length || b[j] !== v) out[k++] = v;
  }
  return k === out.length ? out : out.slice(0, k);
}

/** Ascending distinct row ids of an unordered list (e.g. a prefix slice spanning lexemes). */
export function distinctSorted(rows: Uint32Array): Uint32Array {
  if (rows.length === 0) return EMPTY_ROWS;
  if (rows.length < 64) {
    const sorted = rows.slice().sort();
    let k = 1;
    for (let i = 1; i < sorted.length; i++) if (sorted[i] !== sorted[k - 1]) sorted[k++] = sorted[i]!;
    return sorted.subarray(0, k).slice();
  }
  let max = 0;
  for (let i = 0; i < rows.length; i++) if (rows[i]! > max) max = rows[i]!;
  const bits = new Uint32Array((max >>> 5) + 1);
  for (let i = 0; i < rows.length; i++) {
    const v = rows[i]!;
    bits[v >>> 5] = bits[v >>> 5]! | (1 << (v & 31));
  }
  return bitsToRows(bits, Math.min(rows.length, max + 1));
}
