import { describe, expect, it } from 'vitest';
import { topByScore } from '../../../src/main/engine/search/top-scores';
import { lcg } from '../../helpers/random';

/**
 * A q's first page: the k best rows by score, ties in `_id` order (search/top-scores.ts keeps
 * them in a heap in one pass instead of a quickselect over a copy). The answer must be the
 * first k of a full sort, whatever the ties.
 */
function bySorting(rowIds: Uint32Array, scores: Float64Array, k: number): number[] {
  const order = Array.from(rowIds.keys()).sort((a, b) => scores[b]! - scores[a]! || rowIds[a]! - rowIds[b]!);
  return order.slice(0, Math.max(0, k)).map((i) => rowIds[i]!);
}

describe('topByScore', () => {
  it.each([
    [1000, 100, 4, 1],
    [1000, 1, 3, 2],
    [50, 100, 5, 3],
    [5000, 100, 1, 4],
    [5000, 2500, 1000, 5],
    [300, 300, 2, 6],
    [10, 0, 3, 7],
    [0, 10, 3, 8],
  ])('%i rows, k = %i, %i distinct scores (seed %i): the first k of a full sort', (n, k, distinct, seed) => {
    const rnd = lcg(seed);
    const rowIds = new Uint32Array(n);
    const scores = new Float64Array(n);
    let row = 0;
    for (let i = 0; i < n; i++) {
      row += 1 + Math.floor(rnd() * 5); // ascending _ids with gaps, as a q's matching rows
      rowIds[i] = row;
      scores[i] = Math.fround(Math.floor(rnd() * distinct) / (distinct + 1));
    }
    expect(Array.from(topByScore(rowIds, scores, k))).toEqual(bySorting(rowIds, scores, k));
  });
});
