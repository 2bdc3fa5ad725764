import { afterEach, describe, expect, it } from 'vitest';
import { ckan } from '../helpers/ckan-client';
import { removeDir, startServer, type ServerProcess } from '../helpers/deskstore-process';

/**
 * Issue 21: one anonymous request killed the server (`lpad('x', 2000000000)`: the SQL worker
 * ran out of heap and V8 ended the whole process), and one slow regular expression held
 * every SQL query behind it. A query that builds too much text is refused before it builds
 * it; a worker that runs out of heap is stopped alone, its query answered in CKAN's error
 * envelope, and the next query starts a fresh worker; regular expressions run in linear time.
 */
const started: ServerProcess[] = [];
afterEach(async () => {
  for (const s of started.splice(0)) {
    await s.stop();
    removeDir(s.dataDir);
  }
});

async function serve(opts: Parameters<typeof startServer>[0] = {}): Promise<ServerProcess> {
  const s = await startServer(opts);
  started.push(s);
  return s;
}

const alive = (s: ServerProcess) => s.child.exitCode === null && s.child.signalCode === null;

describe('the SQL worker and memory', () => {
  it('refuses lpad/rpad of two billion characters with CKAN’s error, and the server lives', async () => {
    const s = await serve();
    const api = ckan(s.url);
    for (const sql of [`SELECT lpad('x', 2000000000) AS a`, `SELECT rpad('x', 2000000000) AS a`]) {
      const r = await api.get('datastore_search_sql', { sql });
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({
        success: false,
        error: { __type: 'Validation Error', query: [expect.stringMatching(/^requested length too large/)] },
      });
    }
    expect(alive(s)).toBe(true);
    expect((await api.get('datastore_search_sql', { sql: 'SELECT 1 AS one' })).body).toMatchObject({
      success: true,
      result: { records: [{ one: 1 }] },
    });
  }, 120_000);

  it('answers a query whose worker ran out of heap, and the next query gets a fresh worker', async () => {
    // The fault fills the SQL worker's heap in small pieces, as a query growing row by row would.
    const s = await serve({ env: { DESKSTORE_TEST_FAULT: 'sql-out-of-memory:hoard_everything' } });
    const api = ckan(s.url);
    // Two queries sent with it wait for the SQL worker that dies, then run on a fresh one.
    const [r, ...others] = await Promise.all([
      api.get('datastore_search_sql', { sql: `SELECT 'hoard_everything' AS x` }),
      api.get('datastore_search_sql', { sql: 'SELECT 3 AS three' }),
      api.get('datastore_search_sql', { sql: 'SELECT 4 AS four' }),
    ]);
    expect(others.map((o) => o.body)).toMatchObject([{ result: { records: [{ three: 3 }] } }, { result: { records: [{ four: 4 }] } }]);
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({
      success: false,
      error: {
        __type: 'Validation Error',
        query: [expect.stringMatching(/^out of memory: the query needed more than the 1024 MB/)],
        info: { statement: [expect.stringContaining('hoard_everything')] },
      },
    });
    expect(alive(s)).toBe(true);
    expect(s.stderr()).toMatch(/the SQL worker ran out of memory/);
    expect((await api.get('datastore_search_sql', { sql: 'SELECT 2 AS two' })).body).toMatchObject({ result: { records: [{ two: 2 }] } });
  }, 120_000);

  it('answers a regular expression that backtracks for ever in JavaScript, well within the time limit', async () => {
    // With JavaScript's engine this held the SQL worker past any limit: "Query took too long".
    const s = await serve({ args: ['--sql-timeout-s', '20'] });
    const api = ckan(s.url);
    const slow = api.get('datastore_search_sql', {
      sql: `SELECT length(regexp_replace(repeat('a', 30000), '(a*)*b', 'x')) AS n, repeat('a', 30000) ~ '(a|aa)*c' AS m`,
    });
    const cheap = await api.get('datastore_search_sql', { sql: 'SELECT 1 AS one' });
    expect(cheap.body).toMatchObject({ result: { records: [{ one: 1 }] } });
    expect((await slow).body).toMatchObject({ success: true, result: { records: [{ n: 30000, m: false }] } });
  }, 120_000);
});
