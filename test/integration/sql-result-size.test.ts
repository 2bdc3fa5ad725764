import { afterAll, beforeAll, expect, it } from 'vitest';
import { ckan } from '../helpers/ckan-client';
import { removeDir, startServer, type ServerProcess } from '../helpers/deskstore-process';

/**
 * Issue 8: datastore_search_sql had a row cap but no byte cap; one query answered 384 MB and
 * stalled the server. Past 64 MB the query now stops while its rows are read, with CKAN's
 * validation error, and the server goes on answering.
 */
let server: ServerProcess;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

it('refuses an answer past 64 MB with a CKAN error that says what to do, and answers the next query', async () => {
  const api = ckan(server.url, server.token);
  const pkg = await api.ok('package_create', { name: 'grande' });
  const rid = (
    await api.ok('datastore_create', {
      resource: { package_id: pkg.id },
      fields: [{ id: 'n', type: 'int4' }],
      records: Array.from({ length: 100 }, (_, n) => ({ n })),
    })
  ).resource_id;
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
