import { describe, expect, it } from 'vitest';
import { Column } from '../../../src/main/engine/column-store/column';
import { TableStore } from '../../../src/main/engine/column-store/table-store';
import { fieldTypeOf } from '../../../src/main/engine/field-types';
import { DICTIONARY_CHUNK, decodeColumns, encodeColumns } from '../../../src/main/engine/storage/column-codec';

/** The columns file's dictionaries: one JSON array when small, chunks past DICTIONARY_CHUNK values. */
describe('column dictionaries in the columns file', () => {
  it('splits a text dictionary too big for one string into chunks and reads it back whole', () => {
    const rows = DICTIONARY_CHUNK * 2 + 5; // three chunks (the NULL slot counts)
    const values: (string | null)[] = [null];
    for (let i = 1; i <= rows; i++) values.push(`v${i}`);
    const codes = new Uint32Array(rows + 1);
    for (let i = 1; i <= rows; i++) codes[i] = i;
    const live = new Uint8Array(rows + 1).fill(1);
    live[0] = 0;
    const store = new TableStore([new Column('t', fieldTypeOf('text'), values, codes)], live, rows);
    const sections: Uint8Array[] = [];
    const header = encodeColumns(store, sections);
    expect(header.columns[0]!.dictionary).toBe('json-chunks');
    expect(header.columns[0]!.moreSections).toHaveLength(2);
    const back = decodeColumns(header, sections).column('t')!;
    expect(back.values.length).toBe(rows + 1);
    expect([back.values[0], back.values[1], back.values[DICTIONARY_CHUNK], back.values[rows]]).toEqual([
      null,
      'v1',
      `v${DICTIONARY_CHUNK}`,
      `v${rows}`,
    ]);
  });

  it('keeps a small dictionary as one JSON array, as files written before chunking have it', () => {
    const store = new TableStore(
      [new Column('t', fieldTypeOf('text'), [null, 'a', 'b'], Uint32Array.from([0, 1, 2]))],
      Uint8Array.from([0, 1, 1]),
      2,
    );
    const sections: Uint8Array[] = [];
    const header = encodeColumns(store, sections);
    expect(header.columns[0]!.dictionary).toBe('json');
    expect(header.columns[0]!.moreSections).toBeUndefined();
    expect(decodeColumns(header, sections).column('t')!.values).toEqual([null, 'a', 'b']);
  });
});
