import { afterAll, describe, expect, it } from 'vitest';
import { TableStore } from '../../../src/main/engine/column-store/table-store';
import { fieldTypeOf } from '../../../src/main/engine/field-types';
import { readColumnsFile, writeColumnsFile } from '../../../src/main/engine/storage/resource-files';
import { buildTextIndex } from '../../../src/main/engine/text-index/build-text-index';
import { coerceValue, type StoredValue } from '../../../src/main/engine/values/coerce';
import { changePage } from '../../../src/main/engine/versions/change-records';
import { countsOf, diffStores, type RowDiff, type RowMatching } from '../../../src/main/engine/versions/row-diff';
import { ValidationError } from '../../../src/main/errors';
import { removeDir, tempDir } from '../../helpers/deskstore-process';

/**
 * Issue 25: the rows that differ between two versions, values compared exactly (a numeric's
 * scale, int8 past 2^53, a timestamp's fraction, an accent), rows matched by the rules of
 * docs/versions.md; the same answer whether the versions are in memory or read from their
 * columns files (where text is compared as UTF-8 bytes and numbers as doubles).
 */
const dir = tempDir();
afterAll(() => removeDir(dir));

type Row = Record<string, unknown>;
let generation = 0;

/** A store of `rows` (keys `_id` and columns) with the given column types, values coerced as an upsert would. */
function store(types: Record<string, string>, rows: readonly Row[]): TableStore {
  const s = TableStore.empty(Object.entries(types).map(([id, type]) => ({ id, type: fieldTypeOf(type) })));
  rows.forEach((row, i) => {
    const values = new Map<string, StoredValue>();
    for (const [id, type] of Object.entries(types)) values.set(id, coerceValue(row[id] ?? null, fieldTypeOf(type)));
    s.putRow((row._id as number | undefined) ?? i + 1, values);
  });
  return s;
}

/** The same store written to a columns file and read back, as the changes worker reads versions. */
function fromFile(s: TableStore): TableStore {
  generation++;
  writeColumnsFile(dir, generation, {
    store: s,
    textIndex: buildTextIndex(s, 'simple', new Set()),
    indexedColumns: [],
    ftsLanguage: 'simple',
  });
  return readColumnsFile(dir, generation).store;
}

const NO_KEY: RowMatching = { primaryKey: [], rowIdsStable: false };

/** Diffs in memory and from files, checks both agree, returns the in-memory one. */
function diff(before: TableStore, after: TableStore, matching: RowMatching = NO_KEY): RowDiff {
  const inMemory = diffStores(before, after, matching);
  const filed = diffStores(fromFile(before), fromFile(after), matching);
  expect({ ...filed }).toEqual({ ...inMemory });
  return inMemory;
}

function records(d: RowDiff, before: TableStore, after: TableStore, kind: 'added' | 'removed' | 'changed' | null = null) {
  return JSON.parse(changePage(d, before, after, kind, 0, 1000).records) as Row[];
}

describe('values compare exactly', () => {
  const types = { code: 'text', amount: 'numeric', big: 'int8', at: 'timestamp', name: 'text', ratio: 'float8' };
  const base = [
    { code: 'a', amount: '2.5', big: '9007199254740993', at: '2024-01-01T10:00:00', name: 'citta', ratio: 0.5 },
    { code: 'b', amount: '10', big: '1', at: '2024-01-01T10:00:00.250', name: 'Forlì', ratio: 1 },
    { code: 'c', amount: '7.125', big: '-9223372036854775808', at: '2024-02-29T23:59:59', name: '東京', ratio: -0.25 },
    { code: 'd', amount: '1', big: '5', at: '2024-03-01T00:00:00', name: 'same', ratio: 3 },
  ];

  it('tells a scale, the last digit of an int8, a fraction of a second and an accent apart', () => {
    const after = [
      { ...base[0], amount: '2.50', name: 'città' }, // scale; accent only
      { ...base[1], at: '2024-01-01T10:00:00.251' }, // a millisecond
      { ...base[2], big: '-9223372036854775807' }, // beyond 2^53: a double could not tell
      { ...base[3] },
    ];
    const b = store(types, base);
    const a = store(types, after);
    const d = diff(b, a);
    expect(d.key).toEqual(['code']);
    expect(countsOf(d)).toEqual({ added: 0, removed: 0, changed: 3 });
    const changed = records(d, b, a, 'changed');
    expect(changed.map((r) => r._before)).toEqual([
      { amount: 2.5, name: 'citta' },
      { at: '2024-01-01T10:00:00' }, // the wire shows seconds (CKAN 2.11), the stored value has the fraction
      { big: -9223372036854775808 },
    ]);
    expect(changed[0]).toMatchObject({ _change: 'changed', code: 'a', name: 'città' });
  });

  it('finds nothing between equal versions, however they are stored', () => {
    const d = diff(
      store(types, base),
      store(
        types,
        base.map((r) => ({ ...r })),
      ),
    );
    expect(countsOf(d)).toEqual({ added: 0, removed: 0, changed: 0 });
  });

  it('tells a number from the same text, and a missing value from an empty text', () => {
    const b = store({ k: 'int4', v: 'text' }, [
      { k: 1, v: '' },
      { k: 2, v: null },
    ]);
    const a = store({ k: 'int4', v: 'text' }, [
      { k: 1, v: null },
      { k: 2, v: '' },
    ]);
    expect(countsOf(diff(b, a))).toEqual({ added: 0, removed: 0, changed: 2 });
    // A column whose type changed from int4 to text: 5 and "5" differ on the wire.
    const typed = diff(store({ k: 'text', v: 'int4' }, [{ k: 'x', v: 5 }]), store({ k: 'text', v: 'text' }, [{ k: 'x', v: '5' }]));
    expect(countsOf(typed)).toEqual({ added: 0, removed: 0, changed: 1 });
  });
});

describe('rows are matched', () => {
  const types = { id: 'int4', code: 'text', name: 'text' };

  it('by the key given, which may be _id or several columns', () => {
    const b = store(types, [
      { id: 1, code: 'x', name: 'one' },
      { id: 2, code: 'y', name: 'two' },
    ]);
    const a = store(types, [
      { id: 1, code: 'y', name: 'two' },
      { id: 2, code: 'x', name: 'one' },
    ]);
    const byId = diff(b, a, { ...NO_KEY, key: ['id'] });
    expect(byId).toMatchObject({ key: ['id'], reason: 'given' });
    expect(countsOf(byId)).toEqual({ added: 0, removed: 0, changed: 2 });
    const byCode = diff(b, a, { ...NO_KEY, key: ['code', 'name'] });
    expect(countsOf(byCode)).toEqual({ added: 0, removed: 0, changed: 2 }); // `id` differs
    expect(records(byCode, b, a).map((r) => r._before)).toEqual([{ id: 2 }, { id: 1 }]);
    expect(countsOf(diff(b, a, { ...NO_KEY, key: ['_id'] }))).toEqual({ added: 0, removed: 0, changed: 2 });
    expect(() => diffStores(b, store({ id: 'int4' }, [{ id: 1 }]), { ...NO_KEY, key: ['code'] })).toThrow(ValidationError);
  });

  it('by the primary key when both versions have its columns, else by the next rule', () => {
    const b = store(types, [
      { id: 1, code: 'x', name: 'one' },
      { id: 2, code: 'y', name: 'two' },
    ]);
    const a = store(types, [
      { id: 1, code: 'x', name: 'uno' },
      { id: 3, code: 'y', name: 'two' },
    ]);
    const pk = diff(b, a, { primaryKey: ['code'], rowIdsStable: false });
    expect(pk).toMatchObject({ key: ['code'], reason: 'primary_key' });
    expect(countsOf(pk)).toEqual({ added: 0, removed: 0, changed: 2 });
    const missing = diff(b, a, { primaryKey: ['gone'], rowIdsStable: false });
    expect(missing.reason).toBe('unique_column');
  });

  it('by the unique, non-empty column sharing the most values; `_id` only when the ids are the portal’s', () => {
    // `id` is unique but renumbered (shares 1 value); `code` is unique and shares 3.
    const b = store(types, [
      { id: 1, code: 'x', name: 'n' },
      { id: 2, code: 'y', name: 'n' },
      { id: 3, code: 'z', name: 'n' },
    ]);
    const a = store(types, [
      { id: 1, code: 'y', name: 'n' },
      { id: 5, code: 'z', name: 'n' },
      { id: 6, code: 'x', name: 'm' },
    ]);
    const d = diff(b, a);
    expect(d).toMatchObject({ key: ['code'], reason: 'unique_column' });
    expect(countsOf(d)).toEqual({ added: 0, removed: 0, changed: 3 });
    // A column with an empty cell, or a repeated value, is no key: whole rows then.
    const noKey = store({ a: 'text', b: 'text' }, [
      { a: 'x', b: null },
      { a: 'x', b: 'q' },
    ]);
    const whole = diff(
      noKey,
      store({ a: 'text', b: 'text' }, [
        { a: 'x', b: 'q' },
        { a: 'x', b: 'r' },
      ]),
    );
    expect(whole.key).toBe('row');
    expect(countsOf(whole)).toEqual({ added: 1, removed: 1, changed: 0 });
    // With the portal's ids, `_id` is a candidate too.
    const ids = diff(
      noKey,
      store({ a: 'text', b: 'text' }, [
        { a: 'x', b: 'z' },
        { a: 'x', b: 'q' },
      ]),
      { primaryKey: [], rowIdsStable: true },
    );
    expect(ids).toMatchObject({ key: ['_id'], reason: 'unique_column' });
    expect(countsOf(ids)).toEqual({ added: 0, removed: 0, changed: 1 });
  });

  it('whole, pairing identical rows in _id order: moving rows changes nothing, editing one is removed + added', () => {
    const types2 = { a: 'text', b: 'int4' };
    const b = store(types2, [
      { a: 'x', b: 1 },
      { a: 'x', b: 1 },
      { a: 'y', b: 2 },
    ]);
    const a = store(types2, [
      { a: 'y', b: 2 },
      { a: 'x', b: 1 },
      { a: 'x', b: 3 },
    ]);
    const d = diff(b, a);
    expect(d.key).toBe('row');
    expect(countsOf(d)).toEqual({ added: 1, removed: 1, changed: 0 });
    expect(Array.from(d.removed)).toEqual([2]); // the second of the two identical rows
    expect(Array.from(d.added)).toEqual([3]);
  });

  it('by a key with repeated values, the n-th of one version with the n-th of the other', () => {
    const b = store(types, [
      { id: 1, code: 'x', name: 'a' },
      { id: 1, code: 'y', name: 'b' },
    ]);
    const a = store(types, [
      { id: 1, code: 'x', name: 'A' },
      { id: 1, code: 'y', name: 'b' },
      { id: 1, code: 'z', name: 'c' },
    ]);
    const d = diff(b, a, { ...NO_KEY, key: ['id'] });
    expect(countsOf(d)).toEqual({ added: 1, removed: 0, changed: 1 });
    expect(records(d, b, a, 'changed')).toEqual([{ _change: 'changed', _id: 1, id: 1, code: 'x', name: 'A', _before: { name: 'a' } }]);
  });
});

describe('the records', () => {
  it('come added, removed, then changed, each in _id order, paged, with the old values of changed cells', () => {
    const b = store({ k: 'text', v: 'int4', gone: 'text' }, [
      { k: 'a', v: 1, gone: 'g1' },
      { k: 'b', v: 2, gone: null },
      { k: 'c', v: 3, gone: null },
    ]);
    const a = store({ k: 'text', v: 'int4', fresh: 'bool' }, [
      { k: 'b', v: 2 },
      { k: 'a', v: 10, fresh: true },
      { k: 'd', v: 4 },
    ]);
    const d = diff(b, a, { ...NO_KEY, key: ['k'] });
    expect(d.columns).toEqual(['k', 'v', 'fresh', 'gone']);
    const all = records(d, b, a);
    expect(all).toEqual([
      { _change: 'added', _id: 3, k: 'd', v: 4, fresh: null },
      { _change: 'removed', _id: 3, k: 'c', v: 3, gone: null },
      { _change: 'changed', _id: 2, k: 'a', v: 10, fresh: true, _before: { v: 1, fresh: null, gone: 'g1' } },
    ]);
    const page = changePage(d, b, a, null, 1, 1);
    expect(page.total).toBe(3);
    expect(JSON.parse(page.records)).toEqual([all[1]]);
    expect(changePage(d, b, a, 'changed', 0, 10).total).toBe(1);
    expect(page.fields).toEqual([
      { id: '_id', type: 'int' },
      { id: 'k', type: 'text' },
      { id: 'v', type: 'int4' },
      { id: 'fresh', type: 'bool' },
      { id: 'gone', type: 'text' },
    ]);
  });
});
