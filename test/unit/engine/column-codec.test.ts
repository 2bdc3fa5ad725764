import { describe, expect, it } from 'vitest';
import { Column } from '../../../src/main/engine/column-store/column';
import { TableStore } from '../../../src/main/engine/column-store/table-store';
import { fieldTypeOf } from '../../../src/main/engine/field-types';
import { CorruptContainerError } from '../../../src/main/engine/storage/binary-container';
import { DICTIONARY_CHUNK, decodeColumns, encodeColumns } from '../../../src/main/engine/storage/column-codec';
import type { StoredValue } from '../../../src/main/engine/values/coerce';

function textStore(values: StoredValue[]): TableStore {
  const rows = values.length - 1;
  const codes = new Uint32Array(rows + 1);
  for (let i = 1; i <= rows; i++) codes[i] = i;
  const live = new Uint8Array(rows + 1).fill(1);
  live[0] = 0;
  return new TableStore([new Column('t', fieldTypeOf('text'), values, codes)], live, rows);
}

/** The columns file's dictionaries: UTF-8 with offsets for strings, JSON (chunked when big) otherwise. */
describe('column dictionaries in the columns file', () => {
  it('stores a dictionary of strings as UTF-8 and answers cells from it before and after decoding it whole', () => {
    const values: StoredValue[] = [null, 'Forlì-Cesena', '', 'Valle d’Aosta / Vallée d’Aoste', '東京 🚲', 'a'];
    const sections: Uint8Array[] = [];
    const header = encodeColumns(textStore(values), sections);
    expect(header.columns[0]!.dictionary).toBe('utf8');
    const column = decodeColumns(header, sections).column('t')!;
    expect(column.distinctCount).toBe(5);
    expect([1, 2, 3, 4, 5].map((r) => column.valueOf(r))).toEqual(values.slice(1));
    expect(column.values).toEqual(values);
    // A write after loading extends the decoded dictionary.
    column.set(6, 'nuovo');
    expect([column.valueOf(4), column.valueOf(6), column.distinctCount]).toEqual(['東京 🚲', 'nuovo', 6]);
  });

  it('keeps a numeric dictionary of numbers and exact texts exact in the UTF-8 form', () => {
    const values: StoredValue[] = [null, 2.5, '2.50', '9007199254740993', 0.1, -17, 1e21];
    const codes = Uint32Array.from([0, 1, 2, 3, 4, 5, 6]);
    const store = new TableStore([new Column('n', fieldTypeOf('numeric'), values, codes)], Uint8Array.from([0, 1, 1, 1, 1, 1, 1]), 6);
    const sections: Uint8Array[] = [];
    const header = encodeColumns(store, sections);
    expect(header.columns[0]!.dictionary).toBe('utf8');
    const column = decodeColumns(header, sections).column('n')!;
    expect([1, 2, 3, 4, 5, 6].map((r) => column.valueOf(r))).toEqual(values.slice(1));
    expect(column.values).toEqual(values);
  });

  it('refuses a text dictionary whose offsets do not describe its bytes', () => {
    const sections: Uint8Array[] = [];
    const header = encodeColumns(textStore([null, 'abc', 'de']), sections);
    const ends = header.columns[0]!.dictionarySection;
    new Uint32Array(sections[ends]!.buffer, sections[ends]!.byteOffset, 2)[0] = 9; // past the second value's end
    expect(() => decodeColumns(header, sections)).toThrow(CorruptContainerError);
  });

  it('keeps a dictionary UTF-8 cannot hold (a lone surrogate) as JSON, chunked past DICTIONARY_CHUNK values', () => {
    const rows = DICTIONARY_CHUNK * 2 + 5; // three chunks (the NULL slot counts)
    const values: StoredValue[] = [null];
    for (let i = 1; i <= rows; i++) values.push(`v${i}`);
    values[2] = 'half a pair \ud800';
    const sections: Uint8Array[] = [];
    const header = encodeColumns(textStore(values), sections);
    expect(header.columns[0]!.dictionary).toBe('json-chunks');
    expect(header.columns[0]!.moreSections).toHaveLength(2);
    const back = decodeColumns(header, sections).column('t')!;
    expect(back.values.length).toBe(rows + 1);
    expect([back.values[0], back.values[1], back.values[2], back.values[DICTIONARY_CHUNK], back.values[rows]]).toEqual([
      null,
      'v1',
      'half a pair \ud800',
      `v${DICTIONARY_CHUNK}`,
      `v${rows}`,
    ]);
  });

  it('reads a small JSON dictionary, as files written before the UTF-8 form have it', () => {
    const sections: Uint8Array[] = [
      Buffer.from(JSON.stringify([null, 'a', 'b'])),
      new Uint8Array(Uint32Array.from([0, 1, 2]).buffer),
      Uint8Array.from([0, 1, 1]),
    ];
    const header = {
      maxRowId: 2,
      columns: [{ id: 't', type: 'text', dictionary: 'json' as const, dictionarySection: 0, codesSection: 1 }],
      liveSection: 2,
    };
    const store = decodeColumns(header, sections);
    expect(store.column('t')!.values).toEqual([null, 'a', 'b']);
    expect(store.rowValues(2).get('t')).toBe('b');
  });
});
