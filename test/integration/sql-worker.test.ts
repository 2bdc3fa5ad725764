import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ckan } from '../helpers/ckan-client';
import { removeDir, startServer, type ServerProcess } from '../helpers/deskstore-process';

/**
 * Issue 8: a slow datastore_search_sql held the one engine thread, so every search and write
 * waited behind it. Queries now run in the SQL worker, on the tables as the engine acknowledged
 * them (generation file + journal, or an image of the engine's table when the file is not
 * usable), and a query past its limit stops only that worker. Counts and sums here are written
 * as expressions (`count(*) + 0`, `sum(n + 0)`): a plain aggregate is answered by the engine's
 * column store (engine/sql/column-aggregate.ts) and would not reach the worker these tests are about.
 */
let server: ServerProcess;
beforeAll(async () => {
  // Runaway queries use functions and column lists CKAN's allow-list refuses: the point here is the worker.
  server = await startServer({ args: ['--sql-timeout-s', '3', '--sql-functions', 'all'] });
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

async function checkpointedTable(name: string): Promise<string> {
  const api = ckan(server.url, server.token);
  const pkg = await api.ok('package_create', { name });
  const rid = (
    await api.ok('datastore_create', {
      resource: { package_id: pkg.id },
      fields: [
        { id: 'n', type: 'int4' },
        { id: 'testo', type: 'text' },
      ],
      records: Array.from({ length: 50 }, (_, n) => ({ n, testo: `riga ${n}` })),
    })
  ).resource_id;
  // Its table file now exists: queries on it go to the SQL worker.
  await api.ok('deskstore_checkpoint', { resource_id: rid });
  return rid;
}

/**
 * Starts a query that never ends on `rid`, then sends a search and an insert: returns the order
 * in which the three were answered and the query's answer. The search and the write must not
 * wait for the query's time limit.
 */
async function searchAndWriteDuringRunawayQuery(rid: string): Promise<{ finished: string[]; slowAnswer: unknown; total: number }> {
  const api = ckan(server.url, server.token);
  const finished: string[] = [];
  const slow = api
    .post('datastore_search_sql', {
      sql: `WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c) SELECT count(*) FROM c, "${rid}"`,
    })
    .then((r) => (finished.push('sql'), r));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const search = await api.ok('datastore_search', { resource_id: rid, limit: 1 });
  finished.push('search');
  await api.ok('datastore_upsert', { resource_id: rid, method: 'insert', records: [{ n: 50, testo: 'scritta durante' }] });
  finished.push('write');
  return { finished, slowAnswer: (await slow).body, total: search.total! };
}

it('answers searches and writes while a runaway query runs, then stops only that query', async () => {
  const api = ckan(server.url, server.token);
  const rid = await checkpointedTable('lenta');
  const { finished, slowAnswer, total } = await searchAndWriteDuringRunawayQuery(rid);
  expect(total).toBe(50);
  expect(slowAnswer).toMatchObject({ error: { query: ['Query took too long'] } });
  // The search and the write did not wait for the query's time limit.
  expect(finished).toEqual(['search', 'write', 'sql']);
  // The recursive query stopped itself inside SQLite: the SQL worker and its copies stay.
  expect(server.stderr()).not.toMatch(/stopping the SQL worker/);
  expect(server.stderr()).not.toMatch(/engine worker/);
  // The next query starts a fresh SQL worker, and sees the write.
  const count = await api.ok('datastore_search_sql', { sql: `SELECT count(*) + 0 AS c FROM "${rid}"` });
  expect(count.records).toEqual([{ c: 51 }]);
}, 60_000);

it('stops the SQL worker for a runaway query that is not recursive, and the next query starts a fresh one', async () => {
  const api = ckan(server.url, server.token);
  const rid = await checkpointedTable('incrociata');
  const table = `"${rid}"`;
  // 50 rows joined with themselves six times: 15.6 billion combinations, no recursion to ask the deadline.
  const slow = await api.post('datastore_search_sql', {
    sql: `SELECT count(*) FROM ${table} a, ${table} b, ${table} c, ${table} d, ${table} e, ${table} f`,
  });
  expect(slow.body).toMatchObject({ error: { query: ['Query took too long'] } });
  expect(server.stderr()).toMatch(/stopping the SQL worker: a query ran too long/);
  expect((await api.ok('datastore_search_sql', { sql: `SELECT count(*) + 0 AS c FROM ${table}` })).records).toEqual([{ c: 50 }]);
}, 60_000);

it('reads the tables as the engine acknowledged them: writes since the checkpoint, then a new generation', async () => {
  const api = ckan(server.url, server.token);
  const rid = await checkpointedTable('allineata');
  const sum = async () =>
    (await api.ok('datastore_search_sql', { sql: `SELECT sum(n + 0) AS s, count(*) + 0 AS c FROM "${rid}"` })).records[0];
  expect(await sum()).toEqual({ s: 1225, c: 50 });
  await api.ok('datastore_upsert', { resource_id: rid, method: 'insert', records: [{ n: 1000, testo: 'nuova' }] });
  await api.ok('datastore_records_delete', { resource_id: rid, filters: { n: 0 } });
  expect(await sum()).toEqual({ s: 2225, c: 50 });
  await api.ok('deskstore_checkpoint', { resource_id: rid });
  await api.ok('datastore_upsert', { resource_id: rid, method: 'insert', records: [{ n: 1, testo: 'ancora' }] });
  expect(await sum()).toEqual({ s: 2226, c: 51 });
  const texts = await api.ok('datastore_search_sql', { sql: `SELECT testo FROM "${rid}" WHERE n >= 1000` });
  expect(texts.records).toEqual([{ testo: 'nuova' }]);
});

it('reads a table dropped and created again as the new one, not its kept copy of the old', async () => {
  const api = ckan(server.url, server.token);
  const rid = await checkpointedTable('rifatta');
  expect((await api.ok('datastore_search_sql', { sql: `SELECT count(*) + 0 AS c FROM "${rid}"` })).records).toEqual([{ c: 50 }]);
  await api.ok('datastore_delete', { resource_id: rid });
  await api.ok('datastore_create', {
    resource_id: rid,
    fields: [
      { id: 'n', type: 'int4' },
      { id: 'testo', type: 'text' },
    ],
    records: [{ n: 7, testo: 'sola' }],
  });
  expect((await api.ok('datastore_search_sql', { sql: `SELECT n, testo FROM "${rid}"` })).records).toEqual([{ n: 7, testo: 'sola' }]);
});

it('runs queries on a table whose file is damaged in the SQL worker too, from the engine’s rebuilt table', async () => {
  const rid = await checkpointedTable('danneggiata');
  const dataDir = server.dataDir;
  await server.stop();
  const dir = join(dataDir, 'resources', rid);
  const file = readdirSync(dir).find((f) => f.endsWith('.sqlite'))!;
  const bytes = readFileSync(join(dir, file));
  bytes.fill(0x5a, 0, 100); // the header: no longer a SQLite file
  writeFileSync(join(dir, file), bytes);
  server = await startServer({ dataDir, args: ['--sql-timeout-s', '3', '--sql-functions', 'all'] });
  const again = ckan(server.url, server.token);
  const count = await again.ok('datastore_search_sql', { sql: `SELECT count(*) + 0 AS c, sum(n + 0) AS s FROM "${rid}"` });
  expect(count.records).toEqual([{ c: 50, s: 1225 }]);
  expect(server.stderr()).toMatch(/table file unusable/);
  // A runaway query on it holds up no search or write either: it runs in the SQL worker.
  const { finished, slowAnswer, total } = await searchAndWriteDuringRunawayQuery(rid);
  expect(total).toBe(50);
  expect(slowAnswer).toMatchObject({ error: { query: ['Query took too long'] } });
  expect(finished).toEqual(['search', 'write', 'sql']);
  expect((await again.ok('datastore_search_sql', { sql: `SELECT count(*) + 0 AS c FROM "${rid}"` })).records).toEqual([{ c: 51 }]);
}, 60_000);
