// Changes between two versions of the 1M-row bench resource (issue 25, docs/versions.md): the
// resource gets a second version through Replace data (resource_patch with an upload), in
// which 1 row in 100 has a new amount, 1 in 200 is gone and 5,000 are new; then the first
// deskstore_changes (the comparison itself: the worker reads both versions' files and
// diffs them) and a page of the diff it keeps are timed. The baseline, in the same run, is the
// same comparison written by hand in the sqlite3 CLI over the two files imported untyped:
// unique indexes on `id`, then the three counts, every column compared.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { HEADER, rows } from './generate.js';
import { target } from './targets.js';

const log = (...a) => console.error('[bench changes]', ...a);

/** Which rows of version 1 the second version drops, and which get a new amount. */
const removedRow = (i) => i % 200 === 7;
const changedRow = (i) => i % 100 === 3;
const ADDED = 5000;

/** The second version's file, from the same generator (rows past N with ids of their own). */
export async function writeSecondVersion(path, count) {
  const out = createWriteStream(path);
  const write = (text) => (out.write(text) ? undefined : new Promise((r) => out.once('drain', r)));
  await write(`${HEADER}\n`);
  let i = 0;
  let chunk = '';
  for (const row of rows(count)) {
    i++;
    if (removedRow(i)) continue;
    let line = row;
    if (changedRow(i)) {
      const cells = line.split(';');
      cells[6] = (Number(cells[6]) + 1).toFixed(2);
      line = cells.join(';');
    }
    chunk += `${line}\n`;
    if (chunk.length > 1 << 20) {
      await write(chunk);
      chunk = '';
    }
  }
  let k = 0;
  for (const row of rows(ADDED, 99)) {
    const cells = row.split(';');
    cells[0] = String(count + ++k);
    chunk += `${cells.join(';')}\n`;
  }
  await write(chunk);
  await new Promise((resolve, reject) => out.end((err) => (err ? reject(err) : resolve())));
}

function expectedCounts(count) {
  let removed = 0;
  let changed = 0;
  for (let i = 1; i <= count; i++) {
    if (removedRow(i)) removed++;
    else if (changedRow(i)) changed++;
  }
  return { added: ADDED, removed, changed };
}

/** The comparison by hand in sqlite3: the files imported untyped (not timed), then indexes and counts (timed). */
function sqliteBaseline(first, second, dir) {
  const db = join(dir, 'changes-baseline.db');
  rmSync(db, { force: true });
  const load = spawnSync('sqlite3', [db], {
    input: `.mode csv\n.separator ;\n.import ${first} a\n.import ${second} b\n`,
    encoding: 'utf8',
  });
  if (load.status !== 0) throw new Error(`sqlite3 import failed: ${load.stderr}`);
  const columns = HEADER.split(';').filter((c) => c !== 'id');
  const differs = columns.map((c) => `a.${c} IS NOT b.${c}`).join(' OR ');
  const sql = [
    'CREATE UNIQUE INDEX ai ON a(id);',
    'CREATE UNIQUE INDEX bi ON b(id);',
    'SELECT count(*) FROM b WHERE NOT EXISTS (SELECT 1 FROM a WHERE a.id = b.id);',
    'SELECT count(*) FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE a.id = b.id);',
    `SELECT count(*) FROM a JOIN b ON a.id = b.id WHERE ${differs};`,
  ].join('\n');
  const started = performance.now();
  const r = spawnSync('sqlite3', [db], { input: sql, encoding: 'utf8' });
  const seconds = (performance.now() - started) / 1000;
  if (r.status !== 0) throw new Error(`sqlite3 diff failed: ${r.stderr}`);
  const [added, removed, changed] = r.stdout.trim().split('\n').map(Number);
  rmSync(db, { force: true });
  return { seconds, counts: { added, removed, changed } };
}

/**
 * `server`, `c`: the bench's running Deskstore and its client; `resourceId`: a resource holding
 * the bench file as its only version; `file`: that file; `rows`: its row count.
 */
export async function changesBench({ server, c, resourceId, file, rows: count, work }) {
  const second = join(work, `bench-${count}-v2.csv`);
  if (!existsSync(second)) {
    log('writing the second version…');
    await writeSecondVersion(second, count);
  }
  log('Replace data with the second version (upload through the API)…');
  const form = new FormData();
  form.set('id', resourceId);
  form.set('upload', new Blob([readFileSync(second)]), 'bench-v2.csv');
  const patched = await (
    await fetch(`${server.url}/api/3/action/resource_patch`, { method: 'POST', body: form, headers: { Authorization: server.token } })
  ).json();
  if (!patched.success) throw new Error(`resource_patch failed: ${JSON.stringify(patched).slice(0, 300)}`);
  for (let status = 'pending'; status === 'pending' || status === 'running';) {
    await new Promise((r) => setTimeout(r, 500));
    status = (await c.action('xloader_status', { resource_id: resourceId })).status;
    if (status === 'error') throw new Error('the second version failed to load');
  }
  log('deskstore_changes, first call (the comparison)…');
  const started = performance.now();
  const first = await c.action('deskstore_changes', { resource_id: resourceId, limit: 0 });
  const seconds = (performance.now() - started) / 1000;
  const pageStarted = performance.now();
  const page = await c.action('deskstore_changes', { resource_id: resourceId, change: 'changed', offset: 5000, limit: 100 });
  const pageMs = performance.now() - pageStarted;
  const expected = expectedCounts(count);
  log(`  ${seconds.toFixed(2)} s, then a page in ${pageMs.toFixed(0)} ms; counts ${JSON.stringify(first.counts)}`);
  log('baseline: the same comparison in sqlite3…');
  const baseline = sqliteBaseline(file, second, work);
  log(`  ${baseline.seconds.toFixed(2)} s; counts ${JSON.stringify(baseline.counts)}`);
  return {
    rows: count,
    seconds,
    pageMs,
    pageRecords: page.records.length,
    key: first.key,
    counts: first.counts,
    expected,
    correct: JSON.stringify(first.counts) === JSON.stringify(expected) && JSON.stringify(baseline.counts) === JSON.stringify(expected),
    baselineSeconds: baseline.seconds,
    ratio: seconds / baseline.seconds,
  };
}

export function changesTargets(r) {
  const size = `${r.rows.toLocaleString('en')}-row`;
  return [
    target(`changes between two versions of the ${size} resource, ÷ the same diff by hand in sqlite3`, r.ratio, 1.5, '×', {
      note: `${r.seconds.toFixed(2)} s vs ${r.baselineSeconds.toFixed(2)} s`,
    }),
    target('a page of 100 changed rows once compared', r.pageMs, 100, 'ms'),
    target('counts equal to the changes made (and to sqlite3’s)', r.correct ? 1 : 0, 1, '', { atLeast: true }),
  ];
}

export function printChanges(r) {
  return [
    '',
    `Changes (issue 25): ${r.rows.toLocaleString('en')} rows, second version by Replace data; matched by ${JSON.stringify(r.key)}`,
    `  first deskstore_changes (the comparison)  ${r.seconds.toFixed(2)} s   counts ${JSON.stringify(r.counts)} (made: ${JSON.stringify(r.expected)})`,
    `  a page of 100 changed rows after it       ${r.pageMs.toFixed(1)} ms`,
    `  sqlite3 by hand (indexes + 3 counts)      ${r.baselineSeconds.toFixed(2)} s   ratio ${r.ratio.toFixed(2)}`,
  ].join('\n');
}
