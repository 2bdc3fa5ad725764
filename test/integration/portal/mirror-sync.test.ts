/**
 * Mirror and sync against a second Deskstore playing the portal (issue 12): ids, fields with
 * their info, rows and values compared with the source; the same client script gives the same
 * answers against both; writes to a mirror are refused; a changed source syncs to equal again
 * and a second sync downloads nothing; detach; a name conflict overwrites nothing.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ckan } from '../../helpers/ckan-client';
import { TYPED_FIELDS as FIELDS, TYPED_RECORDS } from '../../helpers/typed-table';
import {
  ROOT,
  lastJsonLine,
  removeDir,
  runCli,
  runCliAsync,
  startServer,
  tempDir,
  type ServerProcess,
} from '../../helpers/deskstore-process';
import type { MirrorOutcome, SyncSummary } from '../../../src/shared/portal';
import type { PackageDict } from '../../../src/shared/wire/catalogue';

let portal: ServerProcess;
let dst: string;
let datasetId: string;
let tableA: string;
let tableB: string;

const mirrorCli = (args: string[]) => runCli(['mirror', ...args, '--data', dst]);
const syncCli = () => runCli(['sync', '--data', dst]);

async function withMirrorServer<T>(work: (server: ServerProcess) => Promise<T>): Promise<T> {
  const server = await startServer({ dataDir: dst });
  try {
    return await work(server);
  } finally {
    await server.stop();
  }
}

async function compareWithPortal(server: ServerProcess, ids: readonly string[]): Promise<void> {
  const here = ckan(server.url);
  const there = ckan(portal.url);
  for (const id of ids) {
    const params = { resource_id: id, limit: 1000 };
    const [a, b] = await Promise.all([there.ok('datastore_search', params), here.ok('datastore_search', params)]);
    expect(b.fields).toEqual(a.fields);
    expect(b.records).toEqual(a.records);
    expect(b.total).toBe(a.total);
  }
  const [pa, pb] = await Promise.all([there.ok('package_show', { id: datasetId }), here.ok('package_show', { id: datasetId })]);
  for (const key of ['id', 'name', 'title', 'notes'] as const) expect(pb[key]).toEqual(pa[key]);
  const summary = (p: PackageDict) =>
    p.resources
      .map((r) => ({ id: r.id, name: r.name, description: r.description, format: r.format }))
      .sort((x, y) => String(x.id).localeCompare(String(y.id)));
  expect(summary(pb)).toEqual(summary(pa));
  expect(pb.deskstore_mirror?.portal).toBe(portal.url);
}

beforeAll(async () => {
  portal = await startServer();
  dst = tempDir();
  const api = ckan(portal.url, portal.token);
  const pkg = await api.ok('package_create', { name: 'portal-fixtures', title: 'Dati di prova', notes: 'Una descrizione' });
  datasetId = pkg.id;
  tableA = (
    await api.ok('datastore_create', {
      resource: { package_id: datasetId, name: 'Tabella A', description: 'con tipi', format: 'CSV' },
      fields: FIELDS,
      records: [
        ...TYPED_RECORDS,
        { name: 'to delete', n: 6, price: 1, day: '2020-06-02', at: '2020-06-02T12:00:00', flag: false, meta: {}, tags: ['z'] },
      ],
    })
  ).resource_id;
  tableB = (
    await api.ok('datastore_create', {
      resource: { package_id: datasetId, name: 'Tabella B' },
      fields: [
        { id: 'code', type: 'text' },
        { id: 'value', type: 'float8' },
      ],
      primary_key: ['code'],
      records: [
        { code: '001', value: 1.5 },
        { code: '002', value: 2 },
        { code: 'A', value: -0.25 },
      ],
    })
  ).resource_id;
  // A gap in the _ids: the mirror must keep the portal's, not renumber.
  await api.ok('datastore_delete', { resource_id: tableA, filters: { n: 6 } });
});

afterAll(async () => {
  await portal?.stop();
  if (dst) removeDir(dst);
});

describe('mirror from a Deskstore portal', () => {
  it('mirrors a dataset page under a locale prefix with the portal ids, types, info and rows', async () => {
    const r = mirrorCli([`${portal.url}/it/dataset/portal-fixtures`]);
    expect(r.status, r.stderr).toBe(0);
    const out = lastJsonLine<MirrorOutcome>(r.stdout);
    expect(out.package_id).toBe(datasetId);
    expect(out.name).toBe('portal-fixtures');
    expect(out.resources.map((x) => [x.resource_id, x.status, x.rows]).sort()).toEqual(
      [
        [tableA, 'mirrored', 5],
        [tableB, 'mirrored', 3],
      ].sort(),
    );
    await withMirrorServer(async (server) => {
      await compareWithPortal(server, [tableA, tableB]);
      const shown = await ckan(server.url).ok('resource_show', { id: tableA });
      expect(shown.deskstore_mirror).toMatchObject({ portal: portal.url, via: 'datastore', rows: 5, maxId: 5 });
      expect(shown.deskstore_mirror?.page).toBe(`${portal.url}/dataset/portal-fixtures/resource/${tableA}`);
    });
  });

  it('answers one client script identically, changing only the base URL', async () => {
    const script = join(ROOT, 'test/fixtures/portal/client-script.mjs');
    await withMirrorServer(async (server) => {
      const run = (base: string) => spawnSync(process.execPath, [script, base, tableA], { encoding: 'utf8' });
      const [a, b] = [run(portal.url), run(server.url)];
      expect(a.status, a.stderr).toBe(0);
      expect(a.stdout.trim().split('\n')).toHaveLength(7);
      expect(b.stdout).toBe(a.stdout);
    });
  });

  it("refuses writes to a mirror with CKAN's authorization error and says how to detach", async () => {
    await withMirrorServer(async (server) => {
      const api = ckan(server.url, server.token);
      const r = await api.post('datastore_upsert', { resource_id: tableA, records: [{ n: 9 }], method: 'insert', force: true });
      expect(r.status).toBe(403);
      const body = r.body as unknown as { error: { __type: string; message: string }; deskstore_message: { code: string } };
      expect(body.error.__type).toBe('Authorization Error');
      expect(body.error.message).toContain('deskstore_detach');
      expect(body.deskstore_message.code).toBe('mirror.read_only');
      expect((await api.post('package_patch', { id: datasetId, title: 'changed here' })).status).toBe(403);
    });
  });

  it('syncs a changed source to equal, reports what changed, then finds nothing to download', async () => {
    const api = ckan(portal.url, portal.token);
    await api.ok('datastore_upsert', { resource_id: tableA, method: 'insert', records: [{ name: 'nuovo', n: 7, flag: true }] });
    await api.ok('datastore_upsert', { resource_id: tableA, method: 'update', records: [{ _id: 1, name: 'cambiato' }] });
    await api.ok('datastore_delete', { resource_id: tableA, filters: { n: 2 } });
    await api.ok('package_patch', { id: datasetId, title: 'Dati di prova, aggiornati' });
    const tableC = (
      await api.ok('datastore_create', {
        resource: { package_id: datasetId, name: 'Tabella C' },
        fields: [{ id: 'x', type: 'int8' }],
        records: [{ x: 1 }, { x: 2 }],
      })
    ).resource_id;

    const r = syncCli();
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as MirrorOutcome & SyncSummary);
    expect(lines.at(-1)).toEqual({ datasets: 1, updated: 1, unchanged: 0, failed: 0 });
    const outcome = lines[0]!;
    expect(outcome.metadata_changed).toBe(true);
    const byId = new Map(outcome.resources.map((x) => [x.resource_id, x]));
    expect(byId.get(tableA)).toMatchObject({ status: 'updated', rows: 5, changes: { added: 1, removed: 1, changed: 1 } });
    expect(byId.get(tableB)?.status).toBe('unchanged');
    expect(byId.get(tableC)).toMatchObject({ status: 'mirrored', rows: 2 });
    await withMirrorServer((server) => compareWithPortal(server, [tableA, tableB, tableC]));

    const again = syncCli();
    expect(again.status, again.stderr).toBe(0);
    expect(lastJsonLine(again.stdout)).toEqual({ datasets: 1, updated: 0, unchanged: 1, failed: 0 });
    expect(again.stderr).toMatch(/portal-fixtures: 0 downloads/);
  });

  it('runs deskstore_mirror as a background job for token holders only, readable by job id', async () => {
    await withMirrorServer(async (server) => {
      const anonymous = await ckan(server.url).post('deskstore_mirror', { url: `${portal.url}/dataset/portal-fixtures` });
      expect(anonymous.status).toBe(403);
      const api = ckan(server.url, server.token);
      const started = await api.ok('deskstore_mirror', { url: `${portal.url}/dataset/portal-fixtures`, resources: [tableB], full: true });
      expect(started).toMatchObject({ kind: 'mirror', status: 'pending' });
      let job = started;
      for (let i = 0; i < 600 && (job.status === 'pending' || job.status === 'running'); i++) {
        await new Promise((r) => setTimeout(r, 100));
        const answer = await ckan(server.url).get('deskstore_portal_job_status', { job_id: started.job_id });
        if (typeof answer.body === 'string') throw new Error(answer.body);
        job = answer.body.result;
      }
      expect(job.status).toBe('complete');
      expect((job.result as MirrorOutcome[])[0]?.resources).toEqual([
        expect.objectContaining({ resource_id: tableB, status: 'updated', changes: { added: 0, removed: 0, changed: 0 } }),
      ]);
      const unreachable = await api.ok('deskstore_portal_call', {
        url: 'http://127.0.0.1:9/dataset/x',
        action: 'package_show',
        params: { id: 'x' },
      });
      expect(unreachable).toMatchObject({ ok: false, error: { code: 'portal.unreachable' } });
    });
  });

  it('detaches a resource: it becomes writable and sync no longer touches it', async () => {
    await withMirrorServer(async (server) => {
      const api = ckan(server.url, server.token);
      expect(await api.ok('deskstore_detach', { id: tableB })).toEqual({ detached: [tableB] });
      await api.ok('datastore_upsert', { resource_id: tableB, records: [{ code: 'local', value: 0 }], method: 'insert', force: true });
    });
    await ckan(portal.url, portal.token).ok('datastore_upsert', {
      resource_id: tableB,
      records: [{ code: 'remote', value: 1 }],
      method: 'insert',
    });
    const r = syncCli();
    const outcome = JSON.parse(r.stdout.trim().split('\n')[0]!) as MirrorOutcome;
    expect(outcome.resources.find((x) => x.resource_id === tableB)).toMatchObject({
      status: 'skipped',
      message: { code: 'mirror.detached' },
    });
    await withMirrorServer(async (server) => {
      const rows = await ckan(server.url).ok('datastore_search', { resource_id: tableB });
      expect(rows.records.map((x: { code: string }) => x.code)).toEqual(['001', '002', 'A', 'local']);
    });
  });

  it('refuses a mirror whose name is taken by a local dataset, overwriting nothing', async () => {
    const other = tempDir();
    try {
      const csv = join(other, 'local.csv');
      spawnSync('sh', ['-c', `printf 'a\\n1\\n' > '${csv}'`]);
      expect(runCli(['import', csv, '--data', other, '--package', 'portal-fixtures']).status).toBe(0);
      const r = runCli(['mirror', `${portal.url}/dataset/portal-fixtures`, '--data', other]);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('already named "portal-fixtures"');
      const list = runCli(['mirror', `${portal.url}/dataset/portal-fixtures`, '--data', other, '--resource', 'nope-nope-nope']);
      expect(list.status).toBe(1);
      const server = await startServer({ dataDir: other });
      try {
        const pkg = await ckan(server.url).ok('package_show', { id: 'portal-fixtures' });
        expect(pkg.id).not.toBe(datasetId);
        expect(pkg.resources).toHaveLength(1);
        expect(pkg.deskstore_mirror).toBeUndefined();
      } finally {
        await server.stop();
      }
    } finally {
      removeDir(other);
    }
  });
});

describe('mirror and sync from the command line while a server holds the data directory', () => {
  it('runs them as the server’s jobs and prints what a local run prints', async () => {
    const held = tempDir();
    const server = await startServer({ dataDir: held });
    try {
      const mirrored = await runCliAsync(['mirror', `${portal.url}/dataset/portal-fixtures`, '--data', held]);
      expect(mirrored.status, mirrored.stderr).toBe(0);
      expect(mirrored.stderr).toContain(`in use by the Deskstore server at ${server.url}: running the mirror there`);
      const outcome = lastJsonLine<MirrorOutcome>(mirrored.stdout);
      expect(outcome.package_id).toBe(datasetId);
      // the tables of the beforeAll (earlier tests may have added to the portal's dataset)
      expect(outcome.resources.map((r) => [r.resource_id, r.status])).toEqual(
        expect.arrayContaining([
          [tableA, 'mirrored'],
          [tableB, 'mirrored'],
        ]),
      );
      expect(outcome.resources.filter((r) => r.status === 'failed')).toEqual([]);
      const here = await ckan(server.url).ok('datastore_search', { resource_id: tableB, sort: 'code' });
      const there = await ckan(portal.url).ok('datastore_search', { resource_id: tableB, sort: 'code' });
      expect(here.records).toEqual(there.records);

      const synced = await runCliAsync(['sync', '--data', held]);
      expect(synced.status, synced.stderr).toBe(0);
      const lines = synced.stdout.trim().split('\n');
      expect(JSON.parse(lines[0]!)).toMatchObject({ package_id: datasetId });
      expect(synced.stderr).toContain(`in use by the Deskstore server at ${server.url}: running the sync there`);
      // What the sync decided is the sync's own tests' subject; here: one dataset, checked, nothing failed.
      const summary = lastJsonLine<SyncSummary>(synced.stdout);
      expect([summary.datasets, summary.updated + summary.unchanged, summary.failed]).toEqual([1, 1, 0]);
    } finally {
      await server.stop();
      removeDir(held);
    }
  });
});
