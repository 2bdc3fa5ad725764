// npm run bench:sql-memory: what three concurrent ~60 MB datastore_search_sql answers cost the
// server process (issue 8: big answers stalled the server and memory stayed high). Prints the
// server's peak and resident memory (Linux /proc) before, right after and 5 s after, and how
// long until all three answers were read. Run it on two builds to compare them.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, stopServer } from './serve.js';

const dataDir = mkdtempSync(join(tmpdir(), 'deskstore-sql-memory-'));
const server = await startServer(dataDir);
try {
  const post = (action, body) =>
    fetch(`${server.url}/api/3/action/${action}`, {
      method: 'POST',
      headers: { Authorization: server.token, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const pkg = (await (await post('package_create', { name: 'memoria' })).json()).result;
  const created = await post('datastore_create', {
    resource: { package_id: pkg.id },
    fields: [{ id: 'n', type: 'int4' }],
    records: Array.from({ length: 100 }, (_, n) => ({ n })),
  });
  const rid = (await created.json()).result.resource_id;
  const memory = () => {
    const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
    const mb = (key) => Math.round(Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)[1]) / 1024);
    return `peak ${mb('VmHWM')} MB, resident ${mb('VmRSS')} MB`;
  };
  console.log(`server before:        ${memory()}`);
  const started = performance.now();
  const answers = await Promise.all(
    [1, 2, 3].map(async () => {
      const res = await post('datastore_search_sql', { sql: `SELECT n, repeat('x', 600000) AS t FROM "${rid}"` });
      return `${res.status} ${((await res.arrayBuffer()).byteLength / 1e6).toFixed(1)} MB`;
    }),
  );
  console.log(`three answers (${answers.join(', ')}) read in ${((performance.now() - started) / 1000).toFixed(2)} s`);
  console.log(`server right after:   ${memory()}`);
  await new Promise((resolve) => setTimeout(resolve, 5000));
  console.log(`server 5 s after:     ${memory()}`);
} finally {
  await stopServer(server);
  rmSync(dataDir, { recursive: true, force: true });
}
