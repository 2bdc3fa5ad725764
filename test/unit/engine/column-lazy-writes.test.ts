import { describe, expect, it } from 'vitest';
import { Column, type LazyCodes } from '../../../src/main/engine/column-store/column';
import { F64Dictionary } from '../../../src/main/engine/column-store/f64-dictionary';
import { TableStore } from '../../../src/main/engine/column-store/table-store';
import { Utf8Dictionary, type LazyBytes } from '../../../src/main/engine/column-store/utf8-dictionary';
import { fieldTypeOf } from '../../../src/main/engine/field-types';
import type { StoredValue } from '../../../src/main/engine/values/coerce';

/**
 * Issue 24: a write to a column still in the file (a fresh server's first write) keeps the
 * cells it writes aside and looks its values up in the dictionary's file form, instead of
 * reading every code and decoding every value; whatever reads the column afterwards (a cell,
 * a scan, a checkpoint) sees what an in-memory column would.
 */

/** Codes "in the file", counting whole reads. */
function fileCodes(codes: Uint32Array): LazyCodes & { wholeReads: number } {
  return {
    wholeReads: 0,
    length: codes.length,
    at: (rowId) => codes[rowId]!,
    whole() {
      this.wholeReads++;
      return codes.slice();
    },
  };
}

/** A text dictionary "in the file", counting whole reads of its bytes. */
function fileText(values: StoredValue[], withNumbers = false): { dictionary: Utf8Dictionary; bytes: { wholeReads: number } } {
  const encoded = Utf8Dictionary.encode(values, withNumbers)!;
  const bytes: LazyBytes & { wholeReads: number } = {
    wholeReads: 0,
    length: encoded.bytes.byteLength,
    range: (start, end) => Buffer.from(encoded.bytes.subarray(start, end)),
    whole() {
      this.wholeReads++;
      return encoded.bytes.slice();
    },
  };
  return { dictionary: new Utf8Dictionary(encoded.ends, bytes, encoded.numbers), bytes };
}

const TEXT = fieldTypeOf('text');

describe('a write to a column whose codes and dictionary are still in the file', () => {
  it('appends a row to a column that may repeat values without reading its codes or values whole', () => {
    const values: StoredValue[] = [null, 'uno', 'due', 'tre'];
    const codes = fileCodes(Uint32Array.from([0, 1, 2, 3]));
    const { dictionary, bytes } = fileText(values);
    const column = new Column('t', TEXT, dictionary, codes, true);
    column.ensureCapacity(1500);
    column.set(4, 'quattro');
    column.set(5, 'due'); // already there: appended again, as an in-memory column would
    column.set(6, null);
    expect(codes.wholeReads).toBe(0);
    expect(bytes.wholeReads).toBe(0);
    expect(column.residentCodeBytes).toBeGreaterThan(0); // the written cells, nothing else
    expect([4, 5, 6, 3, 1].map((r) => column.valueOf(r))).toEqual(['quattro', 'due', null, 'tre', 'uno']);
    expect(column.distinctCount).toBe(5);
    expect(column.fileDictionary).toBeNull(); // the new values are not in the file form
    // A scan reads the codes whole, grown as asked, with the written cells in place.
    expect(column.codes.length).toBe(1500);
    expect(codes.wholeReads).toBe(1);
    expect([...column.codes.subarray(0, 7)].map((c) => column.values[c])).toEqual([null, 'uno', 'due', 'tre', 'quattro', 'due', null]);
    expect(column.codesOf('due').sort()).toEqual([2, 5]);
    const canonical = column.canonicalCodes();
    expect(canonical[column.codes[5]!]).toBe(canonical[column.codes[2]!]);
  });

  it('finds a value already in a non-repeating dictionary by its file form and adds a new one once', () => {
    const values: StoredValue[] = [null, 'Lazio', 'Umbria', 'Forlì'];
    const codes = fileCodes(Uint32Array.from([0, 1, 2, 3, 1]));
    const { dictionary } = fileText(values);
    const column = new Column('regione', TEXT, dictionary, codes);
    column.set(5, 'Forlì');
    expect(column.fileDictionary).not.toBeNull(); // nothing added: still the file form
    column.set(6, 'Marche');
    column.set(7, 'Marche');
    column.set(2, 'Lazio'); // an update of a row in the file
    expect(codes.wholeReads).toBe(0);
    expect(column.valueOf(5)).toBe('Forlì');
    expect([column.valueOf(6), column.valueOf(7), column.valueOf(2), column.valueOf(4)]).toEqual(['Marche', 'Marche', 'Lazio', 'Lazio']);
    expect(column.distinctCount).toBe(4); // Marche once
    expect(column.codesOf('Marche')).toEqual([4]);
    expect(column.codesOf('Forlì')).toEqual([3]);
    expect([...column.codes.subarray(0, 8)]).toEqual([0, 1, 1, 3, 1, 3, 4, 4]);
    expect(column.values).toEqual([null, 'Lazio', 'Umbria', 'Forlì', 'Marche']);
  });

  it('tells a number from its text in a numeric dictionary, and a double in a number dictionary', () => {
    const numeric = fieldTypeOf('numeric');
    const { dictionary } = fileText([null, 5, '2.50', '5'], true);
    const column = new Column('n', numeric, dictionary, fileCodes(Uint32Array.from([0, 1, 2, 3])));
    column.set(4, '5');
    column.set(5, 5);
    column.set(6, '2.50');
    column.set(7, 2.5);
    expect([4, 5, 6, 7].map((r) => column.codes[r])).toEqual([3, 1, 2, 4]);
    expect(column.values).toEqual([null, 5, '2.50', '5', 2.5]);

    const doubles = new Column('f', fieldTypeOf('float'), new F64Dictionary(Float64Array.from([1.5, -7, 3])), fileCodes(Uint32Array.from([0, 1, 2, 3])));
    doubles.set(4, -7);
    doubles.set(5, 8);
    expect([doubles.valueOf(4), doubles.valueOf(5)]).toEqual([-7, 8]);
    expect([...doubles.codes.subarray(0, 6)]).toEqual([0, 1, 2, 3, 2, 4]);
  });

  it('a delete through the table clears the cell without reading the codes whole', () => {
    const { dictionary } = fileText([null, 'a', 'b']);
    const codes = fileCodes(Uint32Array.from([0, 1, 2]));
    const live = Uint8Array.from([0, 1, 1]);
    const store = new TableStore([new Column('t', TEXT, dictionary, codes)], live, 2);
    store.deleteRow(1);
    store.putRow(3, new Map([['t', 'c']]));
    expect(codes.wholeReads).toBe(0);
    expect([1, 2, 3].map((r) => store.column('t')!.valueOf(r))).toEqual([null, 'b', 'c']);
    expect(store.rowCount).toBe(2);
    expect([...store.column('t')!.codes.subarray(0, 4)]).toEqual([0, 0, 2, 3]);
  });

  it('past many written cells and looked-up values, answers as a column written in memory', () => {
    // Deterministic pseudo-random writes: appends, updates and deletes over few distinct values.
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const rows = 3000;
    const initial: StoredValue[] = [null];
    for (let i = 0; i < 200; i++) initial.push(`v${i}`);
    const codes = new Uint32Array(rows + 1);
    for (let r = 1; r <= rows; r++) codes[r] = 1 + next(200);
    for (const mayRepeat of [false, true]) {
      const lazy = new Column('t', TEXT, fileText(initial).dictionary, fileCodes(codes), mayRepeat);
      const eager = new Column('t', TEXT, [...initial], codes.slice(), mayRepeat);
      for (let k = 0; k < 6000; k++) {
        const row = k % 3 === 0 ? rows + 1 + k : 1 + next(rows);
        const value = next(10) === 0 ? null : `v${next(400)}`; // half of them new values
        for (const c of [lazy, eager]) {
          c.ensureCapacity(row + 1);
          c.set(row, value);
        }
      }
      const last = rows + 1 + 5997; // the highest row written
      for (let r = 0; r <= last; r++) expect(lazy.valueOf(r)).toBe(eager.valueOf(r));
      expect(lazy.distinctCount).toBe(eager.distinctCount);
      expect(lazy.codes.length).toBeGreaterThan(last);
      for (let r = 0; r <= last; r++) expect(lazy.values[lazy.codes[r]!]).toBe(eager.values[eager.codes[r]!]);
    }
  });
});
