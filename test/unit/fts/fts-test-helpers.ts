// Shared helpers for the full-text tests: a seeded random generator, random documents and
// queries, and a naive per-document evaluator used as the oracle.
import { expect } from 'vitest';
import type { InvertedIndex } from '../../../src/main/engine/fts/inverted-index';
import type { TsQuery } from '../../../src/main/engine/fts/tsquery';
import type { RowUniverse } from '../../../src/main/engine/fts/text-index-reader';

export function seededRandom(seed: number): (n: number) => number {
  let state = seed >>> 0 || 1;
  return (n: number): number => {
    // xorshift32: good enough spread for test data, reproducible.
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state % n;
  };
}

/** Vocabulary with shared prefixes so prefix queries select several lexemes. */
export const VOCABULARY = [
  'cat',
  'cats',
  'catalog',
  'dog',
  'dogma',
  'do',
  'fox',
  'foxes',
  'owl',
  'roma',
  'romagna',
  'città',
  'cittadino',
  'emilia',
  'x1',
  'x2',
  'x10',
  'zebra',
  'zeta',
  'ant',
];
export const PREFIXES = ['ca', 'cat', 'do', 'fo', 'rom', 'citt', 'x1', 'z', 'q', 'an'];

export function randomDocument(rnd: (n: number) => number, maxLen = 8): string[] {
  const len = rnd(maxLen + 1);
  return Array.from({ length: len }, () => VOCABULARY[rnd(VOCABULARY.length)]!);
}

export function randomQuery(rnd: (n: number) => number, depth: number, allowPhrase: boolean): TsQuery {
  const pick = rnd(depth <= 0 ? 3 : allowPhrase ? 10 : 9);
  if (pick <= 1 || depth <= 0) {
    return rnd(4) === 0
      ? { type: 'term', lexeme: PREFIXES[rnd(PREFIXES.length)]!, prefix: true }
      : { type: 'term', lexeme: VOCABULARY[rnd(VOCABULARY.length)]!, prefix: false };
  }
  if (pick === 2) return rnd(8) === 0 ? { type: 'empty' } : randomQuery(rnd, 0, allowPhrase);
  if (pick <= 4) return { type: 'not', item: randomQuery(rnd, depth - 1, allowPhrase) };
  const items = Array.from({ length: 2 + rnd(2) }, () => randomQuery(rnd, depth - 1, allowPhrase));
  if (pick <= 6) return { type: 'and', items };
  if (pick <= 8) return { type: 'or', items };
  return { type: 'phrase', items, distance: rnd(3) };
}

/** Boolean evaluation on one document, written independently of the library. */
export function naiveMatch(q: TsQuery, doc: readonly string[]): boolean {
  switch (q.type) {
    case 'empty':
      return false;
    case 'term':
      return doc.some((w) => (q.prefix ? w.startsWith(q.lexeme) : w === q.lexeme));
    case 'not':
      return !naiveMatch(q.item, doc);
    case 'and':
      return q.items.every((i) => naiveMatch(i, doc));
    case 'or':
      return q.items.some((i) => naiveMatch(i, doc));
    case 'phrase':
      throw new Error('naiveMatch does not do phrases');
  }
}

export function universeOf(rows: Iterable<number>): RowUniverse {
  const sorted = Uint32Array.from(rows).sort();
  return { liveRowIds: () => sorted };
}

/** Two indexes are the same: every term, offset, row and frequency. */
export function expectSameIndex(actual: InvertedIndex, expected: InvertedIndex): void {
  expect(actual.termCount).toBe(expected.termCount);
  expect(Array.from(actual.termBytes)).toEqual(Array.from(expected.termBytes));
  expect(Array.from(actual.termOffsets)).toEqual(Array.from(expected.termOffsets));
  expect(Array.from(actual.offsets)).toEqual(Array.from(expected.offsets));
  expect(Array.from(actual.rowIds)).toEqual(Array.from(expected.rowIds));
  expect(Array.from(actual.tfs)).toEqual(Array.from(expected.tfs));
}
