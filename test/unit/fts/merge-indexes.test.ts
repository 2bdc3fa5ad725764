// mergeDisjointIndexes: the index of rows 1..m merged with the index of rows m+1..n must be
// byte for byte the index of rows 1..n, and buildTextIndex over row ranges must fit with it.
import { describe, expect, it } from 'vitest';
import { Column } from '../../../src/main/engine/column-store/column';
import { TableStore } from '../../../src/main/engine/column-store/table-store';
import { fieldTypeOf } from '../../../src/main/engine/field-types';
import { InvertedIndex } from '../../../src/main/engine/fts/inverted-index';
import { compareUtf8, mergeDisjointIndexes } from '../../../src/main/engine/fts/merge-indexes';
import { PostingsBuilder } from '../../../src/main/engine/fts/postings-builder';
import { TEXT_SEARCH_LANGUAGES } from '../../../src/main/engine/fts/text-search-config';
import { buildTextIndex } from '../../../src/main/engine/text-index/build-text-index';
import type { StoredValue } from '../../../src/main/engine/values/coerce';
import { expectSameIndex, seededRandom } from './fts-test-helpers';

// Characters whose UTF-8 order and UTF-16 (JS string) order disagree: astral characters
// (surrogate pairs, 0xD800..) sort before BMP characters from 0xE000 up in JS.
const CHARS = ['a', 'b', 'z', 'A', '0', '9', 'à', 'è', 'ß', '€', '\ue000', '\uffee', '\uffff', '😀', '𝐀', '\u{10ffff}', '東', 'я'];

function randomWord(rnd: (n: number) => number, alphabet: readonly string[]): string {
  let w = '';
  const len = 1 + rnd(6);
  for (let i = 0; i < len; i++) w += alphabet[rnd(alphabet.length)]!;
  return w;
}

function indexOf(docs: ReadonlyMap<number, readonly string[]>, from: number, to: number): InvertedIndex {
  const builder = new PostingsBuilder();
  for (const [row, lexemes] of [...docs].sort((x, y) => x[0] - y[0])) {
    if (row >= from && row <= to) builder.addRowLexemes(row, lexemes);
  }
  return builder.finish();
}

describe('compareUtf8', () => {
  it('orders UTF-8 strings like JS compares the strings', () => {
    const rnd = seededRandom(11);
    const encoder = new TextEncoder();
    for (let k = 0; k < 20_000; k++) {
      const x = randomWord(rnd, CHARS);
      const y = rnd(4) === 0 ? x + randomWord(rnd, CHARS) : rnd(5) === 0 ? x : randomWord(rnd, CHARS);
      const a = encoder.encode(x);
      const b = encoder.encode(y);
      const expected = x < y ? -1 : x > y ? 1 : 0;
      expect(compareUtf8(a, 0, a.length, b, 0, b.length)).toBe(expected);
      expect(compareUtf8(b, 0, b.length, a, 0, a.length)).toBe(expected === 0 ? 0 : -expected);
    }
  });
});

describe('mergeDisjointIndexes', () => {
  it('equals building the whole, for every split point (random lexemes, shared and disjoint vocabularies)', () => {
    const rnd = seededRandom(2024);
    for (let round = 0; round < 40; round++) {
      const rows = rnd(60);
      const shared = Array.from({ length: 1 + rnd(30) }, () => randomWord(rnd, CHARS));
      const left = Array.from({ length: 1 + rnd(30) }, () => `l${randomWord(rnd, CHARS)}`);
      const right = Array.from({ length: 1 + rnd(30) }, () => `r${randomWord(rnd, CHARS)}`);
      const disjoint = round % 3 === 0;
      const docs = new Map<number, string[]>();
      const split = rnd(rows + 1);
      let row = 0;
      for (let i = 0; i < rows; i++) {
        row += 1 + rnd(3); // gaps: deleted rows
        const vocabulary = disjoint ? (i < split ? left : right) : rnd(3) === 0 ? left : rnd(2) === 0 ? right : shared;
        const n = rnd(5) === 0 ? 0 : rnd(12);
        // Sometimes a word repeats far past the tf cap of 255.
        const lexemes = Array.from({ length: n }, () => vocabulary[rnd(vocabulary.length)]!);
        if (rnd(20) === 0) for (let r = 0; r < 300; r++) lexemes.push(vocabulary[0]!);
        docs.set(row, lexemes);
      }
      const whole = indexOf(docs, 0, Infinity);
      for (let m = 0; m <= row + 1; m++) {
        expectSameIndex(mergeDisjointIndexes(indexOf(docs, 0, m), indexOf(docs, m + 1, Infinity)), whole);
      }
    }
  });

  it('handles empty indexes on either side', () => {
    const one = indexOf(new Map([[3, ['x', 'y', 'x']]]), 0, Infinity);
    expectSameIndex(mergeDisjointIndexes(InvertedIndex.empty(), one), one);
    expectSameIndex(mergeDisjointIndexes(one, InvertedIndex.empty()), one);
    expectSameIndex(mergeDisjointIndexes(InvertedIndex.empty(), InvertedIndex.empty()), InvertedIndex.empty());
  });

  it('merges three ranges in any grouping', () => {
    const rnd = seededRandom(77);
    const vocabulary = Array.from({ length: 50 }, () => randomWord(rnd, CHARS));
    const docs = new Map<number, string[]>();
    for (let r = 1; r <= 300; r++)
      docs.set(
        r,
        Array.from({ length: rnd(10) }, () => vocabulary[rnd(50)]!),
      );
    const [a, b, c] = [indexOf(docs, 1, 100), indexOf(docs, 101, 200), indexOf(docs, 201, 300)];
    const whole = indexOf(docs, 1, 300);
    expectSameIndex(mergeDisjointIndexes(mergeDisjointIndexes(a, b), c), whole);
    expectSameIndex(mergeDisjointIndexes(a, mergeDisjointIndexes(b, c)), whole);
  });

  it('refuses indexes whose rows overlap or come in the wrong order', () => {
    const low = indexOf(
      new Map([
        [1, ['a']],
        [5, ['b']],
      ]),
      0,
      Infinity,
    );
    const high = indexOf(
      new Map([
        [5, ['c']],
        [9, ['a']],
      ]),
      0,
      Infinity,
    );
    const later = indexOf(new Map([[6, ['c']]]), 0, Infinity);
    expect(() => mergeDisjointIndexes(low, high)).toThrow(RangeError);
    expect(() => mergeDisjointIndexes(later, low)).toThrow(RangeError);
    expect(mergeDisjointIndexes(low, later).postingCount).toBe(3);
  });
});

describe('buildTextIndex over row ranges', () => {
  const WORDS = [
    'Servizio',
    'servizi',
    'città',
    'Città',
    'il',
    'della',
    'the',
    'cats',
    'running',
    'www.istat.it',
    'info@istat.it',
    'Emilia-Romagna',
    'x1',
    'samefo156',
    '2011-04-04',
    '3.14',
    '42',
    'è',
    '😀',
    'naïve',
    'straße',
  ];

  function store(seed: number, rows: number): TableStore {
    const rnd = seededRandom(seed);
    const sentence = (): string => Array.from({ length: rnd(9) }, () => WORDS[rnd(WORDS.length)]!).join(rnd(2) ? ' ' : ', ');
    // A mostly unique column (tokenized per row), a repeating one (tokenized once per value)
    // and an integer column; some NULLs and some deleted rows.
    const unique: StoredValue[] = [null];
    const uniqueCodes = new Uint32Array(rows + 1);
    const categories: StoredValue[] = [null, ...Array.from({ length: 6 }, sentence)];
    const categoryCodes = new Uint32Array(rows + 1);
    const numbers: StoredValue[] = [null, 7, 42, 2011, -3];
    const numberCodes = new Uint32Array(rows + 1);
    const live = new Uint8Array(rows + 1);
    for (let r = 1; r <= rows; r++) {
      live[r] = rnd(8) === 0 ? 0 : 1;
      if (rnd(6) !== 0) {
        uniqueCodes[r] = unique.length;
        unique.push(sentence());
      }
      categoryCodes[r] = rnd(categories.length);
      numberCodes[r] = rnd(numbers.length);
      if (!live[r]) uniqueCodes[r] = categoryCodes[r] = numberCodes[r] = 0;
    }
    return new TableStore(
      [
        new Column('description', fieldTypeOf('text'), unique, uniqueCodes, true),
        new Column('category', fieldTypeOf('text'), categories, categoryCodes),
        new Column('amount', fieldTypeOf('int4'), numbers, numberCodes),
      ],
      live,
      rows,
    );
  }

  for (const language of TEXT_SEARCH_LANGUAGES) {
    it(`two halves merged equal the whole (${language})`, () => {
      const s = store(language.length, 400);
      const indexed = new Set(['description', 'category', 'amount']);
      const whole = buildTextIndex(s, language, indexed);
      expect(whole.postingCount).toBeGreaterThan(400);
      for (const m of [0, 1, 2, 57, 199, 200, 201, 399, 400, 1000]) {
        const first = buildTextIndex(s, language, indexed, { fromRowId: 1, toRowId: m });
        const second = buildTextIndex(s, language, indexed, { fromRowId: m + 1 });
        expectSameIndex(mergeDisjointIndexes(first, second), whole);
      }
      const thirds = (
        [
          [1, 133],
          [134, 266],
          [267, 400],
        ] as const
      ).map(([fromRowId, toRowId]) => buildTextIndex(s, language, indexed, { fromRowId, toRowId }));
      expectSameIndex(mergeDisjointIndexes(mergeDisjointIndexes(thirds[0]!, thirds[1]!), thirds[2]!), whole);
    });
  }

  it('indexes only the rows of the range', () => {
    const s = store(3, 100);
    const part = buildTextIndex(s, 'english', new Set(['description', 'category']), { fromRowId: 20, toRowId: 30 });
    for (const row of part.rowIds) {
      expect(row).toBeGreaterThanOrEqual(20);
      expect(row).toBeLessThanOrEqual(30);
    }
    expect(buildTextIndex(s, 'english', new Set(['description']), { fromRowId: 50, toRowId: 40 }).termCount).toBe(0);
  });
});
