import { describe, expect, it } from 'vitest';
import { PostingsBuilder } from '../../../src/main/engine/fts/postings-builder';
import { evaluate, evaluateQuery } from '../../../src/main/engine/fts/query-eval';
import { matchesPhrase } from '../../../src/main/engine/fts/phrase-match';
import { documentLexemes, tokenizeDocument } from '../../../src/main/engine/fts/text-search-config';
import { parseTsQuery, plainToTsQuery, queryHasPhrase, tsQueryToString, type TsQuery } from '../../../src/main/engine/fts/tsquery';
import type { InvertedIndex } from '../../../src/main/engine/fts/inverted-index';
import { naiveMatch, randomDocument, randomQuery, seededRandom, universeOf } from './fts-test-helpers';

interface Corpus {
  index: InvertedIndex;
  docs: Map<number, string[]>;
}

function buildCorpus(seed: number, size: number): Corpus {
  const rnd = seededRandom(seed);
  const builder = new PostingsBuilder();
  const docs = new Map<number, string[]>();
  let rowId = 0;
  for (let i = 0; i < size; i++) {
    rowId += 1 + rnd(3); // gaps, like deleted rows
    const doc = randomDocument(rnd);
    docs.set(rowId, doc);
    builder.addRowLexemes(rowId, doc);
  }
  return { index: builder.finish(), docs };
}

/** What the engine does: evaluate, then confirm the rows flagged for verification. */
function search(query: TsQuery, corpus: Corpus): number[] {
  const { candidates, verify } = evaluateQuery(query, corpus.index, universeOf(corpus.docs.keys()));
  const toVerify = new Set(verify);
  return Array.from(candidates).filter((row) => !toVerify.has(row) || matchesPhrase(query, corpus.docs.get(row)!));
}

describe('evaluate against a brute-force oracle', () => {
  it('matches naive evaluation for random AND/OR/NOT/prefix queries', () => {
    const corpus = buildCorpus(1, 600);
    const rnd = seededRandom(99);
    for (let k = 0; k < 1500; k++) {
      const query = randomQuery(rnd, 3, false);
      const expected = [...corpus.docs].filter(([, doc]) => naiveMatch(query, doc)).map(([row]) => row);
      const { candidates, verify } = evaluateQuery(query, corpus.index, universeOf(corpus.docs.keys()));
      expect(verify.length, tsQueryToString(query)).toBe(0);
      expect(Array.from(candidates), tsQueryToString(query)).toEqual(expected);
      // The per-document matcher agrees with the naive one too.
      const byMatcher = [...corpus.docs].filter(([, doc]) => matchesPhrase(query, doc)).map(([row]) => row);
      expect(byMatcher).toEqual(expected);
    }
  });

  it('finds exactly the matching rows for random queries with phrases (after verification)', () => {
    const corpus = buildCorpus(2, 500);
    const rnd = seededRandom(7);
    let phraseQueries = 0;
    for (let k = 0; k < 1500; k++) {
      const query = randomQuery(rnd, 3, true);
      if (queryHasPhrase(query)) phraseQueries++;
      const expected = [...corpus.docs].filter(([, doc]) => matchesPhrase(query, doc)).map(([row]) => row);
      expect(search(query, corpus), tsQueryToString(query)).toEqual(expected);
    }
    expect(phraseQueries).toBeGreaterThan(300);
  });

  it('returns sorted fresh arrays and handles empty queries and indexes', () => {
    const corpus = buildCorpus(3, 50);
    const universe = universeOf(corpus.docs.keys());
    expect(evaluate({ type: 'empty' }, corpus.index, universe)).toEqual(new Uint32Array(0));
    const all = evaluate({ type: 'not', item: { type: 'empty' } }, corpus.index, universe);
    expect(Array.from(all)).toEqual([...corpus.docs.keys()]);
    const rows = evaluate({ type: 'term', lexeme: 'cat', prefix: false }, corpus.index, universe);
    rows.fill(0); // must not corrupt the index
    expect(Array.from(evaluate({ type: 'term', lexeme: 'cat', prefix: false }, corpus.index, universe))).not.toContain(0);
    expect(evaluate({ type: 'term', lexeme: 'nothing', prefix: false }, corpus.index, universe)).toHaveLength(0);
  });
});

describe('phrase semantics (TS_phrase_execute)', () => {
  const matches = (doc: string, query: string): boolean => {
    const { lexemes, positions } = tokenizeDocument(doc, 'simple');
    return matchesPhrase(parseTsQuery(query, 'simple'), lexemes, positions);
  };
  it.each([
    ['1 2 3 1', '1 <-> 2', true],
    ['1 2 3 1', '1 <2> 2', false],
    ['1 2 3 1', '1 <-> 3', false],
    ['1 2 3 1', '1 <2> 3', true],
    ['1 2 1 2', '1 <3> 2', true],
    ['1 2 11 3', '1 <-> 3', false],
    ['1 2 11 3', '1:* <-> 3', true],
    ['1 2 3 4', '1 <-> 2 <-> 3', true],
    ['1 2 3 4', '(1 <-> 2) <-> 3', true],
    ['1 2 3 4', '1 <-> (2 <-> 3)', true],
    ['1 2 3 4', '1 <2> (2 <-> 3)', false],
    ['1 2 1 2 3 4', '(1 <-> 2) <-> 3', true],
    ['1 2 1 2 3 4', '1 <-> 2 <-> 3', true],
    ['q x q y', 'q <-> (x & y)', false],
    ['q x', 'q <-> (x | y <-> z)', true],
    ['q y', 'q <-> (x | y <-> z)', false],
    ['q y z', 'q <-> (x | y <-> z)', true],
    ['q y x', 'q <-> (x | y <-> z)', false],
    ['q x y', 'q <-> (x | y <-> z)', true],
    ['q x', '(x | y <-> z) <-> q', false],
    ['x q', '(x | y <-> z) <-> q', true],
    ['x y q', '(x | y <-> z) <-> q', false],
    ['x y z', '(x | y <-> z) <-> q', false],
    ['x y z q', '(x | y <-> z) <-> q', true],
    ['y z q', '(x | y <-> z) <-> q', true],
    ['y y q', '(x | y <-> z) <-> q', false],
    ['y y q', '(!x | y <-> z) <-> q', true],
    ['x y q', '(!x | y <-> z) <-> q', true],
    ['y y q', '(x | y <-> !z) <-> q', true],
    ['a b', 'a <-> !b', false],
    ['a c', 'a <-> !b', true],
    ['b a', '!b <-> a', false],
    ['c a', '!b <-> a', true],
  ])('%j @@ %j is %s', (doc, query, expected) => {
    expect(matches(doc, query)).toBe(expected);
  });

  it('uses real positions: stop words leave gaps in documents and queries', () => {
    const doc = tokenizeDocument('War and Peace', 'english');
    expect(matchesPhrase(parseTsQuery('war <-> peace', 'english'), doc.lexemes, doc.positions)).toBe(false);
    expect(matchesPhrase(parseTsQuery('war <2> peace', 'english'), doc.lexemes, doc.positions)).toBe(true);
    expect(matchesPhrase(parseTsQuery("'war and peace'", 'english'), doc.lexemes, doc.positions)).toBe(true);
    expect(
      matchesPhrase(
        parseTsQuery('war-and-peace', 'english'),
        documentLexemes('war-and-peace', 'english'),
        tokenizeDocument('war-and-peace', 'english').positions,
      ),
    ).toBe(true);
    // Without positions the array index is used, which closes the gap.
    expect(matchesPhrase(parseTsQuery('war <-> peace', 'english'), doc.lexemes)).toBe(true);
  });

  it('flags only phrase candidates for verification', () => {
    const builder = new PostingsBuilder();
    const texts = ['fatal error', 'error is not fatal', 'fatal fatal error', 'warning'];
    texts.forEach((text, i) => builder.addRowLexemes(i + 1, documentLexemes(text, 'english')));
    const index = builder.finish();
    const universe = universeOf([1, 2, 3, 4]);
    const query = parseTsQuery('fatal <-> error', 'english');
    const { candidates, verify } = evaluateQuery(query, index, universe);
    expect(Array.from(candidates)).toEqual([1, 2, 3]);
    expect(Array.from(verify)).toEqual([1, 2, 3]);
    const confirmed = Array.from(candidates).filter((row) => {
      const doc = tokenizeDocument(texts[row - 1]!, 'english');
      return matchesPhrase(query, doc.lexemes, doc.positions);
    });
    expect(confirmed).toEqual([1, 3]);
    // NOT of a phrase: rows without candidates are sure, candidates still need checking.
    const negated = evaluateQuery({ type: 'not', item: query }, index, universe);
    expect(Array.from(negated.candidates)).toEqual([1, 2, 3, 4]);
    expect(Array.from(negated.verify)).toEqual([1, 2, 3]);
    const plain = evaluateQuery(plainToTsQuery('fatal error', 'english'), index, universe);
    expect(Array.from(plain.candidates)).toEqual([1, 2, 3]);
    expect(plain.verify).toHaveLength(0);
  });
});
