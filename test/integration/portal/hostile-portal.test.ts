/**
 * The portal client against a hostile portal (issue 21): every answer is capped after
 * decompression, slow bodies end by the timeout, dumps and pages are bounded by the total the
 * portal announced, and neither a redirect nor a resource URL may lead to a local or private
 * address of another origin (checked on the address connected to). Each ends with a coded
 * failure, the previous version kept, and no traffic outside 127.0.0.0/8.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MirrorOutcome, MirroredResource, PortalJobStatus } from '../../../src/shared/portal';
import { PortalClient } from '../../../src/main/portal/portal-client';
import { isPortalError } from '../../../src/main/portal/portal-errors';
import { ckan } from '../../helpers/ckan-client';
import { lastJsonLine, removeDir, runCliAsync, startServer, tempDir, type CliResult } from '../../helpers/deskstore-process';
import { FILE_ID, TABLE_ID, startFakePortal, type FakePortal } from '../../helpers/fake-portal';

let fake: FakePortal;
let bystander: { url: string; port: number; seen: IncomingMessage[]; close(): Promise<void> };
let dst: string;

const ENV = { DESKSTORE_PORTAL_BACKOFF_MS: '20', HTTP_PROXY: '', HTTPS_PROXY: '', http_proxy: '', https_proxy: '' };

/** Another local server, standing for the local Deskstore or anything else on this machine. */
async function startBystander(): Promise<typeof bystander> {
  const seen: IncomingMessage[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"help": "", "success": true, "result": ["private-dataset"]}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, port, seen, close: () => new Promise((r) => server.close(() => r())) };
}

/** `deskstore mirror` of the fake dataset, ended by the test if it has not ended by itself in 3 minutes. */
async function mirror(args: string[] = []): Promise<CliResult & { resources: Map<string, MirroredResource> }> {
  const run = runCliAsync(['mirror', `${fake.url}/opendata/dataset/fake-data`, '--data', dst, '--retries', '1', ...args], ENV);
  const timer = new Promise<null>((resolve) => setTimeout(() => resolve(null), 180_000));
  const r = await Promise.race([run, timer]);
  if (!r) throw new Error('the mirror did not end by itself within 3 minutes');
  let resources = new Map<string, MirroredResource>();
  try {
    resources = new Map(lastJsonLine<MirrorOutcome>(r.stdout).resources.map((x): [string, MirroredResource] => [x.resource_id, x]));
  } catch {
    // no outcome line: the caller looks at the status and stderr
  }
  return { ...r, resources };
}

/** The highest resident memory of a process so far (VmHWM), in bytes. */
function peakRss(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (!kb) throw new Error(`no VmHWM for ${pid}`);
  return Number(kb) * 1024;
}

beforeAll(async () => {
  fake = await startFakePortal();
  bystander = await startBystander();
  fake.state.awayOrigin = bystander.url;
  dst = join(tempDir(), 'dati'); // made by the first mirror
});

afterAll(async () => {
  await fake?.close();
  await bystander?.close();
  if (dst) removeDir(dirname(dst));
});

const MB = 1024 * 1024;

describe('answers are capped after decompression', () => {
  it('refuses a 2 GiB gzip bomb and a 40 MB answer without retrying, the server’s peak memory growing by less than 200 MB', async () => {
    const server = await startServer();
    try {
      const api = ckan(server.url, server.token);
      const browse = (id: string) =>
        api.post('deskstore_portal_call', { url: `${fake.url}/opendata`, action: 'package_show', params: { id } });
      expect((await browse('fake-data')).body).toMatchObject({ result: { ok: true } }); // found and remembered first
      const before = peakRss(server.child.pid!);
      const asked = () => fake.seen.filter((s) => s.path.startsWith('/opendata/api/3/action/package_show')).length;
      const askedBefore = asked();
      fake.inject('package_show', 'bomb');
      const bomb = await browse('fake-data');
      fake.inject('package_show', 'oversized');
      const oversized = await browse('fake-data');
      const grown = peakRss(server.child.pid!) - before;
      for (const r of [bomb, oversized]) {
        expect(r.body).toMatchObject({
          success: true,
          result: { ok: false, error: { code: 'portal.answer_too_large', params: { action: 'package_show', max: '32 MB' } } },
        });
      }
      expect(asked() - askedBefore).toBe(2); // each asked once: a refusal of size is not retried
      // The bomb inflates to 2 GiB (it took the server from 215 MB to 6.4 GB); reading stops at 32 MB.
      expect(grown, `peak grew by ${Math.round(grown / MB)} MB`).toBeLessThan(200 * MB);
    } finally {
      await server.stop();
      removeDir(server.dataDir);
    }
  }, 300_000);
});

describe('pages of rows are bounded by the announced total, and by time', () => {
  beforeAll(async () => {
    const first = await mirror();
    expect(first.resources.get(TABLE_ID), first.stderr).toMatchObject({ status: 'mirrored', rows: 50 });
  }, 300_000);

  it('ends a page trickled a byte at a time at --timeout-s, the deadline of action answers', async () => {
    fake.change();
    fake.inject('datastore_search:page', 'trickle', 'trickle');
    const r = await mirror(['--timeout-s', '3', '--resource', TABLE_ID]);
    expect(r.resources.get(TABLE_ID), r.stderr).toMatchObject({ status: 'failed', message: { code: 'portal.timeout' } });
  }, 300_000);

  it('stops a page that never ends at the answer cap, asking for smaller pages a few times only', async () => {
    fake.change();
    fake.inject('datastore_search:page', 'endless', 'endless', 'endless', 'endless', 'endless');
    fake.sent.bytes = 0;
    const r = await mirror(['--resource', TABLE_ID]);
    expect(r.resources.get(TABLE_ID), r.stderr).toMatchObject({ status: 'failed', message: { code: 'portal.answer_too_large' } });
    // Five pages (10,000 rows, then 2,500, 625, 156, 100), each cut at the 32 MB answer cap.
    expect(fake.sent.bytes).toBeLessThan(5 * (32 * MB + 8 * MB));
  }, 300_000);

  it('stops datastore_search pages at the first row past the total', async () => {
    fake.change();
    fake.modes.add('endless-pages');
    try {
      const before = fake.seen.length;
      const r = await mirror(['--resource', TABLE_ID]);
      expect(r.resources.get(TABLE_ID), r.stderr).toMatchObject({ status: 'failed', message: { code: 'mirror.rows_past_total' } });
      const pages = fake.seen.slice(before).filter((s) => s.method === 'POST' && s.path.includes('datastore_search'));
      expect(pages).toHaveLength(1);
    } finally {
      fake.clear();
    }
  }, 300_000);
});

describe('what a mirror leaves in the data folder', () => {
  it('keeps its downloads private (0700, 0600), and a cancelled mirror leaves no resource folder behind', async () => {
    const server = await startServer();
    try {
      const api = ckan(server.url, server.token);
      fake.inject('/files/data.csv', 'trickle');
      const job = await api.ok('deskstore_mirror', { url: `${fake.url}/opendata/dataset/fake-data` });
      const portalDir = join(server.dataDir, 'jobs', 'portal');
      // The table is built aside, then the file trickles in: its download is on disk.
      const fileDownloading = async () =>
        ((await api.ok('deskstore_portal_job_status', { job_id: job.job_id })) as PortalJobStatus).items.some(
          (item) => item.resource_id === FILE_ID && item.phase === 'downloading',
        );
      let downloads: string[] = [];
      for (let i = 0; i < 600 && downloads.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
        if (await fileDownloading()) downloads = readdirSync(portalDir);
      }
      expect(downloads.length).toBeGreaterThan(0);
      expect(statSync(portalDir).mode & 0o777).toBe(0o700);
      expect(statSync(join(server.dataDir, 'jobs')).mode & 0o777).toBe(0o700);
      expect(statSync(join(portalDir, downloads[0]!)).mode & 0o777).toBe(0o600);
      expect(existsSync(join(server.dataDir, 'resources', TABLE_ID))).toBe(true);
      expect(await api.ok('deskstore_portal_job_cancel', { job_id: job.job_id })).toMatchObject({ cancelled: true });
      // What the cancelled mirror built aside goes, the new resource's folder with it.
      const folder = join(server.dataDir, 'resources', TABLE_ID);
      for (let i = 0; i < 600 && existsSync(folder); i++) await new Promise((r) => setTimeout(r, 100));
      expect(existsSync(folder)).toBe(false);
      expect(readdirSync(portalDir)).toEqual([]);
      expect((await ckan(server.url).post('package_show', { id: 'fake-data' })).status).toBe(404);
    } finally {
      fake.clear();
      await server.stop();
      removeDir(server.dataDir);
    }
  }, 300_000);

  it('makes the data folder of a command-line mirror private', async () => {
    const fresh = join(tempDir(), 'nuova');
    try {
      const r = await runCliAsync(['mirror', `${fake.url}/opendata/dataset/fake-data`, '--data', fresh, '--resource', TABLE_ID], ENV);
      expect(r.status, r.stderr).toBe(0);
      expect(statSync(fresh).mode & 0o777).toBe(0o700);
      expect(statSync(join(fresh, 'jobs', 'portal')).mode & 0o777).toBe(0o700);
    } finally {
      removeDir(dirname(fresh));
    }
  }, 300_000);
});

describe('redirects and resource URLs stay on the portal or go to public addresses', () => {
  it('refuses a redirect to another local port, sending nothing there', async () => {
    fake.inject('package_show', 'away');
    const r = await mirror();
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/leads to 127\.0\.0\.1, a local or private address/);
    expect(bystander.seen).toEqual([]);
  }, 300_000);

  it('refuses a resource URL on another local origin (the local Deskstore’s own API)', async () => {
    fake.state.fileUrl = `${bystander.url}/api/3/action/package_list`;
    try {
      const r = await mirror(['--resource', FILE_ID]);
      expect(r.resources.get(FILE_ID), r.stderr).toMatchObject({
        status: 'failed',
        message: { code: 'portal.forbidden_address', params: { address: '127.0.0.1' } },
      });
      expect(bystander.seen).toEqual([]);
    } finally {
      delete fake.state.fileUrl;
    }
  }, 300_000);

  it('checks the address a name resolves to when connecting (DNS rebinding), with an injected resolver', async () => {
    const asked: string[] = [];
    // Every name resolves to this machine, as a rebinding name would once the check has passed.
    const lookup = ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      asked.push(hostname);
      if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
      else callback(null, '127.0.0.1', 4);
    }) as unknown as LookupFunction;
    const portalPort = new URL(fake.url).port;
    const client = new PortalClient(`http://portal.test:${portalPort}/opendata`, {
      userAgent: 'test',
      lookup,
      retries: 0,
      timeoutMs: 5_000,
    });
    try {
      // The portal's own origin may be anywhere, a local address included.
      expect(await client.action('status_show')).toMatchObject({ ckan_version: '2.10.10' });
      const err = await client.download(`http://rebound.test:${bystander.port}/data.csv`, `${dst}/never.csv`).then(
        () => null,
        (e: unknown) => e,
      );
      expect(isPortalError(err) && err.worded).toMatchObject({ code: 'portal.forbidden_address', params: { address: '127.0.0.1' } });
      expect(asked).toEqual(['portal.test', 'rebound.test']);
      expect(bystander.seen).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
