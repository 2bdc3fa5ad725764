import { describe, expect, it } from 'vitest';
import { Column } from '../../../src/main/engine/column-store/column';
import { TableStore } from '../../../src/main/engine/column-store/table-store';
import { fieldTypeOf } from '../../../src/main/engine/field-types';
import { MutableTextIndex } from '../../../src/main/engine/fts';
import { buildTextIndex } from '../../../src/main/engine/text-index/build-text-index';
import { ResourceTextReader } from '../../../src/main/engine/text-index/resource-text-reader';

/**
 * A q's evaluation and its ranking read the same words one after the other: the reader reads
 * a word's postings from the index once per task (a common word's list can be larger than
 * the index's postings cache, and was read from the file twice), and again in the next task.
 */
describe('ResourceTextReader', () => {
  it("reads a word's postings once per task, and the list written since in the next", async () => {
    const values = [null, 'fiume ponte', 'fiume', 'strada'];
    const codes = Uint32Array.from([0, 1, 2, 3]);
    const live = Uint8Array.from([0, 1, 1, 1]);
    const store = new TableStore([new Column('testo', fieldTypeOf('text'), values, codes)], live, 3);
    const index = new MutableTextIndex(buildTextIndex(store, 'simple', new Set(['testo'])), 3);
    let reads = 0;
    const lookup = index.lookup.bind(index);
    index.lookup = (lexeme) => {
      reads++;
      return lookup(lexeme);
    };
    const reader = new ResourceTextReader(index, store, 'simple', new Set(['testo']));
    expect([...reader.lookup('fiume').rowIds]).toEqual([1, 2]);
    expect([...reader.lookup('fiume').rowIds]).toEqual([1, 2]);
    expect(reads).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    index.removeRow(2);
    store.live[2] = 0;
    expect([...reader.lookup('fiume').rowIds]).toEqual([1]);
    expect(reads).toBe(2);
  });
});
