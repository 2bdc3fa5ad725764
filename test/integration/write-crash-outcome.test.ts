import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ckan } from '../helpers/ckan-client';
import { removeDir, startServer, type ServerProcess } from '../helpers/deskstore-process';

/**
 * Issue 8: when the engine worker crashed during a write, the answer said "may or may not
 * have been saved". The restarted worker now reads the answer from the journal: a write whose
 * entry is there succeeded (and is there once), one whose entry is not was not saved, and the
 * answer says retrying is safe. The crash is injected by DESKSTORE_TEST_FAULT
 * (src/main/engine/test-faults.ts) right before or right after the journal append.
 */
let server: ServerProcess;
beforeAll(async () => {
  server = await startServer({
    // The last one matches any delete of rows: only one test here deletes.
    env: { DESKSTORE_TEST_FAULT: 'after-journal:CRASH-AFTER-SAVING,before-journal:CRASH-BEFORE-SAVING,after-journal:"t":"del"' },
  });
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

async function table(name: string): Promise<string> {
  const api = ckan(server.url, server.token);
  const pkg = await api.ok('package_create', { name });
  // No key: a retried insert would show up as a second row.
  return (
    await api.ok('datastore_create', {
      resource: { package_id: pkg.id },
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
