/**
 * Push to a second Deskstore acting as the portal (issue 13): every row and field compared;
 * values cross exactly; a batch whose answer is lost after the commit, a 503, and a SIGKILL of
 * the pushing process each end, after pushing again, with the remote table equal to the local
 * one and no row twice; pushing again answers `unchanged`; a changed table is pushed as `updated`.
 */
import { spawn } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ckan } from '../../helpers/ckan-client';
import { TYPED_FIELDS as FIELDS, TYPED_RECORDS } from '../../helpers/typed-table';
import { CLI, lastJsonLine, removeDir, runCliAsync, startServer, tempDir, type ServerProcess } from '../../helpers/deskstore-process';
import type { PushOutcome } from '../../../src/shared/portal';

const BULK = Array.from({ length: 3000 }, (_, i) => ({
  name: `riga ${i}`,
  n: i + 10,
  price: i / 4,
  day: '2021-01-01',
  at: null,
  flag: i % 2 === 0,
  meta: null,
  tags: null,
}));

let portal: ServerProcess;
let local: ServerProcess | null = null;
let dir: string;
let resourceId: string;
let faulty: FaultProxy;

interface FaultProxy {
  url: string;
  inject(...faults: ('lose-answer' | '503')[]): void;
  /** After `passed` more upserts, the next one commits on the portal, its answer is held and `onHeld` runs. */
  holdAfter(passed: number, onHeld: () => void): void;
  upserts(): number;
  close(): Promise<void>;
}

/** In front of the portal: the next datastore_upsert calls get the injected faults. */
async function startFaultProxy(target: string): Promise<FaultProxy> {
  const queue: ('lose-answer' | '503')[] = [];
  let upserts = 0;
  let hold: { at: number; onHeld: () => void } | null = null;
  const server: Server = createServer((req, res) => {
    const isUpsert = (req.url ?? '').includes('datastore_upsert');
    if (isUpsert) upserts++;
    const fault = isUpsert ? queue.shift() : undefined;
    if (fault === '503') {
      req.resume();
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end('{"success": false, "error": {"__type": "Internal Server Error", "message": "busy"}}');
      return;
    }
    const t = new URL(target);
    const up = httpRequest(
      { host: t.hostname, port: t.port, path: req.url, method: req.method, headers: { ...req.headers, host: t.host } },
      (answer) => {
        if (isUpsert && hold && upserts === hold.at) {
          const { onHeld } = hold;
          hold = null;
          answer.resume();
          answer.on('end', onHeld); // committed there; the pusher never hears back
          return;
        }
        if (fault === 'lose-answer') {
          answer.resume();
          answer.on('end', () => res.socket?.destroy()); // committed there, but the answer never arrives
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    inject: (...faults) => queue.push(...faults),
    holdAfter: (passed, onHeld) => {
      hold = { at: upserts + passed + 1, onHeld };
    },
    upserts: () => upserts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const push = (to: string, extra: string[] = []) =>
  runCliAsync(['push', resourceId, '--data', dir, '--to', to, `--token=${portal.token}`, '--batch-rows', '500', ...extra], {
    DESKSTORE_PORTAL_BACKOFF_MS: '20',
  });

async function remoteRows(id: string): Promise<Record<string, unknown>[]> {
  const r = await ckan(portal.url).ok('datastore_search', { resource_id: id, limit: 32000, sort: '_id' });
  return (r.records as Record<string, unknown>[]).map(({ _id, ...rest }) => rest);
}

async function localRows(): Promise<Record<string, unknown>[]> {
  const server = await startServer({ dataDir: dir });
  try {
    const r = await ckan(server.url).ok('datastore_search', { resource_id: resourceId, limit: 32000, sort: '_id' });
    return (r.records as Record<string, unknown>[]).map(({ _id, ...rest }) => rest);
  } finally {
    await server.stop();
  }
}

beforeAll(async () => {
  portal = await startServer();
  dir = tempDir();
  local = await startServer({ dataDir: dir });
  const api = ckan(local.url, local.token);
  await api.ok('package_create', { name: 'da-pubblicare', title: 'Da pubblicare', notes: 'Note' });
  resourceId = (
    await api.ok('datastore_create', {
      resource: { package_id: 'da-pubblicare', name: 'Tabella pulita' },
      fields: FIELDS,
      records: [...TYPED_RECORDS, ...BULK],
    })
  ).resource_id;
  await local.stop();
  local = null;
  faulty = await startFaultProxy(portal.url);
});

afterAll(async () => {
  await faulty?.close();
  await local?.stop();
  await portal?.stop();
  if (dir) removeDir(dir);
});

describe('push to a Deskstore portal', () => {
  let remoteId = '';

  it("tells a portal refusal in the user's words with the portal's message", async () => {
    const r = await runCliAsync([
      'push',
      resourceId,
      '--data',
      dir,
      '--to',
      portal.url,
      '--token=wrong-token',
      '--dataset',
      'altro-dataset',
    ]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/refused: not authorized/);
    expect(r.stderr).toMatch(/Access denied/); // the portal's own words, underneath
  });

  it('creates the dataset and a DataStore resource with the local fields, through a lost answer and a 503', async () => {
    faulty.inject('lose-answer', '503');
    const r = await push(faulty.url);
    expect(r.status, r.stderr).toBe(0);
    const out = lastJsonLine<PushOutcome>(r.stdout);
    expect(out).toMatchObject({ status: 'created', rows: TYPED_RECORDS.length + BULK.length });
    expect(r.stderr).toMatch(/checking what the portal holds/);
    remoteId = out.resource_id;
    const remote = await ckan(portal.url).ok('datastore_search', { resource_id: remoteId, limit: 0 });
    expect(remote.fields.slice(1)).toEqual(FIELDS);
    expect(remote.total).toBe(TYPED_RECORDS.length + BULK.length);
    const pkg = await ckan(portal.url).ok('package_show', { id: 'da-pubblicare' });
    expect(pkg.title).toBe('Da pubblicare');
    expect(out.url).toBe(`${faulty.url}/dataset/da-pubblicare/resource/${remoteId}`);
    expect(await remoteRows(remoteId)).toEqual(await localRows());
  });

  it('cuts column names longer than CKAN keeps to 63 bytes, unique, keeps the full name as the label, and says so (issue 23)', async () => {
    // 63 characters, which datastore_create accepts as CKAN 2.11 does (it counts characters),
    // but 64 bytes, which PostgreSQL cuts: the ISTAT sample's names before imports kept 63 bytes.
    // Two names that differ only past their 63rd byte must stay two.
    const long = `Denominazione dell'Unità territoriale sovracomunale (valida a f`;
    const twinA = `à${'y'.repeat(61)}a`;
    const twinB = `à${'y'.repeat(61)}b`;
    for (const name of [long, twinA, twinB]) expect([name.length, Buffer.byteLength(name)]).toEqual([63, 64]);
    local = await startServer({ dataDir: dir });
    let id: string;
    try {
      const created = await ckan(local.url, local.token).ok('datastore_create', {
        resource: { package_id: 'da-pubblicare', name: 'Nomi lunghi' },
        fields: [long, twinA, twinB, 'n'].map((name) => ({ id: name, type: name === 'n' ? 'int' : 'text' })),
        records: [
          { [long]: 'x', [twinA]: 'y', [twinB]: 'z', n: 1 },
          { [long]: 'w', [twinA]: 'v', [twinB]: 'u', n: 2 },
        ],
      });
      id = created.resource_id;
    } finally {
      await local.stop();
      local = null;
    }
    const args = ['push', id, '--data', dir, '--to', portal.url, `--token=${portal.token}`, '--dataset', 'nomi-lunghi'];
    const r = await runCliAsync(args);
    expect(r.status, r.stderr).toBe(0);
    const out = lastJsonLine<PushOutcome>(r.stdout);
    // 62 characters are 63 bytes (the `à` is two), the space they end with dropped; the second
    // twin's cut is taken, so it ends in `_2` within 63 bytes.
    const cut = long.slice(0, 62).trimEnd();
    const cutB = `${twinB.slice(0, 60)}_2`;
    const expected = [
      { from: long, to: cut },
      { from: twinA, to: twinA.slice(0, 62) },
      { from: twinB, to: cutB },
    ];
    expect(out).toMatchObject({ status: 'created', renamed: expected });
    for (const { to } of expected) expect(Buffer.byteLength(to)).toBeLessThanOrEqual(63);
    const remote = await ckan(portal.url).ok('datastore_search', { resource_id: out.resource_id, sort: '_id' });
    expect(remote.fields.slice(1).map((f: { id: string; info?: { label?: string } }) => [f.id, f.info?.label])).toEqual([
      [cut, long],
      [twinA.slice(0, 62), twinA],
      [cutB, twinB],
      ['n', undefined],
    ]);
    expect(remote.records.map((row: Record<string, unknown>) => [row[cut], row[cutB]])).toEqual([
      ['x', 'z'],
      ['w', 'u'],
    ]);
    // The same names on the next push: nothing changed, nothing sent.
    const again = await runCliAsync(args);
    expect(lastJsonLine<PushOutcome>(again.stdout)).toMatchObject({ status: 'unchanged', renamed: expected });
  });

  it('answers unchanged when nothing changed', async () => {
    const before = faulty.upserts();
    const r = await push(faulty.url);
    expect(lastJsonLine<PushOutcome>(r.stdout)).toMatchObject({ status: 'unchanged', resource_id: remoteId });
    expect(faulty.upserts()).toBe(before);
  });

  it('resumes after the pushing process is killed, without duplicating rows', { timeout: 240_000 }, async () => {
    // Change the local table so the next push replaces the remote rows.
    local = await startServer({ dataDir: dir });
    try {
      await ckan(local.url, local.token).ok('datastore_upsert', {
        resource_id: resourceId,
        method: 'insert',
        force: true,
        records: [{ name: 'aggiunta', n: 99999 }],
      });
    } finally {
      await local.stop();
      local = null;
    }
    const child = spawn(
      process.execPath,
      [CLI, 'push', resourceId, '--data', dir, '--to', faulty.url, `--token=${portal.token}`, '--batch-rows', '200'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    // Killed mid-push, once three batches are in and a fourth committed without its answer:
    // decided by the proxy, not by how fast this machine pushes.
    faulty.holdAfter(3, () => child.kill('SIGKILL'));
    child.stderr.resume();
    await new Promise((resolve) => child.on('close', resolve));
    expect(child.signalCode).toBe('SIGKILL');
    const partial = (await ckan(portal.url).ok('datastore_search', { resource_id: remoteId, limit: 0 })).total as number;
    expect(partial).toBeLessThan(TYPED_RECORDS.length + BULK.length + 1);

    const r = await push(faulty.url);
    expect(r.status, r.stderr).toBe(0);
    expect(lastJsonLine<PushOutcome>(r.stdout)).toMatchObject({
      status: 'updated',
      resource_id: remoteId,
      rows: TYPED_RECORDS.length + BULK.length + 1,
    });
    expect(await remoteRows(remoteId)).toEqual(await localRows());
    expect(lastJsonLine<PushOutcome>((await push(faulty.url)).stdout).status).toBe('unchanged');
  });
});
