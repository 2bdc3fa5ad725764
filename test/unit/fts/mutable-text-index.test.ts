import { describe, expect, it } from 'vitest';
import { PostingsBuilder } from '../../../src/main/engine/fts/postings-builder';
import { MutableTextIndex } from '../../../src/main/engine/fts/mutable-text-index';
import { evaluate } from '../../../src/main/engine/fts/query-eval';
import { rankRows } from '../../../src/main/engine/fts/rank';
import type { InvertedIndex } from '../../../src/main/engine/fts/inverted-index';
import type { PostingList, TextIndexReader } from '../../../src/main/engine/fts/text-index-reader';
import { PREFIXES, VOCABULARY, expectSameIndex, randomDocument, randomQuery, seededRandom, universeOf } from './fts-test-helpers';

function build(docs: Map<number, string[]>): InvertedIndex {
  const builder = new PostingsBuilder();
  for (const row of [...docs.keys()].sort((a, b) => a - b)) builder.addRowLexemes(row, docs.get(row)!);
  return builder.finish();
}

/** Postings per lexeme as plain data (prefix lists merged per lexeme is not required). */
function dump(list: PostingList): [number, number][] {
  return Array.from(list.rowIds, (row, i) => [row, list.tfs[i]!]);
}
function prefixDump(reader: TextIndexReader, prefix: string): [number, number][] {
  return reader
    .lookupPrefix(prefix)
    .flatMap(dump)
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

describe('MutableTextIndex', () => {
  it('reads like an index rebuilt from scratch after random inserts, updates and deletes', () => {
    for (let round = 0; round < 6; round++) {
      const rnd = seededRandom(100 + round);
      const docs = new Map<number, string[]>();
      let nextRow = 1;
      for (let i = 0; i < 300; i++) {
        const doc = randomDocument(rnd);
        docs.set(nextRow++, doc);
      }
      const mutable = new MutableTextIndex(build(new Map([...docs].filter(([, d]) => d.length > 0))));
      for (let step = 0; step < 400; step++) {
        const action = rnd(10);
        const existing = [...docs.keys()];
        if (action < 3 || existing.length === 0) {
          // insert
          const doc = randomDocument(rnd);
          docs.set(nextRow, doc);
          mutable.addRow(nextRow++, doc);
        } else if (action < 7) {
          // update
          const row = existing[rnd(existing.length)]!;
          const doc = randomDocument(rnd);
          docs.set(row, doc);
          mutable.addRow(row, doc);
        } else {
          // delete
          const row = existing[rnd(existing.length)]!;
          docs.delete(row);
          mutable.removeRow(row);
        }
        if (step % 50 === 0 && rnd(2) === 0) mutable.compact(); // compaction mid-stream too
      }
      mutable.removeRow(999_999); // unknown rows are a no-op

      const rebuilt = build(new Map([...docs].filter(([, d]) => d.length > 0)));
      for (const lexeme of [...VOCABULARY, 'missing']) expect(dump(mutable.lookup(lexeme)), lexeme).toEqual(dump(rebuilt.lookup(lexeme)));
      for (const prefix of PREFIXES) expect(prefixDump(mutable, prefix), prefix).toEqual(prefixDump(rebuilt, prefix));

      const universe = universeOf(docs.keys());
      const qrnd = seededRandom(round);
      for (let k = 0; k < 200; k++) {
        const query = randomQuery(qrnd, 3, false);
        const rows = evaluate(query, mutable, universe);
        expect(rows).toEqual(evaluate(query, rebuilt, universe));
        expect(rankRows(query, mutable, rows)).toEqual(rankRows(query, rebuilt, rows));
      }

      const compacted = mutable.compact();
      expectSameIndex(compacted, rebuilt);
      expect(mutable.deltaRowCount).toBe(0);
      expect(mutable.deletedBaseRowCount).toBe(0);
      expect(dump(mutable.lookup('cat'))).toEqual(dump(rebuilt.lookup('cat')));
    }
  });

  it('treats an update as remove + add of the same row id', () => {
    const base = build(
      new Map([
        [1, ['cat', 'dog']],
        [2, ['cat']],
      ]),
    );
    const mutable = new MutableTextIndex(base);
    mutable.addRow(1, ['owl', 'owl']);
    expect(dump(mutable.lookup('cat'))).toEqual([[2, 1]]);
    expect(dump(mutable.lookup('dog'))).toEqual([]);
    expect(dump(mutable.lookup('owl'))).toEqual([[1, 2]]);
    mutable.addRow(1, ['cat']);
    expect(dump(mutable.lookup('cat'))).toEqual([
      [1, 1],
      [2, 1],
    ]);
    expect(dump(mutable.lookup('owl'))).toEqual([]);
    mutable.removeRow(2);
    expect(dump(mutable.lookup('cat'))).toEqual([[1, 1]]);
    expect(base.lookup('cat').rowIds).toEqual(Uint32Array.from([1, 2])); // the base is never modified
  });

  it('does not tombstone rows appended after the base (inserts stay cheap)', () => {
    const mutable = new MutableTextIndex(
      build(
        new Map([
          [1, ['cat']],
          [2, ['dog']],
        ]),
      ),
    );
    mutable.addRow(3, ['cat']);
    mutable.addRow(10, ['cat']);
    expect(mutable.deletedBaseRowCount).toBe(0);
    expect(dump(mutable.lookup('cat'))).toEqual([
      [1, 1],
      [3, 1],
      [10, 1],
    ]);
    expect(() => mutable.addRow(0, ['x'])).toThrow(RangeError);
  });
});
