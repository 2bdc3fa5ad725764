// Times a freshly started server's first `datastore_search {q}` (issue 24's "first q" figure)
// for several builds of Deskstore against their own data folders, alternating them so the
// machine's changing load touches each alike. Usage:
//   node bench/first-q.js [--repeat N] [--q WORD] LABEL=CLI_JS:DATA_DIR:RESOURCE_ID ...
// e.g. old=bench/.work/old-out/out/main/cli.js:/tmp/old/data:<rid> new=out/main/cli.js:/tmp/new/data:<rid>
// Prints each run, then the median per label and the load average before and after.
// FIRST_Q_NODE_ARGS='--cpu-prof --cpu-prof-dir=DIR' profiles each server (every thread).
import { loadavg } from 'node:os';
import { client, median } from './http-client.js';
import { startServer, stopServer } from './serve.js';

const args = process.argv.slice(2);
let repeat = 3;
let q = 'servizio';
const builds = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--repeat') repeat = Number(args[++i]);
  else if (args[i] === '--q') q = args[++i];
  else {
    const [label, rest] = args[i].split('=');
    const [cli, data, rid] = rest.split(':');
    builds.push({ label, cli, data, rid, times: [] });
  }
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`${new Date().toISOString()} load ${load()} q=${q}`);
for (let r = 0; r < repeat; r++) {
  for (const b of r % 2 ? [...builds].reverse() : builds) {
    const s = await startServer(b.data, { cli: b.cli, nodeArgs: (process.env.FIRST_Q_NODE_ARGS ?? '').split(' ').filter(Boolean) });
    const c = client(s.url, 1);
    const t0 = performance.now();
    const result = await c.action('datastore_search', { resource_id: b.rid, q });
    const ms = performance.now() - t0;
    b.times.push(ms);
    console.log(`${b.label}: ${ms.toFixed(0)} ms (total ${result.total})`);
    c.close();
    await stopServer(s);
  }
}
for (const b of builds) console.log(`median ${b.label}: ${median(b.times).toFixed(0)} ms of ${b.times.map((t) => t.toFixed(0)).join(', ')}`);
console.log(`${new Date().toISOString()} load ${load()}`);
