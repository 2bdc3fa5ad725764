import { afterAll, beforeAll, expect, it } from 'vitest';
import { ckan } from '../helpers/ckan-client';
import { removeDir, startServer, type ServerProcess } from '../helpers/deskstore-process';

/**
 * Issue 8: datastore_search_sql had a row cap but no byte cap; one query answered 384 MB and
 * stalled the server. Past 64 MB of JSON the query now stops while its rows are written, with
 * CKAN's validation error, and the server goes on answering. Under it, the answer is written
 * in UTF-8 chunks, as the SQL worker made them.
 */
let server: ServerProcess;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

async function hundredRows(name: string): Promise<string> {
  const api = ckan(server.url, server.token);
  const pkg = await api.ok('package_create', { name });
  return (
    await api.ok('datastore_create', {
      resource: { package_id: pkg.id },
      fields: [{ id: 'n', type: 'int4' }],
      records: Array.from({ length: 100 }, (_, n) => ({ n })),
    })
  ).resource_id;
}

it('refuses an answer past 64 MB with a CKAN error that says what to do, and answers the next query', async () => {
  const api = ckan(server.url, server.token);
  const rid = await hundredRows('grande');
  // 100 rows of a million characters each: ~100 MB of answer.
  const big = await api.post('datastore_search_sql', { sql: `SELECT n, repeat('x', 1000000) AS t FROM "${rid}"` });
  expect(big.status).toBe(409);
  expect(big.body).toMatchObject({ success: false, error: { __type: 'Validation Error' } });
  expect((big.body as any).error.query[0]).toMatch(/larger than 64 MB.*LIMIT/);
  // Under the cap the same kind of query answers in full.
  const ok = await api.ok('datastore_search_sql', { sql: `SELECT n, repeat('x', 100000) AS t FROM "${rid}" ORDER BY n` });
  expect(ok.records).toHaveLength(100);
  expect(ok.records[99]).toMatchObject({ n: 99 });
  expect(ok.records[0].t).toHaveLength(100_000);
}, 60_000);

it('counts the answer in bytes as written, not characters: json.dumps writes è as \\u00e8, 12 million of them are 72 MB', async () => {
  const api = ckan(server.url, server.token);
  const rid = await hundredRows('accentata');
  const big = await api.post('datastore_search_sql', { sql: `SELECT repeat('è', 1000000) AS t FROM "${rid}" WHERE n < 12` });
  expect(big.status).toBe(409);
  expect((big.body as any).error.query[0]).toMatch(/larger than 64 MB/);
  // 60 MB of them pass whole, every byte in place across the chunks they were written in.
  const ok = await api.ok('datastore_search_sql', { sql: `SELECT n, repeat('è', 1000000) AS t FROM "${rid}" WHERE n < 10 ORDER BY n` });
  expect(ok.records).toHaveLength(10);
  expect(ok.records.every((r: { t: string }) => r.t.length === 1_000_000 && /^è+$/.test(r.t))).toBe(true);
  expect(ok.records.map((r: { n: number }) => r.n)).toEqual(Array.from({ length: 10 }, (_, n) => n));
}, 60_000);
