// npm run bench -- --big: the big-file limits of issue 10. Imports generated 5,000,000-row
// (~760 MB) and 10,000,000-row (~1.5 GB) CSVs with the CLI, each next to a baseline measured in
// the same run (sqlite3's untyped .import of the same file): time, peak RSS, and the time a
// freshly started server takes to answer its first search on the resource. A file beyond what
// the store can hold must be refused before it is read (a clean exit with a message), never
// end in a crash or an out-of-memory death: that is the PASS/MISS of each size.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCsv } from './generate.js';
import { client } from './http-client.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'out/main/cli.js');
const WORK = join(ROOT, 'bench/.work');
const SIZES = (process.env.BENCH_BIG_ROWS ?? '5000000,10000000').split(',').map(Number);
const log = (...a) => console.error('[bench --big]', ...a);

async function dataFile(rows) {
  mkdirSync(WORK, { recursive: true });
  const file = join(WORK, `bench-${rows}.csv`);
  if (!existsSync(file)) {
    log(`generating ${rows.toLocaleString('en')} rows…`);
    await writeCsv(`${file}.tmp`, rows);
    renameSync(`${file}.tmp`, file);
  }
  return file;
}

/** Runs a command under GNU time when present, for its peak RSS; the child's own report otherwise. */
function timed(cmd, args, input) {
  const started = performance.now();
  const r = spawnSync(cmd, args, { input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return {
    seconds: (performance.now() - started) / 1000,
    status: r.status,
    signal: r.signal,
    stdout: r.stdout ?? '',
    stderr: r.stderr ?? '',
  };
}

function startServer(dataDir) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, 'serve', '--data', dataDir, '--port', '0', '--no-sample'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /Deskstore listening on (\S+)/.exec(out);
      if (m) resolve({ child, url: m[1], started });
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

async function measure(rows) {
  const file = await dataFile(rows);
  const bytes = statSync(file).size;
  const dir = mkdtempSync(join(tmpdir(), 'deskstore-big-'));
  try {
    log(`${rows.toLocaleString('en')} rows (${(bytes / 1e6).toFixed(0)} MB): sqlite3 baseline…`);
    const baseline = timed('sqlite3', [join(dir, 'baseline.db')], `.mode csv\n.separator ;\n.import ${file} t\nSELECT count(*) FROM t;\n`);
    rmSync(join(dir, 'baseline.db'), { force: true });
    log('  deskstore import…');
    const dataDir = join(dir, 'data');
    const imported = timed(process.execPath, [CLI, 'import', file, '--data', dataDir, '--package', 'big']);
    const peak = Number(/peak memory ([\d.]+) MB/.exec(imported.stderr)?.[1] ?? NaN);
    const result = {
      rows,
      bytes,
      baselineSeconds: baseline.seconds,
      importSeconds: imported.seconds,
      peakRssMb: peak,
      exit: imported.status,
      signal: imported.signal,
    };
    if (imported.status === 0) {
      const summary = JSON.parse(imported.stdout.trim().split('\n').pop());
      result.importedRows = summary.rows;
      result.searchableAt = Number(/searchable after ([\d.]+) s/.exec(imported.stderr)?.[1] ?? NaN);
      log('  first answer after a restart…');
      const server = await startServer(dataDir);
      const c = client(server.url, 1);
      await c.action('datastore_search', { resource_id: summary.resource_id, limit: 1 });
      result.firstAnswerSeconds = (performance.now() - server.started) / 1000;
      c.close();
      server.child.kill('SIGTERM');
      await new Promise((r) => server.child.once('exit', r));
      result.outcome = summary.rows === rows ? 'imported' : 'WRONG ROW COUNT';
    } else {
      const refused =
        /error: .*(limits\.|cannot hold|too big|more rows)/i.test(imported.stderr) || /Deskstore can hold/i.test(imported.stderr);
      result.outcome = refused && imported.signal === null ? 'refused before importing' : 'CRASHED';
      result.message = imported.stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 400);
    }
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runBig() {
  if (!existsSync(CLI)) throw new Error('build first: npm run build');
  const results = [];
  for (const rows of SIZES) results.push(await measure(rows));
  const lines = ['Deskstore big files (npm run bench -- --big): CLI import of generated CSVs, 10 columns', ''];
  for (const r of results) {
    const ok = r.outcome === 'imported' || r.outcome === 'refused before importing';
    lines.push(
      `${r.rows.toLocaleString('en')} rows, ${(r.bytes / 1e6).toFixed(0)} MB: ${r.outcome}  ${ok ? 'PASS' : 'MISS'} (never a crash)`,
    );
    lines.push(
      `  sqlite3 .import baseline ${r.baselineSeconds.toFixed(1)} s; deskstore ${r.importSeconds.toFixed(1)} s` +
        ` (${(r.importSeconds / r.baselineSeconds).toFixed(2)}× baseline)${r.searchableAt ? `, searchable after ${r.searchableAt.toFixed(1)} s` : ''}`,
    );
    lines.push(
      `  peak RSS ${Number.isFinite(r.peakRssMb) ? `${r.peakRssMb.toFixed(0)} MB` : '?'}` +
        `${r.firstAnswerSeconds ? `; a restarted server's first answer on it after ${r.firstAnswerSeconds.toFixed(2)} s` : ''}`,
    );
    if (r.message) lines.push(`  ${r.message}`);
  }
  console.log(lines.join('\n'));
  return results;
}
