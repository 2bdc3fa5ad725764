// Issue 24's two SQL figures, for comparing builds in the same minutes: a fresh server's first
// datastore_search_sql with GROUP BY, and the server's RSS after a write and a count query
// (bench/run.js asks the same queries). Builds alternate, each run on a fresh copy of an
// imported data folder, so that no run finds another's journal or checkpoint.
//
//   node bench/first-sql.js --data <imported data dir> --build out --build <other out> [--runs 3]
//
// The data folder holds one resource imported by `deskstore import` (bench/run.js's 1M file).
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { client, median } from './http-client.js';
import { startServer, stopServer } from './serve.js';
import { processMemoryMb } from './targets.js';

const { values } = parseArgs({
  options: { data: { type: 'string' }, build: { type: 'string', multiple: true }, runs: { type: 'string', default: '3' } },
});
const builds = values.build.map((b) => resolve(b));
const runs = Number(values.runs);

const results = builds.map(() => ({ groupByMs: [], rss: [] }));
const rid = JSON.parse(readFileSync(join(values.data, 'catalogue.json'), 'utf8'));
const resourceId = Object.values(rid.resources ?? {})[0]?.id ?? rid.resources?.[0]?.id;
for (let run = 0; run < runs; run++) {
  for (const [b, build] of builds.entries()) {
    const copy = join(tmpdir(), `first-sql-${process.pid}`);
    rmSync(copy, { recursive: true, force: true });
    cpSync(values.data, copy, { recursive: true });
    const server = await startServer(copy, { cli: join(build, 'main/cli.js') });
    const c = client(server.url, 1);
    try {
      const t0 = performance.now();
      const answer = await c.action('datastore_search_sql', {
        sql: `SELECT regione, count(*) AS n FROM "${resourceId}" GROUP BY regione`,
      });
      const ms = performance.now() - t0;
      await c.action(
        'datastore_upsert',
        { resource_id: resourceId, method: 'insert', force: true, records: [{ id: 1000003, descrizione: 'prima scrittura' }] },
        { Authorization: server.token },
      );
      await c.action('datastore_search_sql', { sql: `SELECT count(*) AS n FROM "${resourceId}" WHERE regione = 'Lazio'` });
      const rss = processMemoryMb(server.child.pid, readFileSync).rss;
      results[b].groupByMs.push(ms);
      results[b].rss.push(rss);
      console.log(
        `run ${run + 1} ${build}: first GROUP BY ${ms.toFixed(0)} ms (${answer.records.length} groups), RSS after a write and a count ${rss.toFixed(0)} MB, load ${loadavg()[0].toFixed(2)}`,
      );
    } finally {
      c.close();
      await stopServer(server);
      rmSync(copy, { recursive: true, force: true });
    }
  }
}
for (const [b, build] of builds.entries()) {
  console.log(
    `${build}: median first GROUP BY ${median(results[b].groupByMs).toFixed(0)} ms, median RSS ${median(results[b].rss).toFixed(0)} MB`,
  );
}
