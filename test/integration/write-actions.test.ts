import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ckan } from '../helpers/ckan-client';
import type { DatastoreFieldSpec } from '../../src/shared/wire/actions';
import type { DatastoreRecord } from '../../src/shared/wire/search';
import { removeDir, startServer, type ServerProcess } from '../helpers/deskstore-process';

/** The write side of the action API (docs/ckan-contract.md §4–§8) over real HTTP. */
let server: ServerProcess;
let api: ReturnType<typeof ckan>;
let anonymous: ReturnType<typeof ckan>;
let packageId: string;

beforeAll(async () => {
  server = await startServer();
  api = ckan(server.url, server.token);
  anonymous = ckan(server.url);
  packageId = (await api.ok('package_create', { name: 'writes', title: 'Writes' })).id;
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

async function table(fields: DatastoreFieldSpec[], records: DatastoreRecord[], extra: Record<string, unknown> = {}): Promise<string> {
  const created = await api.ok('datastore_create', { resource: { package_id: packageId }, fields, records, ...extra });
  return created.resource_id;
}
const search = (resource_id: string, params: Record<string, unknown> = {}) => api.ok('datastore_search', { resource_id, ...params });
const books = [
  { id: 'isbn', type: 'text' },
  { id: 'title', type: 'text' },
  { id: 'pages', type: 'int' },
];

describe('datastore_create', () => {
  it('creates with a primary key, indexes and aliases, and searches by alias', async () => {
    const rid = await table(books, [{ isbn: '1', title: 'Il nome della rosa', pages: 512 }], {
      primary_key: 'isbn',
      indexes: 'title',
      aliases: 'libri,books',
    });
    expect((await search('libri')).total).toBe(1);
    const info = await api.ok('datastore_info', { id: rid });
    expect(info.meta.aliases).toEqual(['books', 'libri']);
    expect(info.fields[0]?.schema.is_index).toBe(true);
  });

  it('adds columns and appends records on an existing table, and deletes fields when asked', async () => {
    const rid = await table(books, [{ isbn: '1', title: 'A', pages: 1 }]);
    await api.ok('datastore_create', {
      resource_id: rid,
      fields: [{ id: 'year', type: 'int' }],
      records: [{ isbn: '2', title: 'B', pages: 2, year: 1980 }],
    });
    const after = await search(rid);
    expect(after.fields.map((f: { id: string }) => f.id)).toEqual(['_id', 'isbn', 'title', 'pages', 'year']);
    expect(after.records).toEqual([
      { _id: 1, isbn: '1', title: 'A', pages: 1, year: null },
      { _id: 2, isbn: '2', title: 'B', pages: 2, year: 1980 },
    ]);
    await api.ok('datastore_create', { resource_id: rid, fields: [{ id: 'isbn' }, { id: 'title' }], delete_fields: true });
    expect((await search(rid)).fields.map((f: { id: string }) => f.id)).toEqual(['_id', 'isbn', 'title']);
    expect((await search(rid, { q: 'B' })).total).toBe(1);
  });

  it('checks the names of columns an existing table would gain from its records, and changes nothing when one is bad', async () => {
    const rid = await table(books, [{ isbn: '1', title: 'A', pages: 1 }]);
    for (const bad of ['_secret', ' padded', '_id']) {
      const r = await api.post('datastore_create', { resource_id: rid, records: [{ isbn: '2', [bad]: 'x' }] });
      expect([bad, r.status, (r.body as any).error?.fields]).toEqual([bad, 409, [`"${bad}" is not a valid field name`]]);
    }
    const after = await search(rid);
    expect(after.fields.map((f: { id: string }) => f.id)).toEqual(['_id', 'isbn', 'title', 'pages']);
    expect(after.total).toBe(1);
  });

  it('rejects a bad value and stores nothing of the request', async () => {
    const r = await api.post('datastore_create', {
      resource: { package_id: packageId },
      fields: books,
      records: [
        { isbn: '1', pages: 3 },
        { isbn: '2', pages: 'many' },
      ],
    });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ error: { records: ['invalid input syntax for type integer: "many"'], records_row: 1 } });
  });

  it('refuses anonymous writes with 403', async () => {
    const r = await anonymous.post('datastore_create', { resource: { package_id: packageId }, records: [{ a: 1 }] });
    expect(r.status).toBe(403);
  });

  it('refuses every action that changes something without the token, and changes nothing', async () => {
    const rid = await table(books, [{ isbn: '1', title: 'A', pages: 10 }], { primary_key: 'isbn' });
    const writes = [
      'package_create',
      'package_update',
      'package_patch',
      'package_delete',
      'resource_create',
      'resource_update',
      'resource_patch',
      'resource_delete',
      'datastore_create',
      'datastore_upsert',
      'datastore_delete',
      'datastore_records_delete',
      'deskstore_checkpoint',
      'deskstore_import_cancel',
      'deskstore_import_preview',
    ];
    for (const name of writes) {
      const r = await anonymous.post(name, {
        id: rid,
        resource_id: rid,
        package_id: packageId,
        name: 'anonymous-pkg',
        filters: {},
        records: [{ isbn: '9' }],
      });
      expect([name, r.status, (r.body as any).error?.__type]).toEqual([name, 403, 'Authorization Error']);
    }
    expect((await api.ok('datastore_search', { resource_id: rid })).records).toEqual([{ _id: 1, isbn: '1', title: 'A', pages: 10 }]);
  });
});

describe('datastore_upsert', () => {
  it('inserts, updates partially and upserts by primary key or _id', async () => {
    const rid = await table(books, [{ isbn: '1', title: 'A', pages: 10 }], { primary_key: 'isbn' });
    await api.ok('datastore_upsert', { resource_id: rid, method: 'insert', records: [{ isbn: '2', title: 'B' }] });
    await api.ok('datastore_upsert', { resource_id: rid, method: 'update', records: [{ isbn: '1', pages: 11 }] });
    await api.ok('datastore_upsert', {
      resource_id: rid,
      records: [
        { isbn: '3', title: 'C', pages: 3 },
        { isbn: '2', pages: 22 },
      ],
    });
    await api.ok('datastore_upsert', { resource_id: rid, method: 'update', records: [{ _id: 3, title: 'C!' }] });
    expect((await search(rid, { sort: '_id' })).records).toEqual([
      { _id: 1, isbn: '1', title: 'A', pages: 11 },
      { _id: 2, isbn: '2', title: 'B', pages: 22 },
      { _id: 3, isbn: '3', title: 'C!', pages: 3 },
    ]);
  });

  it('is all or nothing: one bad record leaves the table unchanged', async () => {
    const rid = await table(books, [{ isbn: '1', title: 'A', pages: 10 }], { primary_key: 'isbn' });
    const r = await api.post('datastore_upsert', {
      resource_id: rid,
      method: 'insert',
      records: [
        { isbn: '2', title: 'ok' },
        { isbn: '1', title: 'duplicate' },
      ],
    });
    expect(r.status).toBe(409);
    // The unique index is named as CKAN names it (a SHA-1); an insert names its last row.
    expect(r.body).toMatchObject({
      error: { records: [expect.stringMatching(/^duplicate key value violates unique constraint "[0-9a-f]{40}"$/)], records_row: 1 },
    });
    const bad = await api.post('datastore_upsert', {
      resource_id: rid,
      records: [
        { isbn: '1', pages: 5 },
        { isbn: '9', pages: 'x' },
      ],
    });
    expect(bad.status).toBe(409);
    expect((await search(rid)).records).toEqual([{ _id: 1, isbn: '1', title: 'A', pages: 10 }]);
  });

  it('reports the CKAN errors for a missing key, unknown key, bad method and unknown rows', async () => {
    const rid = await table(books, [{ isbn: '1', title: 'A', pages: 10 }], { primary_key: 'isbn' });
    expect((await api.post('datastore_upsert', { resource_id: rid, method: 'merge', records: [] })).body).toMatchObject({
      error: { method: ["Value must be one of ['upsert', 'insert', 'update']"] },
    });
    expect(
      (await api.post('datastore_upsert', { resource_id: rid, method: 'update', records: [{ isbn: '404', pages: 1 }] })).body,
    ).toMatchObject({ error: { key: ["key \"{'val_2': '404'}\" not found"] } });
    expect((await api.post('datastore_upsert', { resource_id: 'nope', records: [] })).status).toBe(404);
  });

  it('dry_run validates and reports but changes nothing', async () => {
    const rid = await table(books, [{ isbn: '1', title: 'A', pages: 10 }], { primary_key: 'isbn' });
    await api.ok('datastore_upsert', { resource_id: rid, dry_run: true, records: [{ isbn: '2', title: 'B' }] });
    expect((await search(rid)).total).toBe(1);
    expect((await api.post('datastore_upsert', { resource_id: rid, dry_run: true, records: [{ isbn: '2', pages: 'x' }] })).status).toBe(
      409,
    );
  });
});

describe('datastore_delete and datastore_records_delete', () => {
  it('deletes filtered rows, all rows with {} (keeping the table), or the table', async () => {
    const rid = await table(
      books,
      [
        { isbn: '1', title: 'A', pages: 1 },
        { isbn: '2', title: 'B', pages: 2 },
        { isbn: '3', title: 'B', pages: 3 },
      ],
      { aliases: 'todelete' },
    );
    await api.ok('datastore_records_delete', { resource_id: rid, filters: { title: 'B', pages: { gte: 3 } } });
    expect((await search(rid)).total).toBe(2);
    expect((await api.post('datastore_records_delete', { resource_id: rid })).body).toMatchObject({
      error: { filters: ['Missing value'] },
    });
    expect((await api.post('datastore_delete', { resource_id: rid, filters: 'x' })).body).toMatchObject({
      error: { filters: ['filters must be either a dict or null.'] },
    });
    await api.ok('datastore_delete', { resource_id: rid, filters: {} });
    const empty = await search(rid);
    expect(empty.total).toBe(0);
    await api.ok('datastore_upsert', { resource_id: rid, method: 'insert', records: [{ isbn: '4' }] });
    expect((await search(rid)).records[0]._id).toBe(4); // _id keeps counting after a delete
    await api.ok('datastore_delete', { resource_id: rid });
    expect((await api.post('datastore_search', { resource_id: rid })).status).toBe(404);
    expect((await api.post('datastore_search', { resource_id: 'todelete' })).status).toBe(404);
    expect((await api.ok('resource_show', { id: rid })).datastore_active).toBe(false);
  });
});

describe('datastore_search_sql', () => {
  it('joins resources by id and by alias, read-only', async () => {
    const a = await table(
      [
        { id: 'code', type: 'text' },
        { id: 'name', type: 'text' },
      ],
      [
        { code: 'TO', name: 'Torino' },
        { code: 'MI', name: 'Milano' },
      ],
      { aliases: 'province_sql' },
    );
    const b = await table(
      [
        { id: 'code', type: 'text' },
        { id: 'price', type: 'numeric' },
      ],
      [
        { code: 'TO', price: 1.5 },
        { code: 'TO', price: 2.5 },
        { code: 'MI', price: 4 },
      ],
    );
    const r = await api.ok('datastore_search_sql', {
      sql: `SELECT p.name, sum(x.price) AS total FROM province_sql p JOIN "${b}" x ON x.code = p.code GROUP BY p.name ORDER BY p.name`,
    });
    expect(r.records).toEqual([
      { name: 'Milano', total: 4 },
      { name: 'Torino', total: 4 },
    ]);
    expect(r.fields).toEqual([
      { id: 'name', type: 'text' },
      { id: 'total', type: 'numeric' },
    ]);
    for (const sql of [
      `DELETE FROM "${a}"`,
      `INSERT INTO "${a}" (code) VALUES ('X')`,
      'PRAGMA table_info(x)',
      `ATTACH DATABASE 'x' AS y`,
    ]) {
      const refused = await api.post('datastore_search_sql', { sql });
      expect(refused.status, sql).toBe(409);
    }
    expect((await api.post('datastore_search_sql', { sql: 'SELECT * FROM pg_class' })).status).toBe(403);
    // SQLite's own catalogue is not there, as on PostgreSQL.
    expect((await api.post('datastore_search_sql', { sql: 'SELECT * FROM sqlite_master' })).body).toMatchObject({
      error: { query: ['relation "sqlite_master" does not exist'] },
    });
    expect((await api.post('datastore_search_sql', { sql: `SELECT 1; SELECT 2` })).body).toMatchObject({
      error: { query: ['Query is not a single statement.'] },
    });
    expect((await search(a)).total).toBe(2);
  });

  it('caps the rows at 32000 and says so', async () => {
    const rid = await table(
      [{ id: 'n', type: 'int' }],
      Array.from({ length: 32_005 }, (_, n) => ({ n })),
    );
    const r = await api.ok('datastore_search_sql', { sql: `SELECT n FROM "${rid}"` });
    expect(r.records).toHaveLength(32_000);
    expect(r.records_truncated).toBe(true);
  });
});

describe('catalogue actions', () => {
  it('updates, patches and deletes datasets and resources; deleting a resource drops its table', async () => {
    const pkg = await api.ok('package_create', { name: 'catalogue-test', title: 'Before', notes: 'n' });
    const patched = await api.ok('package_patch', { id: pkg.id, title: 'After' });
    expect(patched).toMatchObject({ name: 'catalogue-test', title: 'After', notes: 'n' });
    const updated = await api.ok('package_update', { id: pkg.id, name: 'catalogue-test-2' });
    expect(updated).toMatchObject({ name: 'catalogue-test-2', notes: '' });
    expect((await api.post('package_create', { name: 'catalogue-test-2' })).body).toMatchObject({
      error: { name: ['That URL is already in use.'] },
    });
    expect((await api.post('package_create', { name: 'Bad Name' })).status).toBe(409);
    const rid = (await api.ok('datastore_create', { resource: { package_id: pkg.id, name: 'r' }, records: [{ a: 1 }] })).resource_id;
    expect((await api.ok('resource_patch', { id: rid, description: 'desc' })).description).toBe('desc');
    expect((await api.ok('resource_show', { id: rid })).name).toBe('r');
    await api.ok('resource_delete', { id: rid });
    expect((await api.post('resource_show', { id: rid })).status).toBe(404);
    expect((await api.post('datastore_search', { resource_id: rid })).status).toBe(404);
    await api.ok('package_delete', { id: pkg.id });
    expect((await api.post('package_show', { id: pkg.id })).status).toBe(404);
  });

  it('finds datasets by title, name and resource name with package_search', async () => {
    await api.ok('package_create', { name: 'carburanti-2022', title: 'Prezzi dei carburanti' });
    const found = await api.ok('package_search', { q: 'carburanti' });
    expect(found.results.map((p: { name: string }) => p.name)).toContain('carburanti-2022');
    expect((await api.ok('package_search', { q: 'prezzi carburanti', rows: 1 })).results).toHaveLength(1);
  });
});
