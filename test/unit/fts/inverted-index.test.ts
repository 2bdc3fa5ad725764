import { describe, expect, it } from 'vitest';
import { PostingsBuilder } from '../../../src/main/engine/fts/postings-builder';
import { InvertedIndex } from '../../../src/main/engine/fts/inverted-index';
import { sortLexemeIndexes } from '../../../src/main/engine/fts/lexeme-sort';
import { IndexFormatError, decodeIndex, encodeIndex } from '../../../src/main/engine/fts/index-codec';
import { expectSameIndex, randomDocument, seededRandom } from './fts-test-helpers';

const WEIRD = [
  '',
  'a',
  'ab',
  'abc',
  'b',
  'B',
  'à',
  'á',
  'città',
  'citta',
  '€',
  '\uffff',
  '\ue000',
  '😀',
  '😀a',
  '𝐀',
  'z'.repeat(40),
  `${'z'.repeat(39)}a`,
  '0',
  '00',
  '-04',
  '2011',
  'www.example.com',
  'ß',
  'SS',
];

function naiveIndex(docs: Map<number, string[]>): Map<string, Map<number, number>> {
  const res = new Map<string, Map<number, number>>();
  for (const [row, doc] of docs) {
    for (const w of doc) {
      let m = res.get(w);
      if (!m) res.set(w, (m = new Map()));
      m.set(row, Math.min(255, (m.get(row) ?? 0) + 1));
    }
  }
  return res;
}

function expectSameAsNaive(index: InvertedIndex, docs: Map<number, string[]>): void {
  const naive = naiveIndex(docs);
  const lexemes = [...naive.keys()].sort();
  expect(index.termCount).toBe(lexemes.length);
  lexemes.forEach((lexeme, i) => {
    expect(index.term(i)).toBe(lexeme);
    expect(index.termIndex(lexeme)).toBe(i);
    const { rowIds, tfs } = index.postings(i);
    const expected = [...naive.get(lexeme)!].sort((a, b) => a[0] - b[0]);
    expect(Array.from(rowIds)).toEqual(expected.map(([row]) => row));
    expect(Array.from(tfs)).toEqual(expected.map(([, tf]) => tf));
  });
}

describe('lexeme sort', () => {
  it('orders like Array.prototype.sort (UTF-16 code units), including astral characters', () => {
    const rnd = seededRandom(5);
    const pool = [...WEIRD];
    for (let i = 0; i < 5000; i++) {
      let s = '';
      const len = 1 + rnd(30);
      for (let j = 0; j < len; j++) s += WEIRD[rnd(WEIRD.length)]!.slice(0, 2) || 'q';
      pool.push(s);
    }
    const distinct = [...new Set(pool)];
    const order = sortLexemeIndexes(distinct);
    expect(Array.from(order, (i) => distinct[i])).toEqual([...distinct].sort());
  });
});

describe('PostingsBuilder + InvertedIndex', () => {
  it('builds the same postings as a naive index', () => {
    const rnd = seededRandom(11);
    const builder = new PostingsBuilder();
    const docs = new Map<number, string[]>();
    let row = 0;
    for (let i = 0; i < 2000; i++) {
      row += 1 + rnd(4);
      const doc = [...randomDocument(rnd, 12), ...(rnd(5) === 0 ? [WEIRD[rnd(WEIRD.length)]!] : [])].filter((w) => w !== '');
      if (doc.length > 0) docs.set(row, doc);
      builder.addRowLexemes(row, doc);
    }
    expectSameAsNaive(builder.finish(), docs);
  });

  it('caps term frequency at 255 and drops interned but unused lexemes', () => {
    const builder = new PostingsBuilder();
    builder.internLexeme('unused');
    const id = builder.internLexeme('brazil');
    builder.addRow(7, new Array<number>(300).fill(id));
    const index = builder.finish();
    expect(index.termCount).toBe(1);
    expect(index.termIndex('unused')).toBe(-1);
    expect(Array.from(index.postings(0).tfs)).toEqual([255]);
  });

  it('rejects rows out of order, bad ids and reuse after finish', () => {
    const builder = new PostingsBuilder();
    const id = builder.internLexeme('x');
    builder.addRow(5, [id]);
    expect(() => builder.addRow(5, [id])).toThrow(RangeError);
    expect(() => builder.addRow(4, [id])).toThrow(RangeError);
    expect(() => builder.addRow(0.5, [id])).toThrow(RangeError);
    expect(() => builder.addRow(9, [42])).toThrow(RangeError);
    builder.finish();
    expect(() => builder.finish()).toThrow();
  });

  it('answers exact and prefix lookups by binary search', () => {
    const builder = new PostingsBuilder();
    WEIRD.filter((w) => w !== '').forEach((w, i) => builder.addRowLexemes(i + 1, [w]));
    const index = builder.finish();
    const terms = Array.from({ length: index.termCount }, (_, i) => index.term(i));
    expect(terms).toEqual([...terms].sort());
    for (const prefix of ['a', 'z', 'citt', '😀', '\ud83d', '0', 'www.', 'nothing', 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz']) {
      const [lo, hi] = index.prefixRange(prefix);
      expect(terms.slice(lo, hi)).toEqual(terms.filter((t) => t.startsWith(prefix)));
      expect(index.lookupPrefix(prefix)).toHaveLength(hi - lo);
    }
    expect(index.termIndex('citta')).toBeGreaterThanOrEqual(0);
    expect(index.termIndex('città')).not.toBe(index.termIndex('citta'));
    expect(index.lookup('missing').rowIds).toHaveLength(0);
    expect(InvertedIndex.empty().lookup('a').rowIds).toHaveLength(0);
    expect(InvertedIndex.empty().prefixRange('a')).toEqual([0, 0]);
  });
});

describe('index codec', () => {
  function sample(): InvertedIndex {
    const rnd = seededRandom(3);
    const builder = new PostingsBuilder();
    for (let i = 1; i <= 500; i++) builder.addRowLexemes(i * 2, [...randomDocument(rnd), WEIRD[rnd(WEIRD.length)] || 'q']);
    return builder.finish();
  }
  const same = (a: InvertedIndex, b: InvertedIndex): void => expectSameIndex(b, a);

  it('round-trips through meta + buffers, zero-copy when aligned', () => {
    const index = sample();
    const { meta, buffers } = encodeIndex(index);
    const decoded = decodeIndex(JSON.parse(JSON.stringify(meta)), buffers);
    same(index, decoded);
    expect(decoded.rowIds.buffer).toBe(index.rowIds.buffer); // shared, not copied
    expect(decoded.lookup('cat').rowIds).toEqual(index.lookup('cat').rowIds);
  });

  it('decodes buffers laid out back to back in one unaligned file image', () => {
    const index = sample();
    const { meta, buffers } = encodeIndex(index);
    const total = buffers.reduce((n, b) => n + b.length, 0) + 1;
    const file = new Uint8Array(total);
    let at = 1; // force misalignment
    const slices = buffers.map((b) => {
      file.set(b, at);
      const view = file.subarray(at, at + b.length);
      at += b.length;
      return view;
    });
    same(index, decodeIndex(meta, slices));
  });

  it('rejects foreign, newer or damaged data', () => {
    const { meta, buffers } = encodeIndex(sample());
    expect(() => decodeIndex({ ...meta, version: 2 }, buffers)).toThrow(IndexFormatError);
    expect(() => decodeIndex({ ...meta, format: 'other' }, buffers)).toThrow(IndexFormatError);
    expect(() => decodeIndex(null, buffers)).toThrow(IndexFormatError);
    expect(() => decodeIndex(meta, buffers.slice(0, 4))).toThrow(IndexFormatError);
    expect(() => decodeIndex({ ...meta, postingCount: meta.postingCount + 1 }, buffers)).toThrow(IndexFormatError);
    const damaged = buffers.map((b) => b.slice());
    new Uint32Array(damaged[2]!.buffer)[3] = 0xffffffff; // offsets no longer ascending
    expect(() => decodeIndex(meta, damaged)).toThrow(IndexFormatError);
    const unsorted = buffers.map((b) => b.slice());
    const rowsView = new Uint32Array(unsorted[3]!.buffer);
    const offsets = new Uint32Array(unsorted[2]!.buffer);
    const term = Array.from({ length: meta.termCount }, (_, t) => t).find((t) => offsets[t + 1]! - offsets[t]! >= 2)!;
    rowsView[offsets[term]!] = rowsView[offsets[term]! + 1]!; // duplicate row inside a term
    expect(() => decodeIndex(meta, unsorted)).toThrow(/not ascending/);
  });

  it('round-trips the empty index', () => {
    const { meta, buffers } = encodeIndex(InvertedIndex.empty());
    expect(decodeIndex(meta, buffers).termCount).toBe(0);
  });
});
