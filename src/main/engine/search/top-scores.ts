/**
 * The first `k` rows by score, highest first, ties in `_id` order, without sorting all of
 * them: a q matching half a million rows only shows 100. Quickselect finds the k-th score,
 * then only the rows at or above it are sorted.
 */
export function topByScore(rowIds: Uint32Array, scores: Float64Array, k: number): Uint32Array {
  const n = rowIds.length;
  if (k <= 0 || n === 0) return new Uint32Array(0);
  const take = Math.min(k, n);
  const threshold = kthLargest(scores, take);
  const chosen: number[] = [];
  for (let i = 0; i < n; i++) if (scores[i]! > threshold) chosen.push(i);
  // Rows scoring exactly the threshold fill the rest, lowest `_id` first (input is ascending).
  for (let i = 0; i < n && chosen.length < take; i++) if (scores[i] === threshold) chosen.push(i);
  chosen.sort((a, b) => scores[b]! - scores[a]! || a - b);
  const out = new Uint32Array(chosen.length);
  for (let i = 0; i < chosen.length; i++) out[i] = rowIds[chosen[i]!]!;
  return out;
}

/** The k-th largest value (1-based) of `values`, by quickselect on a copy. */
function kthLargest(values: Float64Array, k: number): number {
  const a = Float64Array.from(values);
  let lo = 0;
  let hi = a.length - 1;
  const target = a.length - k; // k-th largest = (n-k)-th smallest, 0-based
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else return a[target]!;
  }
  return a[target]!;
}
