import { describe, expect, it } from 'vitest';
import { TableStore } from '../../../src/main/engine/column-store/table-store';
import { KeyIndex, WriteState, indexKey, keyText } from '../../../src/main/engine/datastore/write-state';
import { fieldTypeOf } from '../../../src/main/engine/field-types';
import type { JournalEntry } from '../../../src/main/engine/journal/journal-entry';
import type { StoredValue } from '../../../src/main/engine/values/coerce';
import { ValidationError } from '../../../src/main/errors';

/**
 * Writes are checked against the column store, with what SQLite's transaction and unique
 * index gave before: a request sees its own earlier records, keys are equal as SQLite compares
 * stored values, a NULL key part conflicts with nothing, and the key index follows commits.
 */
const fields = [
  { id: 'code', type: fieldTypeOf('int4') },
  { id: 'amount', type: fieldTypeOf('numeric') },
  { id: 'name', type: fieldTypeOf('text') },
];

function table(rows: [number, StoredValue, StoredValue, StoredValue][]): TableStore {
  const store = TableStore.empty(fields);
  for (const [id, code, amount, name] of rows)
    store.putRow(
      id,
      new Map<string, StoredValue>([
        ['code', code],
        ['amount', amount],
        ['name', name],
      ]),
    );
  return store;
}

describe('keys as SQLite compares them', () => {
  it('makes 12 and 12.0 one key in an integer column, 2.5 and the text 2.50 two in a numeric one, and a NULL part no key', () => {
    const int = [fieldTypeOf('int4')];
    const num = [fieldTypeOf('numeric')];
    expect(keyText([12], int)).toBe(keyText(['12'], int));
    expect(keyText([2.5], num)).not.toBe(keyText(['2.50'], num));
    expect(keyText([null], int)).toBeNull();
  });
});

describe('keys as the key index holds them', () => {
  it('are equal exactly when their texts are, in a column of any type (numbers for integer cells)', () => {
    const values: StoredValue[] = [
      ...[0, -0, 12, 12.0, 2.5, -7, 2 ** 31 - 1, 2 ** 31, 3e9, 2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2, 9.3e18, 1e21, 1e300],
      ...['12', '012', ' 12 ', '-7', '2.5', '2.50', '9007199254740994', '9223372036854775807', '9223372036854775808', 'abc', '', 'n12'],
    ];
    let numbers = 0;
    for (const name of ['int4', 'int8', 'float8', 'numeric', 'text', 'bool', 'date', 'timestamp']) {
      const types = [fieldTypeOf(name)];
      const keys: { text: string | null; key: string | number | null }[] = [];
      for (const v of values) {
        try {
          keys.push({ text: keyText([v], types), key: indexKey([v], types) });
        } catch {
          continue; // a value this column cannot store (a number in a text column)
        }
      }
      for (const a of keys) {
        if (typeof a.key === 'number') numbers++;
        for (const b of keys) expect([name, a.text === b.text]).toEqual([name, new Set([a.key]).has(b.key)]);
      }
    }
    expect(numbers).toBeGreaterThan(0);
    // Keys of more than one column stay texts.
    expect(indexKey([12, 'a'], [fieldTypeOf('int4'), fieldTypeOf('text')])).toBe(keyText([12, 'a'], [fieldTypeOf('int4'), fieldTypeOf('text')]));
  });
});

describe('a write request checked against the column store', () => {
  it('finds a row an earlier record of the same request inserted, and refuses a duplicate key', () => {
    const store = table([[1, 10, 1.5, 'a']]);
    const state = new WriteState(store, new KeyIndex(store, ['code']), 'pkey');
    expect(state.findByKey([10])).toBe(1);
    const id = state.nextId();
    expect(id).toBe(2);
    state.apply({ t: 'put', id, v: { code: 20, amount: null, name: 'b' } }, 0);
    expect(state.findByKey([20])).toBe(2);
    expect(() => state.apply({ t: 'put', id: state.nextId(), v: { code: 10, amount: null, name: 'c' } }, 1)).toThrow(ValidationError);
    // A key moved away by an update is free again; NULL keys never conflict.
    state.apply({ t: 'set', id: 1, v: { code: 11 } }, 2);
    expect(state.findByKey([10])).toBeNull();
    expect(state.findByKey([11])).toBe(1);
    state.apply({ t: 'put', id: state.nextId(), v: { code: 10, amount: null, name: 'd' } }, 3);
    state.apply({ t: 'put', id: state.nextId(), v: { code: null, amount: null, name: 'e' } }, 4);
    state.apply({ t: 'put', id: state.nextId(), v: { code: null, amount: null, name: 'f' } }, 5);
    // Nothing reached the store: that happens once the entry is journalled.
    expect(store.rowCount).toBe(1);
    expect(store.column('code')!.valueOf(1)).toBe(10);
  });

  it('says which request row broke the key, in PostgreSQL words naming the index', () => {
    const store = table([[1, 10, 1.5, 'a']]);
    const state = new WriteState(store, new KeyIndex(store, ['code']), 'abc123');
    try {
      state.apply({ t: 'put', id: 2, v: { code: 10, amount: null, name: 'x' } }, 4);
      expect.unreachable();
    } catch (err) {
      expect((err as ValidationError).members).toEqual({
        records: ['duplicate key value violates unique constraint "abc123"'],
        records_row: 4,
      });
    }
  });

  it('sees deletes and a truncate of the same request, and never gives an _id twice', () => {
    const store = table([
      [1, 10, null, 'a'],
      [7, 70, null, 'g'],
    ]);
    store.deleteRow(7);
    const state = new WriteState(store, new KeyIndex(store, ['code']), 'pkey');
    expect(state.exists(1)).toBe(true);
    expect(state.exists(7)).toBe(false);
    expect(state.nextId()).toBe(8); // AUTOINCREMENT: 7 was used
    state.apply({ t: 'del', ids: [1] }, 0);
    expect(state.exists(1)).toBe(false);
    expect(state.findByKey([10])).toBeNull();
    state.apply({ t: 'put', id: 9, v: { code: 10, amount: null, name: 'again' } }, 1);
    state.apply({ t: 'truncate' }, 2);
    expect(state.exists(9)).toBe(false);
    expect(state.findByKey([10])).toBeNull();
  });
});

describe('the key index', () => {
  it('finds a one-column key by scanning the column for a few lookups, then by its map, with the same answers', () => {
    for (const warm of [0, 20]) {
      const store = table([
        [1, 10, null, 'a'],
        [2, 11, null, 'b'],
      ]);
      const keys = new KeyIndex(store, ['code']);
      for (let i = 0; i < warm; i++) keys.rowOf(keys.keyOf([99])!); // past the scans: the map is built
      const commit = (entry: JournalEntry) => {
        keys.update(entry);
        for (const op of entry.ops) {
          if (op.t === 'put') store.putRow(op.id, new Map(Object.entries(op.v)));
          else if (op.t === 'set') store.updateCells(op.id, new Map(Object.entries(op.v)));
          else if (op.t === 'del') for (const id of op.ids) store.deleteRow(id);
          else store.truncate();
        }
      };
      const rowOf = (v: StoredValue) => keys.rowOf(keys.keyOf([v])!);
      expect([rowOf(10), rowOf('10'), rowOf(10.0), rowOf(12)]).toEqual([1, 1, 1, undefined]);
      commit({ ops: [{ t: 'put', id: 3, v: { code: 12, amount: null, name: 'c' } }] });
      expect(rowOf(12)).toBe(3);
      commit({ ops: [{ t: 'set', id: 1, v: { code: 13 } }] });
      expect([rowOf(10), rowOf(13)]).toEqual([undefined, 1]);
      commit({ ops: [{ t: 'put', id: 4, v: { code: 10, amount: null, name: 'd' } }] }); // 10 is free again
      expect(rowOf(10)).toBe(4);
      commit({ ops: [{ t: 'del', ids: [3] }] });
      expect(rowOf(12)).toBeUndefined();
      const state = new WriteState(store, keys, 'pkey');
      expect(() => state.apply({ t: 'put', id: state.nextId(), v: { code: 13, amount: null, name: 'e' } }, 0)).toThrow(ValidationError);
      commit({ ops: [{ t: 'truncate' }] });
      expect([rowOf(10), rowOf(11), rowOf(13)]).toEqual([undefined, undefined, undefined]);
    }
  });

  it('follows committed entries: puts, key changes, deletes and a truncate', () => {
    const store = table([[1, 10, null, 'a']]);
    const keys = new KeyIndex(store, ['code', 'name']);
    const commit = (entry: JournalEntry) => {
      keys.update(entry); // before the store changes: old keys are read from it
      for (const op of entry.ops) {
        if (op.t === 'put') store.putRow(op.id, new Map(Object.entries(op.v)));
        else if (op.t === 'set') store.updateCells(op.id, new Map(Object.entries(op.v)));
        else if (op.t === 'del') for (const id of op.ids) store.deleteRow(id);
        else store.truncate();
      }
    };
    commit({ ops: [{ t: 'put', id: 2, v: { code: 20, amount: null, name: 'b' } }] });
    expect(keys.rowOf(keys.keyOf([20, 'b'])!)).toBe(2);
    commit({ ops: [{ t: 'set', id: 2, v: { name: 'c' } }] });
    expect(keys.rowOf(keys.keyOf([20, 'b'])!)).toBeUndefined();
    expect(keys.rowOf(keys.keyOf([20, 'c'])!)).toBe(2);
    commit({ ops: [{ t: 'del', ids: [1] }] });
    expect(keys.rowOf(keys.keyOf([10, 'a'])!)).toBeUndefined();
    commit({ ops: [{ t: 'truncate' }] });
    expect(keys.rowOf(keys.keyOf([20, 'c'])!)).toBeUndefined();
    // The same as an index built afresh from the store.
    expect(new KeyIndex(store, ['code', 'name']).rowOf(keys.keyOf([20, 'c'])!)).toBeUndefined();
  });
});
