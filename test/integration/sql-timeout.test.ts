import { afterAll, beforeAll, expect, it } from 'vitest';
import { ckan } from '../helpers/ckan-client';
import { removeDir, startServer, type ServerProcess } from '../helpers/deskstore-process';

/**
 * datastore_search_sql has a time limit. Queries run in the SQL worker, which is terminated
 * past the limit; the calls sent meanwhile get their real answers and nothing acknowledged is
 * lost (user SQL never runs on the engine worker: sql-worker.test.ts).
 */
let server: ServerProcess;
beforeAll(async () => {
  // Runaway queries use functions and column lists CKAN's allow-list refuses: the point here is the time limit.
  server = await startServer({ args: ['--sql-timeout-s', '2', '--sql-functions', 'all'] });
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

it('stops a runaway query with "Query took too long" and keeps every acknowledged write', async () => {
  const api = ckan(server.url, server.token);
  const pkg = await api.ok('package_create', { name: 'slow' });
  const rid = (await api.ok('datastore_create', { resource: { package_id: pkg.id }, primary_key: 'k', records: [{ k: 'a', v: 1 }] }))
    .resource_id;
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

it('answers the writes and searches queued behind a runaway query with their real outcomes: an insert is saved once', async () => {
  const api = ckan(server.url, server.token);
  const pkg = await api.ok('package_create', { name: 'bystanders' });
  // No key: a retried insert would show up as a duplicate row.
  const rid = (
    await api.ok('datastore_create', { resource: { package_id: pkg.id }, fields: [{ id: 'n', type: 'int4' }], records: [{ n: 1 }] })
  ).resource_id;
  const slow = api.post('datastore_search_sql', {
    sql: `WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c) SELECT count(*) FROM c, "${rid}"`,
  });
  // Give the query a moment to start, so the SQL query below waits behind it in the SQL worker.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const [insert, search, sql] = await Promise.all([
    api.post('datastore_upsert', { resource_id: rid, method: 'insert', records: [{ n: 2 }] }),
    api.post('datastore_search', { resource_id: rid }),
    // An expression: a plain count or sum would be answered by the engine's column store, not queued in the SQL worker.
    api.post('datastore_search_sql', { sql: `SELECT sum(n + 0) AS s FROM "${rid}"` }),
  ]);
  expect((await slow).body).toMatchObject({ error: { query: ['Query took too long'] } });
  expect([insert.status, (insert.body as any).success]).toEqual([200, true]);
  expect([search.status, (search.body as any).success]).toEqual([200, true]);
  // Its own time limit counts from when it ran, not from when it was queued behind the runaway one.
  expect([sql.status, (sql.body as any).success]).toEqual([200, true]);
  const after = await api.ok('datastore_search', { resource_id: rid, sort: 'n' });
  expect(after.records.map((r: { n: number }) => r.n)).toEqual([1, 2]);
});
