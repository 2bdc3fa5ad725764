/**
 * Issue 25: versions and changes. A second Deskstore plays the portal (as the mirror tests
 * do): mirror, change rows there (upsert, delete, insert; an int8 past 2^53, a text whose only
 * change is an accent), sync, and compare deskstore_changes with what was changed and with the
 * sync's own report (a numeric's scale is compared through imports below: a mirror keeps it
 * only once its dump reading does, issue 23); every way of matching rows (a key given, the
 * primary key, a unique column, `_id` of a DataStore mirror, whole rows); versions kept and
 * dropped by --keep-versions, their files with them; an import and a Replace data make
 * versions named after them; writes not yet checkpointed count.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MirrorOutcome, PortalJobStatus } from '../../src/shared/portal';
import type { ChangesResult } from '../../src/shared/wire/versions';
import { ckan } from '../helpers/ckan-client';
import { lastJsonLine, removeDir, runCli, startServer, tempDir, type ServerProcess } from '../helpers/deskstore-process';

let portal: ServerProcess;
let dst: string;
let work: string;
let keyed: string;
let plain: string;

/** A raw JSON body: int8 digits past 2^53 reach the portal as written. */
async function postRaw(server: ServerProcess, action: string, body: string): Promise<void> {
  const res = await fetch(`${server.url}/api/3/action/${action}`, {
    method: 'POST',
    body,
    headers: { Authorization: server.token, 'Content-Type': 'application/json' },
  });
  if (res.status !== 200) throw new Error(`${action}: ${res.status} ${await res.text()}`);
}

async function withMirror<T>(use: (server: ServerProcess) => Promise<T>, args: string[] = []): Promise<T> {
  const server = await startServer({ dataDir: dst, args });
  try {
    return await use(server);
  } finally {
    await server.stop();
  }
}

/** deskstore_changes as text (exact numbers) and parsed. */
async function changes(server: ServerProcess, params: Record<string, string>): Promise<{ text: string; result: ChangesResult }> {
  const r = await ckan(server.url).get('deskstore_changes', params);
  if (typeof r.body === 'string' || !r.body.success) throw new Error(r.text);
  return { text: r.text, result: r.body.result as ChangesResult };
}

function syncOutcome(args: string[] = []): MirrorOutcome {
  const r = runCli(['sync', '--data', dst, ...args]);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout.trim().split('\n')[0]!) as MirrorOutcome;
}

beforeAll(async () => {
  portal = await startServer();
  dst = tempDir();
  work = tempDir();
  const api = ckan(portal.url, portal.token);
  const pkg = await api.ok('package_create', { name: 'i25-versions', title: 'Versioni' });
  keyed = (
    await api.ok('datastore_create', {
      resource: { package_id: pkg.id, name: 'Con chiave' },
      fields: [
        { id: 'code', type: 'text' },
        { id: 'name', type: 'text' },
        { id: 'amount', type: 'numeric' },
        { id: 'big', type: 'int8' },
        { id: 'at', type: 'timestamp' },
      ],
      primary_key: ['code'],
      records: [
        { code: 'A', name: 'citta', amount: 2.5, big: 1, at: '2024-01-01T10:00:00' },
        { code: 'B', name: 'Bob', amount: 3, big: 2, at: '2024-01-02T10:00:00' },
        { code: 'C', name: 'Carl', amount: 4, big: 3, at: '2024-01-03T10:00:00' },
        { code: 'D', name: 'Dora', amount: 5, big: 4, at: '2024-01-04T10:00:00' },
      ],
    })
  ).resource_id;
  plain = (
    await api.ok('datastore_create', {
      resource: { package_id: pkg.id, name: 'Senza chiave' },
      fields: [
        { id: 'a', type: 'text' },
        { id: 'b', type: 'int4' },
      ],
      records: [
        { a: 'x', b: 1 },
        { a: 'x', b: 1 },
        { a: 'y', b: 2 },
      ],
    })
  ).resource_id;
  await postRaw(
    portal,
    'datastore_upsert',
    `{"resource_id": "${keyed}", "method": "upsert", "records": [{"code": "D", "big": 9007199254740993}]}`,
  );
});

afterAll(async () => {
  await portal?.stop();
  for (const dir of [dst, work]) if (dir) removeDir(dir);
});

describe('a mirror synced after the portal changed rows', () => {
  it('keeps the first mirror as version 1', async () => {
    const r = runCli(['mirror', `${portal.url}/dataset/i25-versions`, '--data', dst]);
    expect(r.status, r.stderr).toBe(0);
    await withMirror(
      async (server) => {
        const v = await ckan(server.url).ok('deskstore_versions', { resource_id: keyed });
        expect(v).toMatchObject({ resource_id: keyed, keep: 2, versions: [{ version: 1, rows: 4, source: 'mirror', current: true }] });
        expect(v.versions[0]!.size_bytes).toBeGreaterThan(0);
        const none = await ckan(server.url).get('deskstore_changes', { resource_id: keyed });
        expect(none.status).toBe(409);
        expect(none.text).toContain('changes.no_earlier_version');
      },
      ['--keep-versions', '2'],
    );
  });

  it('answers what changed, as the sync reported it, values exactly', async () => {
    await postRaw(
      portal,
      'datastore_upsert',
      `{"resource_id": "${keyed}", "method": "upsert", "records": [
        {"code": "A", "name": "città"},
        {"code": "B", "name": "Bobby"},
        {"code": "D", "big": 9007199254740995},
        {"code": "E", "name": "Eve", "amount": "1.10", "big": 5, "at": "2024-01-05T10:00:00"}]}`,
    );
    const api = ckan(portal.url, portal.token);
    await api.ok('datastore_delete', { resource_id: keyed, filters: { code: 'C' } });
    await api.ok('datastore_upsert', { resource_id: plain, method: 'update', records: [{ _id: 3, b: 3 }] });
    await api.ok('datastore_upsert', { resource_id: plain, method: 'insert', records: [{ a: 'z', b: 9 }] });

    const outcome = syncOutcome();
    const reported = new Map(outcome.resources.map((r) => [r.resource_id, r]));
    expect(reported.get(keyed)).toMatchObject({ status: 'updated', changes: { added: 1, removed: 1, changed: 3 } });
    expect(reported.get(plain)).toMatchObject({ status: 'updated', changes: { added: 1, removed: 0, changed: 1 } });

    await withMirror(
      async (server) => {
        const v = await ckan(server.url).ok('deskstore_versions', { resource_id: keyed });
        expect(v.versions.map((x) => [x.version, x.source, x.rows, x.current])).toEqual([
          [2, 'sync', 4, true],
          [1, 'mirror', 4, false],
        ]);

        const { text, result } = await changes(server, { resource_id: keyed });
        expect(result).toMatchObject({ resource_id: keyed, from: 1, to: 2, key: ['code'], key_reason: 'unique_column' });
        expect(result.counts).toEqual(reported.get(keyed)!.changes);
        expect(result.total).toBe(5);
        expect(result.records.map((r) => [r._change, r.code, r._before])).toEqual([
          ['added', 'E', undefined],
          ['removed', 'C', undefined],
          ['changed', 'A', { name: 'citta' }],
          ['changed', 'B', { name: 'Bob' }],
          ['changed', 'D', { big: expect.any(Number) }], // its digits: in the text, below
        ]);
        // As written, not as a double would say them.
        expect(text).toContain('"big":9007199254740995,');
        expect(text).toContain('"_before":{"big":9007199254740993}');
        expect(result.fields.map((f) => f.id)).toEqual(['_id', 'code', 'name', 'amount', 'big', 'at']);

        // CKAN's upsert keeps a row's _id: matched by it, the same answer; a page of one kind.
        const byId = await changes(server, { resource_id: keyed, key: '_id' });
        expect(byId.result).toMatchObject({ key: ['_id'], key_reason: 'given', counts: result.counts });
        const page = await changes(server, { resource_id: keyed, change: 'changed', offset: '1', limit: '1' });
        expect(page.result.total).toBe(3);
        expect(page.result.records.map((r) => r.code)).toEqual(['B']);
        const backwards = await changes(server, { resource_id: keyed, from: '2', to: '1' });
        expect(backwards.result.counts).toEqual({ added: 1, removed: 1, changed: 3 });
        expect(backwards.result.records[0]).toMatchObject({ _change: 'added', code: 'C' });

        // No column of the other table is a key: the portal's _ids are.
        const other = await changes(server, { resource_id: plain });
        expect(other.result).toMatchObject({ key: ['_id'], key_reason: 'unique_column', counts: reported.get(plain)!.changes });
        expect(other.result.records.map((r) => [r._change, r.a, r.b, r._before])).toEqual([
          ['added', 'z', 9, undefined],
          ['changed', 'y', 3, { b: 2 }],
        ]);
        // Matched whole by the caller's choice of every column: the edited row is removed and added.
        const whole = await changes(server, { resource_id: plain, key: 'a,b' });
        expect(whole.result.counts).toEqual({ added: 2, removed: 1, changed: 0 });

        const bad = await ckan(server.url).get('deskstore_changes', { resource_id: keyed, change: 'moved', limit: '-1' });
        expect(bad.status).toBe(409);
        expect(bad.body).toMatchObject({
          error: { change: ['Must be one of added, removed, changed'], limit: ['Must be a natural number'] },
        });
        const missing = await ckan(server.url).get('deskstore_changes', { resource_id: keyed, key: 'nope' });
        expect(missing.status).toBe(409);

        // The same rows as a file: the dump's formats, _change first and _before last.
        const csv = await fetch(`${server.url}/datastore/changes/${keyed}?format=csv&change=changed`);
        expect(csv.status).toBe(200);
        expect(csv.headers.get('content-disposition')).toContain('changes 1');
        const lines = (await csv.text()).trim().split(/\r?\n/);
        expect(lines[0]).toBe('_change,_id,code,name,amount,big,at,_before');
        expect(lines.slice(1)).toEqual([
          expect.stringMatching(/^changed,1,A,città,2\.5,1,2024-01-01T10:00:00,"{""name"":""citta""}"$/),
          expect.stringMatching(/^changed,2,B,Bobby,3,2,2024-01-02T10:00:00,"{""name"":""Bob""}"$/),
          expect.stringMatching(/^changed,4,D,Dora,5,9007199254740995,2024-01-04T10:00:00,"{""big"":9007199254740993}"$/),
        ]);
        const json = await fetch(`${server.url}/datastore/changes/${keyed}?format=json&change=removed`);
        const dumped = (await json.json()) as { fields: { id: string }[]; records: unknown[][] };
        expect(dumped.fields.map((f) => f.id)).toEqual(['_change', '_id', 'code', 'name', 'amount', 'big', 'at', '_before']);
        expect(dumped.records).toEqual([['removed', 3, 'C', 'Carl', 4, 3, '2024-01-03T10:00:00', null]]);
        const excel = await fetch(`${server.url}/datastore/changes/${keyed}?format=csv&deskstore_dialect=excel-it&change=added`);
        expect((await excel.text()).split('\r\n')[1]).toMatch(/^added;5;E;Eve;1,10?;5;2024-01-05 10:00:00;null$/); // NULL json is `null`, as in the dump
        expect((await fetch(`${server.url}/datastore/changes/${keyed}?from=9`)).status).toBe(409);
      },
      ['--keep-versions', '2'],
    );
  });

  it('drops the oldest version and its files past --keep-versions', async () => {
    const catalogueGenerations = () => readdirSync(join(dst, 'resources', keyed)).map((f) => Number(f.split('.')[0]));
    const before = new Set(catalogueGenerations());
    expect(before.size).toBe(2);
    await ckan(portal.url, portal.token).ok('datastore_upsert', {
      resource_id: keyed,
      method: 'insert',
      records: [{ code: 'F', name: 'Fede', amount: 6, big: 6, at: '2024-01-06T10:00:00' }],
    });
    expect(syncOutcome(['--keep-versions', '2']).resources.find((r) => r.resource_id === keyed)).toMatchObject({
      status: 'updated',
      changes: { added: 1, removed: 0, changed: 0 },
    });
    const after = new Set(catalogueGenerations());
    expect(after.size).toBe(2);
    expect([...before].filter((g) => after.has(g))).toHaveLength(1); // the oldest went, files and all
    await withMirror(async (server) => {
      const v = await ckan(server.url).ok('deskstore_versions', { resource_id: keyed });
      expect(v.versions.map((x) => x.version)).toEqual([3, 2]);
      const gone = await ckan(server.url).get('deskstore_changes', { resource_id: keyed, from: '1' });
      expect(gone.status).toBe(409);
      expect(gone.text).toContain('changes.version_not_kept');
    });
  });

  it('syncs on a schedule while the server runs, as a job the window can tell about', async () => {
    // An "hour" of a schedule lasts a second here (a test-only setting of `serve`).
    const server = await startServer({ dataDir: dst, env: { DESKSTORE_SCHEDULE_HOUR_MS: '1000', HTTP_PROXY: '', http_proxy: '' } });
    try {
      const api = ckan(server.url, server.token);
      expect((await ckan(server.url).post('deskstore_sync_schedule', { id: 'i25-versions', every_hours: 1 })).status).toBe(403);
      const pkg = await api.ok('package_show', { id: 'i25-versions' });
      expect(await api.ok('deskstore_sync_schedule', { id: pkg.id, every_hours: 1 })).toEqual({ id: pkg.id, every_hours: 1 });
      expect((await api.ok('package_show', { id: pkg.id })).deskstore_sync_schedule).toEqual({ every_hours: 1 });
      await ckan(portal.url, portal.token).ok('datastore_delete', { resource_id: keyed, filters: { code: 'F' } });
      let job: PortalJobStatus | undefined;
      for (let i = 0; i < 300 && job?.status !== 'complete'; i++) {
        await new Promise((r) => setTimeout(r, 200));
        const all = (await api.ok('deskstore_portal_job_status', {})) as readonly PortalJobStatus[];
        job = all.find((j) => j.scheduled && j.status !== 'pending' && j.status !== 'running');
      }
      expect(job).toMatchObject({ kind: 'sync', scheduled: true, status: 'complete' });
      const outcome = (job!.result as MirrorOutcome[])[0]!;
      expect(outcome.resources.find((r) => r.resource_id === keyed)).toMatchObject({
        status: 'updated',
        changes: { added: 0, removed: 1, changed: 0 },
      });
      const v = await api.ok('deskstore_versions', { resource_id: keyed });
      expect(v.versions[0]).toMatchObject({ version: 4, source: 'sync', rows: 4 });
      // Stopped: no schedule shown, nothing more started.
      expect(await api.ok('deskstore_sync_schedule', { id: pkg.id, every_hours: 0 })).toEqual({ id: pkg.id, every_hours: null });
      expect((await api.ok('package_show', { id: pkg.id })).deskstore_sync_schedule).toBeUndefined();
      const bad = await api.post('deskstore_sync_schedule', { id: pkg.id, every_hours: -2 });
      expect(bad.status).toBe(409);
    } finally {
      await server.stop();
    }
  });
});

describe('local versions: import, Replace data, primary key, whole rows, writes', () => {
  const csv = (name: string, text: string) => {
    const path = join(work, name);
    writeFileSync(path, text);
    return path;
  };
  const local = 'i25-local-resource';
  const rows = 'i25-whole-rows-resource';
  const data = () => join(work, 'data');

  it('names versions after what made them and matches rows by the primary key set since', async () => {
    const import1 = runCli([
      'import',
      csv('one.csv', 'code,name,amount\nA,citta,2.5\nB,Bob,3\nC,Carl,4\n'),
      '--data',
      data(),
      '--package',
      'i25-local',
      '--resource-id',
      local,
    ]);
    expect(import1.status, import1.stderr).toBe(0);
    const import2 = runCli([
      'import',
      csv('two.csv', 'code,name,amount\nA,città,2.50\nB,Bob,3\nD,Dan,5\n'),
      '--data',
      data(),
      '--resource-id',
      local,
    ]);
    expect(import2.status, import2.stderr).toBe(0);
    const server = await startServer({ dataDir: data() });
    try {
      const api = ckan(server.url, server.token);
      const three = 'code,name,amount\nA,città,2.50\nB,Bobby,3\nD,Dan,5\nE,Eve,1\n';
      const patched = await api.upload('resource_patch', { id: local }, { name: 'three.csv', data: Buffer.from(three) });
      expect(patched.status, patched.text).toBe(200);
      for (let i = 0; i < 600; i++) {
        const status = await api.ok('xloader_status', { resource_id: local });
        if (!['pending', 'running'].includes(status.status)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const v = await api.ok('deskstore_versions', { resource_id: local });
      expect(v.versions.map((x) => [x.version, x.source, x.rows])).toEqual([
        [3, 'replace', 4],
        [2, 'import', 3],
        [1, 'import', 3],
      ]);
      const since1 = await changes(server, { resource_id: local, from: '1', to: '2' });
      expect(since1.result.counts).toEqual({ added: 1, removed: 1, changed: 1 });
      expect(since1.result.records.find((r) => r._change === 'changed')?._before).toEqual({ name: 'citta', amount: 2.5 });

      // A primary key set on the current table is the resource's key from then on.
      await api.ok('datastore_create', { resource_id: local, primary_key: ['name'], force: true });
      const byKey = await changes(server, { resource_id: local });
      expect(byKey.result).toMatchObject({ from: 2, to: 3, key: ['name'], key_reason: 'primary_key' });
      expect(byKey.result.counts).toEqual({ added: 2, removed: 1, changed: 0 }); // Bob → Bobby is another name

      // A write answered but not yet checkpointed is in the current version.
      await api.ok('datastore_upsert', { resource_id: local, method: 'upsert', force: true, records: [{ name: 'Eve', amount: 7 }] });
      const written = await changes(server, { resource_id: local, key: 'code' });
      expect(written.result.records.find((r) => r.code === 'E')).toMatchObject({ _change: 'added', amount: 7 });
      expect((await api.ok('datastore_search', { resource_id: local, filters: { name: 'Eve' } })).records[0].amount).toBe(7);
    } finally {
      await server.stop();
    }
  });

  it('matches rows whole when no column is a key, and keeps only the current version with --keep-versions 1', async () => {
    const first = runCli([
      'import',
      csv('w1.csv', 'a,b\nx,1\nx,1\ny,2\n'),
      '--data',
      data(),
      '--package',
      'i25-rows',
      '--resource-id',
      rows,
    ]);
    expect(first.status, first.stderr).toBe(0);
    expect(runCli(['import', csv('w2.csv', 'a,b\ny,2\nx,1\nx,3\n'), '--data', data(), '--resource-id', rows]).status).toBe(0);
    const server = await startServer({ dataDir: data() });
    try {
      const whole = await changes(server, { resource_id: rows });
      expect(whole.result).toMatchObject({ key: 'row', counts: { added: 1, removed: 1, changed: 0 } });
      expect(whole.result.key_reason).toBeUndefined();
      expect(whole.result.records.map((r) => [r._change, r.a, r.b])).toEqual([
        ['added', 'x', 3],
        ['removed', 'x', 1],
      ]);
    } finally {
      await server.stop();
    }
    const r = runCli(['import', csv('w3.csv', 'a,b\nq,1\n'), '--data', data(), '--resource-id', rows, '--keep-versions', '1']);
    expect(r.status, r.stderr).toBe(0);
    expect(lastJsonLine<{ rows: number }>(r.stdout).rows).toBe(1);
    const files = readdirSync(join(data(), 'resources', rows));
    expect(new Set(files.map((f) => f.split('.')[0])).size).toBe(1);
    expect(existsSync(join(data(), 'resources', rows))).toBe(true);
    const again = await startServer({ dataDir: data() });
    try {
      const v = await ckan(again.url).ok('deskstore_versions', { resource_id: rows });
      expect(v.versions.map((x) => x.version)).toEqual([3]);
    } finally {
      await again.stop();
    }
  });
});
