import { afterAll, beforeAll, expect, it } from 'vitest';
import { ckan } from '../helpers/ckan-client';
import { removeDir, startServer, type ServerProcess } from '../helpers/deskstore-process';

/**
 * datastore_search_sql has a time limit. sql.js cannot be interrupted from outside, so the
 * engine worker is terminated and restarted; everything acknowledged is on disk, so nothing
 * is lost, and the server keeps answering.
 */
let server: ServerProcess;
beforeAll(async () => {
  server = await startServer({ args: ['--sql-timeout-s', '1'] });
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

it('stops a runaway query with "Query took too long" and keeps every acknowledged write', async () => {
  const api = ckan(server.url, server.token);
  const pkg = await api.ok('package_create', { name: 'slow' });
  const rid = (await api.ok('datastore_create', { resource: { package_id: pkg.id }, primary_key: 'k', records: [{ k: 'a', v: 1 }] })).resource_id;
  await api.ok('datastore_upsert', { resource_id: rid, records: [{ k: 'b', v: 2 }] });
  // The query never ends on its own: without the limit this request would hang until the test times out.
  const slow = await api.post('datastore_search_sql', {
    sql: `WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c) SELECT count(*) FROM c, "${rid}"`,
  });
  expect(slow.status).toBe(409);
  expect(slow.body).toMatchObject({ error: { query: ['Query took too long'] } });
  const after = await api.ok('datastore_search', { resource_id: rid, sort: 'k' });
  expect(after.records.map((r: { k: string }) => r.k)).toEqual(['a', 'b']);
  await api.ok('datastore_upsert', { resource_id: rid, records: [{ k: 'c', v: 3 }] });
  expect((await api.ok('datastore_search', { resource_id: rid })).total).toBe(3);
});
