import { describe, expect, it } from 'vitest';
import { PostingsBuilder } from '../../../src/main/engine/fts/postings-builder';
import { rankRows } from '../../../src/main/engine/fts/rank';
import { evaluate } from '../../../src/main/engine/fts/query-eval';
import { documentLexemes } from '../../../src/main/engine/fts/text-search-config';
import { parseTsQuery, plainToTsQuery } from '../../../src/main/engine/fts/tsquery';
import type { InvertedIndex } from '../../../src/main/engine/fts/inverted-index';
import { universeOf } from './fts-test-helpers';

function indexOf(texts: string[]): InvertedIndex {
  const builder = new PostingsBuilder();
  texts.forEach((text, i) => builder.addRowLexemes(i + 1, documentLexemes(text, 'english')));
  return builder.finish();
}
const rows = (...ids: number[]): Uint32Array => Uint32Array.from(ids);

describe('rankRows', () => {
  it('orders the conformance case q-rank-default-order: more mentions first', () => {
    const index = indexOf(['Brazil Italy', 'Brazil Brazil']);
    const query = plainToTsQuery('Brazil', 'english');
    const matched = evaluate(query, index, universeOf([1, 2]));
    const ranks = rankRows(query, index, matched);
    expect(Array.from(matched)).toEqual([1, 2]);
    expect(ranks[1]!).toBeGreaterThan(ranks[0]!);
  });

  it('reproduces ts_rank(..., 32) values of PostgreSQL for unlabelled lexemes', () => {
    const index = indexOf(['cat', 'cat cat', 'cats catalog', 'cat dog', 'dog']);
    // ts_rank(to_tsvector('cat'), 'cat') = 0.0607927; normalisation 32: r / (r + 1).
    const one = 0.0607927 / 1.0607927;
    const ranks = rankRows(parseTsQuery('cat', 'english'), index, rows(1, 2, 4, 5));
    expect(ranks[0]).toBeCloseTo(one, 6);
    expect(ranks[1]).toBeCloseTo(0.0759909 / 1.0759909, 6); // tf 2: 0.1 * (1 + 1/4) / ζ(2)
    expect(ranks[2]).toBeCloseTo(one, 6);
    expect(ranks[3]).toBe(0);
    // Prefix operands add up every lexeme they match: 'cat' and 'catalog' (stem of cats is cat).
    expect(rankRows(parseTsQuery('cat:*', 'english'), index, rows(3))[0]).toBeCloseTo(0.1215854 / 1.1215854, 5);
    // Scores are divided by the number of distinct operands.
    expect(rankRows(parseTsQuery('cat & dog', 'english'), index, rows(4))[0]).toBeCloseTo(one, 6);
    expect(rankRows(parseTsQuery('cat & owl', 'english'), index, rows(1))[0]).toBeCloseTo(0.0607927 / 2 / (1 + 0.0607927 / 2), 6);
  });

  it('is strictly increasing in term frequency up to the 255 cap, and stays in (0, 1)', () => {
    const texts = Array.from({ length: 300 }, (_, i) => Array.from({ length: i + 1 }, () => 'brazil').join(' '));
    const index = indexOf(texts);
    const ranks = rankRows(
      plainToTsQuery('brazil', 'english'),
      index,
      Uint32Array.from({ length: 300 }, (_, i) => i + 1),
    );
    for (let i = 0; i < 300; i++) {
      expect(ranks[i]!).toBeGreaterThan(0);
      expect(ranks[i]!).toBeLessThan(1);
      if (i > 0 && i < 255) expect(ranks[i]!).toBeGreaterThan(ranks[i - 1]!);
      if (i >= 255) expect(ranks[i]).toBe(ranks[254]);
    }
  });

  it('accepts row ids in any order and with duplicates', () => {
    const index = indexOf(['cat', 'cat cat', 'dog']);
    const query = plainToTsQuery('cat', 'english');
    const sorted = rankRows(query, index, rows(1, 2, 3));
    const shuffled = rankRows(query, index, rows(3, 1, 2, 1));
    expect(Array.from(shuffled)).toEqual([sorted[2], sorted[0], sorted[1], sorted[0]]);
  });

  it('gives 0 for an empty query or no rows', () => {
    const index = indexOf(['cat']);
    expect(Array.from(rankRows({ type: 'empty' }, index, rows(1)))).toEqual([0]);
    expect(rankRows(plainToTsQuery('cat', 'english'), index, rows())).toHaveLength(0);
  });
});
