import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchRequest } from '../../../src/main/params/search-params';
import { Engine } from '../../../src/main/engine/engine';
import { ValidationError } from '../../../src/main/errors';
import { removeDir, tempDir } from '../../helpers/deskstore-process';

/** `{"col": {"deskstore_empty": true|false}}`: blank cells as a filter value (CKAN's `filters` has no "is empty"). */
let engine: Engine;
let dataDir: string;
const rid = '00000000-0000-4000-8000-0000000000e1';
const RECORDS = [
  { name: 'a', n: 1 },
  { name: '', n: null },
  { name: null, n: 3 },
  { name: 'b', n: null },
  { name: 'a', n: 5 },
];

function ids(filters: unknown): number[] {
  const out = engine.search(searchRequest({ resource_id: rid, filters, fields: '_id', sort: '_id', limit: 100 }));
  return (JSON.parse(out.records) as { _id: number }[]).map((r) => r._id);
}

beforeAll(async () => {
  dataDir = tempDir();
  engine = new Engine({ dataDir });
  engine.packageCreate({ name: 'empty' }, 'http://x');
  engine.resourceCreate({ package_id: 'empty', id: rid, url_type: 'datastore' }, 'http://x');
  await engine.datastoreCreate({
    resourceId: rid,
    fields: [
      { id: 'name', type: 'text' },
      { id: 'n', type: 'int' },
    ],
    records: RECORDS,
    force: true,
    deleteFields: false,
  });
});

afterAll(async () => {
  await engine.close();
  removeDir(dataDir);
});

describe('deskstore_empty', () => {
  it('matches NULL, and the empty string in a text column', () => {
    expect(ids({ name: { deskstore_empty: true } })).toEqual([2, 3]);
    expect(ids({ name: { deskstore_empty: false } })).toEqual([1, 4, 5]);
    expect(ids({ n: { deskstore_empty: true } })).toEqual([2, 4]);
    expect(ids({ n: { deskstore_empty: false } })).toEqual([1, 3, 5]);
  });

  it('combines with values in one list (any item matches) and with other columns (all must)', () => {
    expect(ids({ name: ['a', { deskstore_empty: true }] })).toEqual([1, 2, 3, 5]);
    expect(ids({ name: { deskstore_empty: false }, n: { deskstore_empty: true } })).toEqual([4]);
    expect(ids({ $or: [{ name: { deskstore_empty: true } }, { n: 5 }] })).toEqual([2, 3, 5]);
  });

  it('never holds for _id, and refuses anything but true or false', () => {
    expect(ids({ _id: { deskstore_empty: true } })).toEqual([]);
    expect(ids({ _id: { deskstore_empty: false } })).toEqual([1, 2, 3, 4, 5]);
    expect(() => ids({ name: { deskstore_empty: 'yes' } })).toThrow(ValidationError);
    expect(() => ids({ name: { deskstore_empty: 'yes' } })).toThrow(/deskstore_empty/);
  });

  it('counts in facets and deletes the same rows', async () => {
    const facets = engine.facets({ resourceId: rid, field: 'n', filters: { name: { deskstore_empty: true } }, plain: true, limit: 10 });
    expect(facets.rows).toBe(2);
    await engine.datastoreDelete({ resourceId: rid, filters: { name: { deskstore_empty: true } }, force: true });
    expect(ids({})).toEqual([1, 4, 5]);
  });
});
