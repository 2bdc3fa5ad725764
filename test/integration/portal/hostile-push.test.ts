/**
 * Push to a portal that lies (issue 21), through a proxy in front of a second Deskstore: one
 * that acknowledges every datastore_upsert and keeps nothing (push looped 4,000 times in 100 s
 * and held the portal job queue), one that redirects writes to another site, and one that
 * serves rows different from those sent while its total is right. Each push ends with a coded
 * error, is not marked complete, and the next portal job runs.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortalJobStatus } from '../../../src/shared/portal';
import { ckan } from '../../helpers/ckan-client';
import { removeDir, startServer, type ServerProcess } from '../../helpers/deskstore-process';

type Lie = 'swallow-upserts' | 'redirect-writes' | 'alter-rows';

let portal: ServerProcess;
let local: ServerProcess;
let liar: { url: string; lie: Lie | null; upserts: number; close(): Promise<void> };
let bystander: { url: string; seen: IncomingMessage[]; close(): Promise<void> };
let resourceId: string;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** In front of the portal, telling the lie it is set to. */
async function startLiar(target: string): Promise<typeof liar> {
  const state = { lie: null as Lie | null, upserts: 0 };
  const server = createServer((req, res) => {
    const path = req.url ?? '';
    if (path.includes('datastore_upsert')) state.upserts++;
    if (state.lie === 'swallow-upserts' && path.includes('datastore_upsert')) {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"help": "", "success": true, "result": {"method": "insert"}}');
    }
    if (state.lie === 'redirect-writes' && req.method === 'POST') {
      req.resume();
      res.writeHead(307, { location: `${bystander.url}${path}` });
      return res.end();
    }
    const t = new URL(target);
    const up = httpRequest(
      { host: t.hostname, port: t.port, path, method: req.method, headers: { ...req.headers, host: t.host } },
      (answer) => {
        const reading = state.lie === 'alter-rows' && path.includes('datastore_search') && !/[?&]limit=0(&|$)/.test(path);
        if (!reading) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          return void answer.pipe(res);
        }
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          // The rows come back with another name in them: what was sent is not what is kept.
          const body = Buffer.from(
            Buffer.concat(chunks)
              .toString('utf8')
              .replace(/"name": ?"riga /g, '"name": "altra riga '),
          );
          res.writeHead(answer.statusCode ?? 502, { 'content-type': 'application/json', 'content-length': body.length });
          res.end(body);
        });
      },
    );
    req.pipe(up);
  });
  const url = await listen(server);
  return {
    url,
    get lie() {
      return state.lie;
    },
    set lie(l) {
      state.lie = l;
    },
    get upserts() {
      return state.upserts;
    },
    close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/** Starts a push job through the API and waits (3 minutes at most) until it ends. */
async function pushJob(dataset: string): Promise<PortalJobStatus> {
  const api = ckan(local.url, local.token);
  const job = await api.ok('deskstore_push', { resource_id: resourceId, to: liar.url, token: portal.token, dataset });
  return waitFor(job.job_id);
}

async function waitFor(jobId: string): Promise<PortalJobStatus> {
  const api = ckan(local.url, local.token);
  for (let i = 0; i < 1800; i++) {
    const job = (await api.get('deskstore_portal_job_status', { job_id: jobId })).body as { result: PortalJobStatus };
    if (job.result.status !== 'pending' && job.result.status !== 'running') return job.result;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`job ${jobId} did not end within 3 minutes`);
}

beforeAll(async () => {
  portal = await startServer();
  local = await startServer();
  liar = await startLiar(portal.url);
  const seen: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    seen.push(req);
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"success": true, "result": {}}');
  });
  bystander = { url: await listen(server), seen, close: () => new Promise((r) => server.close(() => r())) };
  const api = ckan(local.url, local.token);
  await api.ok('package_create', { name: 'bugie' });
  resourceId = (
    await api.ok('datastore_create', {
      resource: { package_id: 'bugie', name: 'Righe' },
      fields: [
        { id: 'name', type: 'text' },
        { id: 'n', type: 'int4' },
      ],
      records: Array.from({ length: 1200 }, (_, i) => ({ name: `riga ${i}`, n: i })),
    })
  ).resource_id;
}, 120_000);

afterAll(async () => {
  await liar?.close();
  await bystander?.close();
  for (const s of [local, portal]) {
    await s?.stop();
    if (s) removeDir(s.dataDir);
  }
});

describe('push to a portal that lies', () => {
  it('stops when acknowledged batches do not move the total, and the next portal job runs', async () => {
    liar.lie = 'swallow-upserts';
    const before = liar.upserts;
    const api = ckan(local.url, local.token);
    const push = await api.ok('deskstore_push', {
      resource_id: resourceId,
      to: liar.url,
      token: portal.token,
      dataset: 'inghiottite',
    });
    const next = await api.ok('deskstore_sync', {});
    const pushed = await waitFor(push.job_id);
    expect(pushed).toMatchObject({ status: 'error', error: { code: 'push.no_progress', params: { acknowledged: 1200, total: 0 } } });
    // One pass of the rows (batches of 10,000 rows): never sent again.
    expect(liar.upserts - before).toBe(1);
    expect((await waitFor(next.job_id)).status).toBe('complete');
    const link = (await api.ok('resource_show', { id: resourceId })).deskstore_push;
    expect(link).toMatchObject({ complete: false });
  }, 240_000);

  it('refuses to follow a write redirected to another site', async () => {
    liar.lie = 'redirect-writes';
    const job = await pushJob('rimandata');
    expect(job).toMatchObject({ status: 'error', error: { code: 'portal.redirect_refused' } });
    expect(bystander.seen).toEqual([]);
  }, 240_000);

  it('reads a sample of rows back before saying created, and refuses rows that differ', async () => {
    liar.lie = 'alter-rows';
    const job = await pushJob('alterata');
    expect(job).toMatchObject({
      status: 'error',
      error: { code: 'push.readback_mismatch', params: { row: 1, column: 'name', local: '"riga 0"', remote: '"altra riga 0"' } },
    });
    const link = (await ckan(local.url, local.token).ok('resource_show', { id: resourceId })).deskstore_push;
    expect(link).toMatchObject({ complete: false });
    // An honest portal: the same push completes, its sample read back.
    liar.lie = null;
    expect(await pushJob('alterata')).toMatchObject({ status: 'complete', result: { status: 'updated', rows: 1200 } });
  }, 240_000);
});
