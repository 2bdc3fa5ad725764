/**
 * SIGKILL at random moments of a mirror and of a sync (issue 12): afterwards the resource is
 * its old version or its new one, never a mix, and once Deskstore starts again no temporary
 * or unpublished file remains. The kill moments are drawn from the length of a full run.
 * Issue 25: the list of kept versions stays consistent too: each version it names has its
 * files, no other generation's files remain, and the newest two compare.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ckan } from '../../helpers/ckan-client';
import { CLI, removeDir, runCliAsync, startServer, tempDir } from '../../helpers/deskstore-process';
import { TABLE_ID, startFakePortal, type FakePortal } from '../../helpers/fake-portal';
import { lcg } from '../../helpers/random';

let fake: FakePortal;
let dst: string;
const ENV = { HTTP_PROXY: '', http_proxy: '' };

interface StoredTable {
  rowCount: number;
  generation: number;
  olderVersions?: { generation: number; rows: number }[];
}

function storedTable(): StoredTable | null {
  const path = join(dst, 'catalogue.json');
  if (!existsSync(path)) return null;
  const catalogue = JSON.parse(readFileSync(path, 'utf8')) as { resources: { id: string; datastore: StoredTable | null }[] };
  return catalogue.resources.find((r) => r.id === TABLE_ID)?.datastore ?? null;
}

function publishedRows(): number | null {
  const ds = storedTable();
  if (!ds) return null;
  // Every version the catalogue names is whole: both of its files are there.
  for (const generation of [ds.generation, ...(ds.olderVersions ?? []).map((v) => v.generation)]) {
    for (const ext of ['columns', 'sqlite']) expect(existsSync(join(dst, 'resources', TABLE_ID, `${generation}.${ext}`))).toBe(true);
  }
  return ds.rowCount;
}

async function runAndKillAfter(args: string[], ms: number): Promise<void> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: 'ignore', env: { ...process.env, ...ENV } });
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  await new Promise((resolve) => child.on('close', resolve));
  clearTimeout(timer);
}

async function timed(args: string[]): Promise<number> {
  const started = performance.now();
  const r = await runCliAsync(args, ENV);
  expect(r.status, r.stderr).toBeLessThan(4);
  return performance.now() - started;
}

/** After a restart (leftovers are swept at start), the served rows are exactly one of the versions. */
async function checkAfterRestart(allowed: readonly number[]): Promise<void> {
  const server = await startServer({ dataDir: dst });
  try {
    const rows = publishedRows();
    if (rows === null) {
      expect(allowed).toContain(0);
    } else {
      expect(allowed).toContain(rows);
      const r = await ckan(server.url).ok('datastore_search', { resource_id: TABLE_ID, limit: 0 });
      expect(r.total).toBe(rows);
      const last = await ckan(server.url).ok('datastore_search', { resource_id: TABLE_ID, sort: '_id desc', limit: 1 });
      expect(last.records[0]._id).toBe(rows); // the fake's _ids are 1..N: the rows of one version
      // No file but those of the versions the catalogue names.
      const ds = storedTable()!;
      const named = new Set([ds.generation, ...(ds.olderVersions ?? []).map((v) => v.generation)]);
      const files = readdirSync(join(dst, 'resources', TABLE_ID));
      expect(files.filter((f) => !named.has(Number(f.split('.')[0])))).toEqual([]);
      await checkVersions(server.url, ds);
    }
    expect(existsSync(join(dst, 'jobs', 'portal')) ? readdirSync(join(dst, 'jobs', 'portal')) : []).toEqual([]);
  } finally {
    await server.stop();
  }
}

/** deskstore_versions says what the catalogue says, newest first; the newest two compare, counts adding up. */
async function checkVersions(url: string, ds: StoredTable): Promise<void> {
  const { versions } = await ckan(url).ok('deskstore_versions', { resource_id: TABLE_ID });
  expect(versions.map((v) => v.rows)).toEqual([ds.rowCount, ...(ds.olderVersions ?? []).map((v) => v.rows)]);
  const numbers = versions.map((v) => v.version);
  expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
  expect(versions.map((v) => v.current)).toEqual(versions.map((_, i) => i === 0));
  const [newest, previous] = versions;
  if (!newest || !previous) return;
  const changes = await ckan(url).ok('deskstore_changes', { resource_id: TABLE_ID, limit: 0 });
  expect(changes.from).toBe(previous.version);
  expect(changes.counts.added - changes.counts.removed).toBe(newest.rows - previous.rows);
}

beforeAll(async () => {
  fake = await startFakePortal();
  for (let i = 0; i < 30_000; i++) fake.change();
  dst = tempDir();
});

afterAll(async () => {
  await fake?.close();
  if (dst) removeDir(dst);
});

describe('SIGKILL during a mirror and a sync', () => {
  const random = lcg(12);
  const source = () => `${fake.url}/opendata/dataset/fake-data`;

  it('a killed first mirror leaves nothing or the whole mirror', { timeout: 600_000 }, async () => {
    const v1 = fake.state.rows.length;
    await runAndKillAfter(['mirror', source(), '--data', dst, '--resource', TABLE_ID], 400 + random() * 1500);
    await checkAfterRestart([0, v1]);
    const full = await timed(['mirror', source(), '--data', dst, '--resource', TABLE_ID]);
    await checkAfterRestart([v1]);
    for (let k = 0; k < 3; k++) {
      const before = publishedRows()!;
      fake.change();
      for (let i = 0; i < 500; i++) fake.change();
      await runAndKillAfter(['sync', '--data', dst], random() * full);
      await checkAfterRestart([before, fake.state.rows.length]);
    }
    await timed(['sync', '--data', dst]);
    await checkAfterRestart([fake.state.rows.length]);
  });
});
