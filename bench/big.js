// npm run bench -- --big: the big-file targets of issue 24. Imports a generated 10,000,000-row
// (~1.5 GB) CSV with the CLI (BENCH_BIG_ROWS=5000000,10000000 adds other sizes), next to a
// baseline measured in the same run (sqlite3's untyped .import of the same file): time, peak
// RSS, and the time a restarted server takes to answer its first full-text search on the
// resource. A file beyond what the store can hold must be refused before it is read (a clean
// exit with a message), never end in a crash or an out-of-memory death.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCsv } from './generate.js';
import { client, percentile, timeEach } from './http-client.js';
import { coldTwoColumnFilters, coldTwoWordQueries } from './query-sets.js';
import { printTargets, target } from './targets.js';

const COLD_QUERIES = 100;

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'out/main/cli.js');
const WORK = join(ROOT, 'bench/.work');
const SIZES = (process.env.BENCH_BIG_ROWS ?? '10000000').split(',').map(Number);
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
      const asked = performance.now();
      await c.action('datastore_search', { resource_id: summary.resource_id, q: 'servizio' });
      result.firstSearchMs = performance.now() - asked;
      result.firstAnswerSeconds = (performance.now() - server.started) / 1000;
      const search = (extra) => ({ resource_id: summary.resource_id, ...extra });
      const p50 = async (list) => percentile(await timeEach(c, list.map(search)), 50);
      result.coldFilterP50 = await p50(coldTwoColumnFilters(COLD_QUERIES).map((filters) => ({ filters })));
      result.coldTwoWordP50 = await p50(coldTwoWordQueries(COLD_QUERIES).map((q) => ({ q })));
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

function bigTargets(results) {
  const out = [];
  for (const r of results) {
    const size = `${(r.rows / 1e6).toFixed(0)}M rows`;
    out.push(
      target(
        `${size}: imports and answers, or is refused before importing (1 = yes)`,
        r.outcome === 'imported' || r.outcome === 'refused before importing' ? 1 : 0,
        1,
        '',
        { atLeast: true, note: r.outcome },
      ),
    );
    if (r.rows !== 10_000_000 || r.outcome !== 'imported') continue;
    out.push(target(`${size}: CLI import to command exit ÷ sqlite3 .import`, r.importSeconds / r.baselineSeconds, 4, '×'));
    out.push(target(`${size}: peak memory of the import`, r.peakRssMb, 1536, 'MB'));
    out.push(target(`${size}: a restarted server's first q (with total, common word)`, r.firstSearchMs ?? null, 1000, 'ms'));
  }
  return out;
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
        `${r.firstAnswerSeconds ? `; a restarted server's first q answered ${r.firstAnswerSeconds.toFixed(2)} s after it was started (the search itself ${r.firstSearchMs.toFixed(0)} ms)` : ''}`,
    );
    if (r.coldFilterP50 !== undefined) {
      lines.push(`  cold two-column filter p50 ${r.coldFilterP50.toFixed(1)} ms; cold two-word q p50 ${r.coldTwoWordP50.toFixed(1)} ms`);
    }
    if (r.message) lines.push(`  ${r.message}`);
  }
  lines.push('', printTargets('Targets of issue 24 for big files', bigTargets(results)));
  console.log(lines.join('\n'));
  return results;
}
