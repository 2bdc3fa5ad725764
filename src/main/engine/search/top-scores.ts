/**
 * The first `k` rows by score, highest first, ties in `_id` order, without sorting all of
 * them: a q matching half a million rows only shows 100. One pass keeps the best `k` seen so
 * far in a heap whose root is the worst of them; since rows arrive in `_id` order, a later
 * row displaces the root only with a higher score (an equal one comes later, so ranks after
 * it). Most rows are turned away by one comparison, and nothing the size of the rows is
 * allocated (the quickselect this replaced copied every score: a restarted server's first
 * `q` spent 44–57 ms there on half a million rows).
 */
export function topByScore(rowIds: Uint32Array, scores: Float64Array, k: number): Uint32Array {
  const n = rowIds.length;
  if (k <= 0 || n === 0) return new Uint32Array(0);
  const take = Math.min(k, n);
  // heap[0] is the worst kept: the lowest score, and of equal scores the latest row.
  const heap = new Uint32Array(take);
  let size = 0;
  const worse = (a: number, b: number): boolean => scores[a]! < scores[b]! || (scores[a] === scores[b] && a > b);
  for (let i = 0; i < n; i++) {
    if (size < take) {
      // Sift up.
      let at = size++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!worse(i, heap[parent]!)) break;
        heap[at] = heap[parent]!;
        at = parent;
      }
      heap[at] = i;
    } else if (scores[i]! > scores[heap[0]!]!) {
      // Replace the root and sift down.
      let at = 0;
      for (;;) {
        const left = 2 * at + 1;
        if (left >= size) break;
        const right = left + 1;
        const child = right < size && worse(heap[right]!, heap[left]!) ? right : left;
        if (!worse(heap[child]!, i)) break;
        heap[at] = heap[child]!;
        at = child;
      }
      heap[at] = i;
    }
  }
  const chosen = Array.from(heap.subarray(0, size));
  chosen.sort((a, b) => scores[b]! - scores[a]! || a - b);
  const out = new Uint32Array(chosen.length);
  for (let i = 0; i < chosen.length; i++) out[i] = rowIds[chosen[i]!]!;
  return out;
}
