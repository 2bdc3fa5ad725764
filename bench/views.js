// Issue 15's views on a million rows: how long the user waits for a column profile, a
// group-by chart and the map to be ready, from the request to the answer the window draws
// (HTTP round trip over loopback, as the UI asks). The data: the DPC province file four
// times (1,051,228 real rows with coordinates, timestamps, numbers and text). The baseline,
// measured in the same run on the same server: the table's own first page with its total.
// Target: "well under a second", taken as ≤ 500 ms (PASS/MISS), cold (first ask after the
// server started) and warm (asked again).
// Run alone: `node bench/views.js` (after `npm run build`); `npm run bench` runs it last.
import { spawn, spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { appendFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TARGET_MS = 500;
const TIMES = 4;

async function provinceFile(work) {
  const file = join(work, `province-x${TIMES}.csv`);
  if (existsSync(file)) return file;
  mkdirSync(work, { recursive: true });
  const part = join(work, 'province.csv');
  await pipeline(
    createReadStream(join(ROOT, 'test/fixtures/data/dpc-covid19-ita-province.csv.gz')),
    createGunzip(),
    createWriteStream(part),
  );
  const text = await readFile(part, 'utf8');
  const body = text.slice(text.indexOf('\n') + 1);
  await appendFile(file, text);
  for (let i = 1; i < TIMES; i++) await appendFile(file, body);
  rmSync(part);
  return file;
}

function serve(cli, dataDir) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'serve', '--data', dataDir, '--port', '0', '--no-sample'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /Deskstore listening on (\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

async function timed(url, name, params) {
  const started = performance.now();
  const res = await fetch(
    `${url}/api/3/action/${name}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]))}`,
  );
  const body = await res.json();
  const ms = performance.now() - started;
  if (!body.success) throw new Error(`${name}: ${JSON.stringify(body.error).slice(0, 300)}`);
  return { ms, result: body.result };
}

export async function viewsBench({
  cli = join(ROOT, 'out/main/cli.js'),
  work = join(ROOT, 'bench/.work'),
  log = (...a) => console.error('[bench views]', ...a),
} = {}) {
  if (!existsSync(cli)) {
    log('building (npm run build)…');
    if (spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' }).status !== 0) throw new Error('build failed');
  }
  const file = await provinceFile(work);
  const dir = mkdtempSync(join(tmpdir(), 'deskstore-bench-views-'));
  try {
    log(`importing ${file}…`);
    const imported = spawnSync(process.execPath, [cli, 'import', file, '--data', dir, '--package', 'province'], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    if (imported.status !== 0) throw new Error(imported.stderr);
    const rid = JSON.parse(imported.stdout.trim().split('\n').pop()).resource_id;
    const server = await serve(cli, dir);
    try {
      const r = { resource_id: rid };
      const filter = { filters: { denominazione_regione: { deskstore_ne: 'Lombardia' }, totale_casi: { gte: 1000 } } };
      const cases = [
        ['baseline: table first page with total', 'datastore_search', { ...r, limit: 200 }],
        ['profile of a number column (totale_casi)', 'deskstore_profile', { ...r, fields: 'totale_casi' }],
        ['profile of a timestamp column (data)', 'deskstore_profile', { ...r, fields: 'data' }],
        ['profile of a text column (denominazione_provincia)', 'deskstore_profile', { ...r, fields: 'denominazione_provincia' }],
        ['profile with two conditions', 'deskstore_profile', { ...r, fields: 'totale_casi', ...filter }],
        [
          'chart: sum of totale_casi by region',
          'deskstore_group_by',
          { ...r, group_by: 'denominazione_regione', metric: 'sum', value_field: 'totale_casi' },
        ],
        ['chart: rows by month (line)', 'deskstore_group_by', { ...r, group_by: 'data', bucket: 'month' }],
        [
          'chart: by region and month (stacked)',
          'deskstore_group_by',
          { ...r, group_by: 'data,denominazione_regione', bucket: 'year', metric: 'max', value_field: 'totale_casi' },
        ],
        ['map: binned positions', 'deskstore_map_points', r],
        ['map: coloured by region', 'deskstore_map_points', { ...r, color_field: 'denominazione_regione' }],
        ['map: with two conditions', 'deskstore_map_points', { ...r, ...filter }],
        ['profile of all 14 columns (scripts)', 'deskstore_profile', r],
      ];
      const rows = [];
      for (const [label, name, params] of cases) {
        const cold = await timed(server.url, name, params);
        const warm = [];
        for (let i = 0; i < 5; i++) warm.push((await timed(server.url, name, params)).ms);
        warm.sort((a, b) => a - b);
        rows.push({ label, cold: cold.ms, warm: warm[2], total: cold.result.total ?? cold.result.rows });
      }
      return { rows: JSON.parse(imported.stdout.trim().split('\n').pop()).rows, cases: rows };
    } finally {
      server.child.kill('SIGTERM');
      await new Promise((resolve) => server.child.once('exit', resolve));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printViews(v) {
  const base = v.cases[0];
  const lines = [
    '',
    `Views on ${v.rows.toLocaleString('en')} rows (DPC province file x${TIMES}): HTTP round trip, cold (first ask) / warm (median of 5)`,
    `${'what the user opens'.padEnd(52)} ${'cold'.padStart(9)} ${'warm'.padStart(9)}  ×baseline (warm)  target ≤ ${TARGET_MS} ms`,
    ...v.cases.map(
      (c, i) =>
        `${c.label.padEnd(52)} ${`${c.cold.toFixed(0)} ms`.padStart(9)} ${`${c.warm.toFixed(0)} ms`.padStart(9)}  ${(c.warm / base.warm).toFixed(1).padStart(16)}  ${
          i === 0 || i === v.cases.length - 1
            ? ''
            : (c.cold <= TARGET_MS ? 'PASS' : 'MISS (cold)') + (c.warm <= TARGET_MS ? '' : ' MISS (warm)')
        }`,
    ),
  ];
  console.log(lines.join('\n'));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  viewsBench()
    .then(printViews)
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
