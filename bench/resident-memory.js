// A searched server's resident memory and its sort latency, for builds compared in the same
// minutes (issue 24): each build's `deskstore serve` runs a shortened version of the bench's
// query mix on an already imported data folder, then its VmRSS is read, builds alternating.
//
//   node bench/resident-memory.js DATA_DIR RESOURCE_ID OUT_DIR... [--runs 3]
//
// DATA_DIR holds the 1M-row bench file imported once (`deskstore import FILE --data DATA_DIR`);
// each OUT_DIR is a build's `out/` (with node_modules beside it). Prints one line per run and
// the medians per build: RSS and its growth per phase, the first sort on `importo` and the
// worst of 50 sorts with offset 900000, the load average.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { client, median } from './http-client.js';
import { REGIONI } from './generate.js';
import { coldTwoColumnFilters, coldTwoWordQueries } from './query-sets.js';
import { startServer, stopServer } from './serve.js';
import { processMemoryMb } from './targets.js';

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const RUNS = runsAt >= 0 ? Number(args.splice(runsAt, 2)[1]) : 3;
const [dataDir, rid, ...builds] = args;
if (!dataDir || !rid || !builds.length) {
  console.error('usage: node bench/resident-memory.js DATA_DIR RESOURCE_ID OUT_DIR... [--runs 3]');
  process.exit(2);
}
const N = 40;

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0];

async function run(outDir) {
  const server = await startServer(dataDir, { cli: join(outDir, 'main/cli.js') });
  const c = client(server.url, 1);
  const search = async (extra) => {
    const started = performance.now();
    await c.action('datastore_search', { resource_id: rid, ...extra });
    return performance.now() - started;
  };
  const rss = () => Math.round(processMemoryMb(server.child.pid, readFileSync).rss);
  try {
    const phases = { start: rss() };
    await search({ limit: 1 });
    phases.loaded = rss();
    for (let i = 0; i < N; i++) await search({ filters: { regione: REGIONI[i % 20] } });
    phases.filters = rss();
    for (let i = 0; i < N; i++) await search({ q: 'servizio' });
    for (let i = 0; i < N; i++) await search({ q: 'scuola', filters: { regione: REGIONI[i % 20] } });
    phases.q = rss();
    const firstSort = await search({ sort: 'importo desc', limit: 10 });
    const sorts = [];
    for (let i = 0; i < 50; i++) sorts.push(await search({ sort: i % 2 ? 'importo desc' : 'importo', offset: 900000 }));
    phases.sort = rss();
    for (const q of coldTwoWordQueries(N)) await search({ q });
    for (const f of coldTwoColumnFilters(N)) await search({ filters: f });
    for (const t of ['ser', 'serv', 'servi', 'servizio', 'manu', 'manutenzione']) await search({ deskstore_q: t });
    return { rss: rss(), phases, firstSort: Math.round(firstSort), worstSort: Math.round(Math.max(...sorts)), load: load() };
  } finally {
    c.close();
    await stopServer(server);
  }
}

const results = builds.map(() => []);
console.log(`${new Date().toISOString()} load ${load()}`);
for (let r = 0; r < RUNS; r++) {
  for (let b = 0; b < builds.length; b++) {
    const one = await run(builds[b]);
    results[b].push(one);
    console.log(`${builds[b]}: RSS ${one.rss} MB ${JSON.stringify(one.phases)}, first sort ${one.firstSort} ms, worst of 50 sorts ${one.worstSort} ms, load ${one.load}`);
  }
}
for (let b = 0; b < builds.length; b++) {
  const rs = results[b];
  console.log(
    `${builds[b]}: median RSS ${median(rs.map((x) => x.rss))} MB, first sort ${median(rs.map((x) => x.firstSort))} ms, worst sort ${median(rs.map((x) => x.worstSort))} ms`,
  );
}
console.log(`${new Date().toISOString()} load ${load()}`);
