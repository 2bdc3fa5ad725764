// The builder's own lexeme table, row buffers sized from a row-count hint, short-row repeat
// detection and the token table behind documentTermIds, each against a plain reference.
import { describe, expect, it } from 'vitest';
import { PostingsBuilder } from '../../../src/main/engine/fts/postings-builder';
import { TOKEN_MISSING, TokenTermTable, fnvRange, tokenHash } from '../../../src/main/engine/fts/token-term-table';
import { expectSameIndex, seededRandom } from './fts-test-helpers';

const CHARS = ['a', 'b', 'c', 'x', 'Z', '1', 'à', 'é', '€', '😀', '\ue000'];

function word(rnd: (n: number) => number): string {
  let w = '';
  for (let i = 0, n = 1 + rnd(7); i < n; i++) w += CHARS[rnd(CHARS.length)]!;
  return w;
}

describe('PostingsBuilder', () => {
  it('interns lexemes like a Map would (first-seen order ids, same id on every repeat)', () => {
    const rnd = seededRandom(8);
    const builder = new PostingsBuilder();
    const reference = new Map<string, number>();
    for (let k = 0; k < 60_000; k++) {
      const w = word(rnd);
      if (!reference.has(w)) reference.set(w, reference.size);
      expect(builder.internLexeme(w)).toBe(reference.get(w));
    }
    expect(builder.termCount).toBe(reference.size);
  });

  it('builds the same index with or without a row-count hint, short rows or long, whole arrays or a count', () => {
    const rnd = seededRandom(21);
    for (const expectedRows of [1, 50, 3000, 100_000]) {
      const plain = new PostingsBuilder();
      const hinted = new PostingsBuilder({ expectedRows });
      const vocabulary = Array.from({ length: 400 }, () => word(rnd));
      const scratch: number[] = [];
      for (let row = 1; row <= 3000; row++) {
        // Mostly short rows, some long ones (> 24 lexemes) and some with a tf past 255.
        const n = rnd(10) === 0 ? 25 + rnd(60) : rnd(12);
        const lexemes = Array.from({ length: n }, () => vocabulary[rnd(rnd(4) === 0 ? 400 : 8)]!);
        if (rnd(50) === 0) for (let r = 0; r < 300; r++) lexemes.push(vocabulary[1]!);
        plain.addRowLexemes(row, lexemes);
        // The same ids written into a longer reused array, with the count passed.
        for (let i = 0; i < lexemes.length; i++) scratch[i] = hinted.internLexeme(lexemes[i]!);
        scratch[lexemes.length] = 0;
        hinted.addRow(row, scratch, lexemes.length);
      }
      const a = plain.finish();
      const b = hinted.finish();
      expectSameIndex(b, a);
      expect(Math.max(...a.tfs)).toBe(255);
    }
  });

  it('rejects a bad count and use after finish()', () => {
    const builder = new PostingsBuilder();
    const id = builder.internLexeme('a');
    expect(() => builder.addRow(1, [id], 2)).toThrow(RangeError);
    builder.addRow(1, [id, id], 1);
    const index = builder.finish();
    expect(Array.from(index.tfs)).toEqual([1]);
    expect(() => builder.internLexeme('a')).toThrow(/finish/);
  });
});

describe('TokenTermTable', () => {
  it('maps (characters, kind) to what was inserted, reading tokens in place, across clears', () => {
    const rnd = seededRandom(4);
    for (const maxEntries of [3, 100, 1 << 20]) {
      const table = new TokenTermTable(maxEntries);
      const reference = new Map<string, number>();
      for (let k = 0; k < 30_000; k++) {
        const prefix = word(rnd);
        const token = word(rnd);
        const text = `${prefix} ${token} ${word(rnd)}`;
        const start = prefix.length + 1;
        const kind = rnd(3);
        const hash = tokenHash(fnvRange(text, start, token.length), kind);
        const key = `${kind}:${token}`;
        const found = table.find(text, start, token.length, kind, hash);
        if (found === TOKEN_MISSING) {
          // Only a key never inserted, or forgotten by a clear, may be missing.
          if (maxEntries === 1 << 20) expect(reference.has(key)).toBe(false);
          const term = reference.get(key) ?? reference.size;
          reference.set(key, term);
          table.insert(text, start, token.length, kind, hash, term);
        } else {
          expect(found).toBe(reference.get(key));
        }
        expect(table.size).toBeLessThanOrEqual(maxEntries);
      }
    }
  });
});
