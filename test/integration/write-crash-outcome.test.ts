import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ckan } from '../helpers/ckan-client';
import { removeDir, startServer, type ServerProcess } from '../helpers/deskstore-process';

/**
 * Issue 8: when the engine worker crashed during a write, the answer said "may or may not
 * have been saved". The restarted worker now reads the answer from where the write is saved:
 * the journal for row writes, the catalogue for everything else (datastore_create, the drop of
 * a table, the catalogue actions). A write found there succeeded (and is there once), one not
 * found was not saved, and the answer says retrying is safe. The crash is injected by
 * DESKSTORE_TEST_FAULT (src/main/engine/test-faults.ts) right before or right after the
 * journal append or the catalogue commit.
 */
let server: ServerProcess;
beforeAll(async () => {
  server = await startServer({
    // The last one matches any delete of rows: only one test here deletes.
    env: {
      DESKSTORE_TEST_FAULT: [
        'after-journal:CRASH-AFTER-SAVING',
        'before-journal:CRASH-BEFORE-SAVING',
        'after-journal:"t":"del"',
        // Catalogue commits: matched against the request, each sent once below.
        'after-commit:commit-then-crash',
        'before-commit:crash-before-commit',
        'after-commit:"resourceId":"drop-me-then-crash"',
        'before-commit:["keep-me-crash-1"]',
      ].join(','),
    },
  });
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

/** A dataset `name` with one table (the resource's id `id` if given) holding one row, `prima`. */
async function table(name: string, id?: string): Promise<string> {
  const api = ckan(server.url, server.token);
  const pkg = await api.ok('package_create', { name });
  // No key: a retried insert would show up as a second row.
  return (
    await api.ok('datastore_create', {
      resource: { package_id: pkg.id, ...(id ? { id } : {}) },
      fields: [{ id: 'testo', type: 'text' }],
      records: [{ testo: 'prima' }],
    })
  ).resource_id;
}

describe('a write the engine crashed in', () => {
  it('is answered as saved when its journal entry was written, and is there once', async () => {
    const api = ckan(server.url, server.token);
    const rid = await table('crash-after');
    const write = await api.post('datastore_upsert', { resource_id: rid, method: 'insert', records: [{ testo: 'CRASH-AFTER-SAVING' }] });
    expect(server.stderr()).toMatch(/engine worker stopped unexpectedly \(exit code 70\)/);
    expect([write.status, (write.body as any).success]).toEqual([200, true]);
    const rows = await api.ok('datastore_search', { resource_id: rid, sort: '_id' });
    expect(rows.records.map((r: { testo: string }) => r.testo)).toEqual(['prima', 'CRASH-AFTER-SAVING']);
    // The engine goes on: the next write and search are answered as usual.
    await api.ok('datastore_upsert', { resource_id: rid, method: 'insert', records: [{ testo: 'dopo' }] });
    expect((await api.ok('datastore_search', { resource_id: rid })).total).toBe(3);
  });

  it('is answered as not saved when the crash came before its journal entry, and nothing of it is there', async () => {
    const api = ckan(server.url, server.token);
    const rid = await table('crash-before');
    const write = await api.post('datastore_upsert', {
      resource_id: rid,
      method: 'insert',
      records: [{ testo: 'uno' }, { testo: 'CRASH-BEFORE-SAVING' }],
    });
    expect((write.body as any).success).toBe(false);
    expect(JSON.stringify(write.body)).toMatch(/was not saved.*sending it again is safe/);
    const rows = await api.ok('datastore_search', { resource_id: rid, sort: '_id' });
    expect(rows.records.map((r: { testo: string }) => r.testo)).toEqual(['prima']);
  });

  it('answers a filtered delete saved before the crash with its success', async () => {
    const api = ckan(server.url, server.token);
    const rid = await table('crash-delete');
    await api.ok('datastore_upsert', { resource_id: rid, method: 'insert', records: [{ testo: 'due' }, { testo: 'tre' }] });
    const del = await api.post('datastore_records_delete', { resource_id: rid, filters: { testo: 'due' } });
    expect([del.status, (del.body as any).success, (del.body as any).result]).toEqual([
      200,
      true,
      { resource_id: rid, filters: { testo: 'due' } },
    ]);
    const rows = await api.ok('datastore_search', { resource_id: rid, sort: '_id' });
    expect(rows.records.map((r: { testo: string }) => r.testo)).toEqual(['prima', 'tre']);
    expect(server.stderr().match(/engine worker stopped unexpectedly/g)?.length).toBe(3);
  });
});

const notSaved = /was not saved: nothing of it is in the data, and sending it again is safe/;

describe('a catalogue write the engine crashed in', () => {
  it('answers a package_create committed before the crash with the package, which is there once', async () => {
    const api = ckan(server.url, server.token);
    const created = await api.post('package_create', { name: 'saved-package', notes: 'commit-then-crash' });
    expect([created.status, (created.body as any).success]).toEqual([200, true]);
    const pkg = (created.body as any).result;
    expect([pkg.name, pkg.notes]).toEqual(['saved-package', 'commit-then-crash']);
    expect((await api.ok('package_show', { id: 'saved-package' })).id).toBe(pkg.id);
    expect((await api.ok('package_list')).filter((n: string) => n === 'saved-package')).toHaveLength(1);
  });

  it('answers a package_create that crashed before its commit as not saved, and nothing of it is there', async () => {
    const api = ckan(server.url, server.token);
    const created = await api.post('package_create', { name: 'lost-package', notes: 'crash-before-commit' });
    expect((created.body as any).success).toBe(false);
    expect(created.text).toMatch(notSaved);
    expect((await api.post('package_show', { id: 'lost-package' })).status).toBe(404);
    // As the answer says, sending it again is safe (here without the fault's marker).
    expect((await api.ok('package_create', { name: 'lost-package' })).name).toBe('lost-package');
  });

  it('answers a datastore_create of a new resource committed before the crash with its resource id', async () => {
    const api = ckan(server.url, server.token);
    const pkg = await api.ok('package_create', { name: 'create-then-crash' });
    const created = await api.post('datastore_create', {
      resource: { package_id: pkg.id, name: 'commit-then-crash' },
      fields: [{ id: 'n', type: 'int' }, { id: 'parola' }],
      records: [{ n: 1, parola: 'uno' }],
    });
    expect([created.status, (created.body as any).success]).toEqual([200, true]);
    const rid = (created.body as any).result.resource_id;
    expect((await api.ok('package_show', { id: pkg.id })).resources.map((r: { id: string }) => r.id)).toEqual([rid]);
    const rows = await api.ok('datastore_search', { resource_id: rid });
    expect([rows.total, rows.records[0].parola]).toEqual([1, 'uno']);
  });

  it('answers a datastore_create on a table that crashed before its commit as not saved; the table is as it was', async () => {
    const api = ckan(server.url, server.token);
    const rid = await table('create-before-crash');
    const extended = await api.post('datastore_create', {
      resource_id: rid,
      fields: [
        { id: 'testo', type: 'text' },
        { id: 'nuova', type: 'text' },
      ],
      records: [{ testo: 'crash-before-commit', nuova: 'x' }],
    });
    expect((extended.body as any).success).toBe(false);
    expect(extended.text).toMatch(notSaved);
    const info = await api.ok('datastore_search', { resource_id: rid });
    expect(info.fields.map((f: { id: string }) => f.id)).toEqual(['_id', 'testo']);
    expect(info.records.map((r: { testo: string }) => r.testo)).toEqual(['prima']);
  });

  it('answers the drop of a table committed before the crash with its success; the table is gone', async () => {
    const api = ckan(server.url, server.token);
    await table('drop-then-crash', 'drop-me-then-crash');
    const dropped = await api.post('datastore_delete', { resource_id: 'drop-me-then-crash' });
    expect([dropped.status, (dropped.body as any).result]).toEqual([200, { resource_id: 'drop-me-then-crash' }]);
    expect((await api.post('datastore_search', { resource_id: 'drop-me-then-crash' })).status).toBe(404);
    expect((await api.ok('resource_show', { id: 'drop-me-then-crash' })).datastore_active).toBe(false);
  });

  it('answers a resource_delete that crashed before its commit as not saved; the resource and its table stay', async () => {
    const api = ckan(server.url, server.token);
    await table('keep-me', 'keep-me-crash-1');
    const deleted = await api.post('resource_delete', { id: 'keep-me-crash-1' });
    expect((deleted.body as any).success).toBe(false);
    expect(deleted.text).toMatch(notSaved);
    expect((await api.ok('datastore_search', { resource_id: 'keep-me-crash-1' })).records[0].testo).toBe('prima');
    // Nine crashes in this file so far (one per test), each answered.
    expect(server.stderr().match(/engine worker stopped unexpectedly/g)?.length).toBe(9);
  });
});
