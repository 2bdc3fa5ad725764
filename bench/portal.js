// Portal figures for npm run bench (docs/portal.md): mirror a 1M-row DataStore resource from a
// local Deskstore "portal" (time and peak RSS), next to importing the same rows from the CSV in
// the same run; push the mirrored resource to a second, empty local Deskstore portal (time).
// Run alone with `node bench/portal.js` (it imports and serves the bench file itself), or from
// run.js, which passes the resource it already imported and the server that serves it.
import { spawnSync } from 'node:child_process';
import { startServer as serve, stopServer as stop } from './serve.js';
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'out/main/cli.js');
const log = (...a) => console.error('[bench portal]', ...a);

function run(args) {
  const started = performance.now();
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, HTTP_PROXY: '', http_proxy: '' },
  });
  const seconds = (performance.now() - started) / 1000;
  if (r.status !== 0) throw new Error(`${args[0]} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return { seconds, stdout: r.stdout, stderr: r.stderr, last: JSON.parse(r.stdout.trim().split('\n').pop()) };
}

/**
 * `portal`: a running Deskstore serving dataset `dataset` with the 1M-row resource;
 * `importSeconds` / `importPeakMb`: the CSV import of the same rows in this run (the baseline).
 */
export async function portalBench({ portal, dataset, rows, importSeconds, importPeakMb }) {
  const dir = mkdtempSync(join(tmpdir(), 'deskstore-bench-portal-'));
  try {
    log(`mirror ${rows.toLocaleString('en')} rows from a local Deskstore portal…`);
    const mirrorDir = join(dir, 'mirror');
    const mirrored = run(['mirror', `${portal.url}/dataset/${dataset}`, '--data', mirrorDir]);
    const peak = Number(/peak memory (\d+) MB/.exec(mirrored.stderr)?.[1] ?? NaN);
    const resourceId = mirrored.last.resources[0].resource_id;
    if (mirrored.last.resources[0].rows !== rows) throw new Error(`mirrored ${mirrored.last.resources[0].rows} rows, not ${rows}`);
    log(`  ${mirrored.seconds.toFixed(2)} s, peak ${peak} MB`);

    log('push it to a second, empty local Deskstore portal…');
    const target = await serve(join(dir, 'target'));
    let pushed;
    try {
      pushed = run(['push', resourceId, '--data', mirrorDir, '--to', target.url, `--token=${target.token}`, '--dataset', 'bench-pushed']);
    } finally {
      await stop(target);
    }
    log(`  ${pushed.seconds.toFixed(2)} s, ${pushed.last.rows} rows`);
    return {
      rows,
      mirror: {
        seconds: mirrored.seconds,
        peakRssMb: peak,
        ratio: mirrored.seconds / importSeconds,
        importSeconds,
        importPeakMb,
        target: 2,
        ok: mirrored.seconds / importSeconds <= 2 && peak <= 1536,
      },
      push: {
        seconds: pushed.seconds,
        rowsPerSecond: rows / pushed.seconds,
        ratio: pushed.seconds / importSeconds,
        target: 10,
        ok: pushed.seconds / importSeconds <= 10,
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printPortal(r) {
  const m = r.mirror;
  const p = r.push;
  return [
    '',
    `mirror ${r.rows.toLocaleString('en')} DataStore rows from a local portal: ${m.seconds.toFixed(2)} s, peak RSS ${m.peakRssMb} MB`,
    `  ÷ CSV import of the same rows (${m.importSeconds.toFixed(2)} s, ${m.importPeakMb ?? '?'} MB): ${m.ratio.toFixed(2)}  (target ≤ ${m.target}, RSS ≤ 1536 MB)  ${m.ok ? 'PASS' : 'MISS'}`,
    `push ${r.rows.toLocaleString('en')} rows to a local portal: ${p.seconds.toFixed(2)} s (${Math.round(p.rowsPerSecond).toLocaleString('en')} rows/s)`,
    `  ÷ CSV import: ${p.ratio.toFixed(2)}  (target ≤ ${p.target})  ${p.ok ? 'PASS' : 'MISS'}`,
  ].join('\n');
}

// Alone: generate (or reuse) the bench file, import it, serve it, measure.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { writeCsv } = await import('./generate.js');
  const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
  const work = join(ROOT, 'bench/.work');
  const file = join(work, `bench-${rows}.csv`);
  if (!existsSync(file)) {
    log(`generating ${rows.toLocaleString('en')} rows…`);
    spawnSync('mkdir', ['-p', work]);
    // Written aside and renamed: an interrupted run must not leave a short file that looks whole.
    await writeCsv(`${file}.partial`, rows);
    renameSync(`${file}.partial`, file);
  }
  const dir = mkdtempSync(join(tmpdir(), 'deskstore-bench-source-'));
  try {
    log('import the CSV (baseline)…');
    const imported = run(['import', file, '--data', dir, '--package', 'bench']);
    if (imported.last.rows !== rows) throw new Error(`the bench file has ${imported.last.rows} rows, not ${rows}: delete ${file}`);
    const importPeakMb = Number(/peak memory ([\d.]+) MB/.exec(imported.stderr)?.[1] ?? NaN);
    const portal = await serve(dir);
    try {
      console.log(printPortal(await portalBench({ portal, dataset: 'bench', rows, importSeconds: imported.seconds, importPeakMb })));
    } finally {
      await stop(portal);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
