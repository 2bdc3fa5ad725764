/**
 * Mirror and sync against a misbehaving portal (issue 12): every fault ends with either a
 * complete new version or the previous one intact and a clear reason. The portal lives under
 * /opendata (found by probing), and carries a non-tabular resource and a hostile resource id.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ckan } from '../../helpers/ckan-client';
import { lastJsonLine, removeDir, runCliAsync, startServer, tempDir } from '../../helpers/deskstore-process';
import { DATASET_ID, FILE_ID, HOSTILE_ID, PDF_ID, TABLE_ID, startFakePortal, type FakePortal } from '../../helpers/fake-portal';
import type { MirrorOutcome, MirroredResource } from '../../../src/shared/portal';

let fake: FakePortal;
let dst: string;

const NET = ['--timeout-s', '1', '--retries', '3'];
const ENV = { DESKSTORE_PORTAL_BACKOFF_MS: '20', HTTP_PROXY: '', HTTPS_PROXY: '', http_proxy: '', https_proxy: '' };

async function sync(env: NodeJS.ProcessEnv = {}) {
  const r = await runCliAsync(['sync', '--data', dst, ...NET], { ...ENV, ...env });
  const lines = r.stdout.trim().split('\n');
  const outcome = lines.length > 1 ? (JSON.parse(lines[0]!) as MirrorOutcome) : null;
  const table = outcome?.resources.find((x) => x.resource_id === TABLE_ID);
  return { ...r, outcome, table };
}

/** The table's published version, as the catalogue names it. */
function published(): { rows: number; generation: number; kept: number[] } {
  const catalogue = JSON.parse(readFileSync(join(dst, 'catalogue.json'), 'utf8')) as {
    resources: { id: string; datastore: { rowCount: number; generation: number; olderVersions?: { generation: number }[] } | null }[];
  };
  const ds = catalogue.resources.find((r) => r.id === TABLE_ID)!.datastore!;
  // The generations of the earlier versions kept (issue 25): their files stay too.
  return { rows: ds.rowCount, generation: ds.generation, kept: (ds.olderVersions ?? []).map((v) => v.generation) };
}

/** A mirror's pages of rows (POSTed datastore_search); the JSON dump is never read (issue 23). */
const pageRequests = () => fake.seen.filter((s) => s.method === 'POST' && s.path.startsWith('/opendata/api/3/action/datastore_search'));
const fileRequests = () => fake.seen.filter((s) => s.path.startsWith('/opendata/files/data.csv'));

beforeAll(async () => {
  fake = await startFakePortal();
  dst = tempDir();
});

afterAll(async () => {
  await fake?.close();
  if (dst) removeDir(dst);
});

describe('mirror from a portal under a path', () => {
  it('finds the API base, mirrors what it can, skips what is not tabular, refuses a hostile id (exit 3)', async () => {
    const r = await runCliAsync(['mirror', `${fake.url}/opendata/it/dataset/fake-data`, '--data', dst, ...NET], ENV);
    expect(r.status, r.stderr).toBe(3);
    const out = lastJsonLine<MirrorOutcome>(r.stdout);
    expect(out.package_id).toBe(DATASET_ID);
    const by = new Map(out.resources.map((x): [string, MirroredResource] => [x.resource_id, x]));
    expect(by.get(TABLE_ID)).toMatchObject({ status: 'mirrored', rows: 50 });
    expect(by.get(FILE_ID)).toMatchObject({ status: 'mirrored', rows: 2 });
    expect(by.get(PDF_ID)).toMatchObject({ status: 'skipped', message: { code: 'mirror.not_tabular' } });
    expect(by.get(HOSTILE_ID)).toMatchObject({ status: 'failed', message: { code: 'mirror.bad_resource_id' } });
    expect(fake.seen.some((s) => s.path.startsWith('/opendata/api/3/action/status_show'))).toBe(true);
    expect(fake.seen.every((s) => String(s.headers['user-agent']).startsWith('Deskstore/'))).toBe(true);

    const server = await startServer({ dataDir: dst });
    try {
      const api = ckan(server.url);
      const pkg = await api.ok('package_show', { id: 'fake-data' });
      expect(pkg).toMatchObject({ license_id: 'cc-by', tags: [{ name: 'prova' }], organization: { name: 'comune-di-prova' } });
      expect(pkg.extras).toEqual([{ key: 'frequenza', value: 'mensile' }]);
      expect(pkg.deskstore_mirror).toMatchObject({ portal: `${fake.url}/opendata`, organization: { id: 'org-0001' } });
      expect(pkg.resources.map((x: { id: string }) => x.id).sort()).toEqual([FILE_ID, PDF_ID, TABLE_ID].sort());
      const rows = await api.ok('datastore_search', { resource_id: TABLE_ID, limit: 100 });
      expect(rows.records.map((x: { _id: number; name: string; n: number | null }) => [x._id, x.name, x.n])).toEqual(fake.state.rows);
      expect(rows.fields[1]).toEqual({ id: 'name', type: 'text', info: { label: 'Nome' } });
      const file = await api.ok('datastore_search', { resource_id: FILE_ID });
      expect(file.records).toEqual([
        { _id: 1, codice: '001', nome: 'Alfa', valore: 1.5 },
        { _id: 2, codice: '002', nome: 'Beta', valore: 2.25 },
      ]);
    } finally {
      await server.stop();
    }
  });

  it('asks for an unchanged file conditionally and downloads nothing', async () => {
    const before = fake.seen.length;
    const r = await sync();
    expect(r.status, r.stderr).toBe(3); // the hostile resource still fails
    expect(r.table?.status).toBe('unchanged');
    expect(r.outcome?.resources.find((x) => x.resource_id === FILE_ID)?.status).toBe('unchanged');
    const fileRequests = fake.seen.slice(before).filter((s) => s.path === '/opendata/files/data.csv');
    expect(fileRequests).toHaveLength(1);
    expect(fileRequests[0]!.headers['if-none-match']).toBeTruthy();
    expect(pageRequests().length).toBe(1);
  });

  it('asks again for a page dropped mid-body, and resumes a file dropped mid-body with Range', async () => {
    fake.change();
    fake.state.csv += '003;Gamma;3,5\n';
    fake.inject('datastore_search:page', 'drop');
    fake.inject('/files/data.csv', 'drop');
    const pagesBefore = pageRequests().length;
    const filesBefore = fileRequests().length;
    const r = await sync();
    expect(r.table).toMatchObject({ status: 'updated', rows: 51, changes: { added: 1, removed: 0, changed: 0 } });
    expect(pageRequests().length - pagesBefore).toBe(2);
    const tries = fileRequests().slice(filesBefore);
    expect(tries).toHaveLength(2);
    expect(tries[1]!.headers.range).toMatch(/^bytes=\d+-$/);
    expect(r.outcome?.resources.find((x) => x.resource_id === FILE_ID)).toMatchObject({ status: 'updated', rows: 3 });
    expect(published().rows).toBe(51);
  });

  it('retries a 503, and waits as long as a 429 Retry-After asks', async () => {
    fake.change();
    fake.inject('datastore_search:page', '503', '429');
    const r = await sync();
    expect(r.table).toMatchObject({ status: 'updated', rows: 52 });
    expect(r.stderr).toMatch(/retry 1 of datastore_search in \d\.\d s: .*HTTP 503/);
    expect(r.stderr).toMatch(/retry 2 of datastore_search in 1\.0 s: .*HTTP 429/);
  });

  it('follows a redirect chain and decodes gzip', async () => {
    fake.change();
    fake.inject('datastore_search:page', 'redirect', 'gzip');
    const r = await sync();
    expect(r.table, r.stderr).toMatchObject({ status: 'updated', rows: 53 });
    expect(pageRequests().some((s) => s.path.includes('hop=3'))).toBe(true);
  });

  it('keeps the previous version when the portal is slower than the timeout', async () => {
    const before = published();
    fake.change();
    fake.inject('datastore_search:page', 'slow', 'slow', 'slow', 'slow');
    const r = await sync();
    expect(r.status).toBe(3);
    expect(r.table).toMatchObject({ status: 'failed', message: { code: 'portal.timeout' } });
    expect(published()).toEqual(before);
  });

  it('keeps the previous version after a redirect loop, and after pages whose rows disagree with total', async () => {
    const before = published();
    fake.inject('datastore_search:page', 'redirect-loop');
    const loop = await sync();
    expect(loop.table).toMatchObject({ status: 'failed', message: { code: 'portal.too_many_redirects' } });
    fake.inject('datastore_search:page', 'short');
    const short = await sync();
    expect(short.table).toMatchObject({ status: 'failed', message: { code: 'mirror.count_mismatch' } });
    expect(short.table?.reason).toContain('reports a total of 54');
    expect(published()).toEqual(before);
    const files = readdirSync(join(dst, 'resources', TABLE_ID));
    expect(files.filter((f) => ![before.generation, ...before.kept].includes(Number(f.split('.')[0])))).toEqual([]);
    expect(readdirSync(join(dst, 'jobs', 'portal'))).toEqual([]);
    const ok = await sync();
    expect(ok.table).toMatchObject({ status: 'updated', rows: 54 });
  });

  it('goes through HTTP_PROXY unless NO_PROXY names the portal', async () => {
    const proxy = await startConnectProxy();
    try {
      fake.change();
      const through = await sync({ HTTP_PROXY: proxy.url, http_proxy: proxy.url, NO_PROXY: '', no_proxy: '' });
      expect(through.table?.status, through.stderr).toBe('updated');
      expect(proxy.tunnels()).toBeGreaterThan(0);
      const tunnels = proxy.tunnels();
      fake.change();
      const direct = await sync({ HTTP_PROXY: proxy.url, http_proxy: proxy.url, NO_PROXY: '127.0.0.1', no_proxy: '127.0.0.1' });
      expect(direct.table?.status).toBe('updated');
      expect(proxy.tunnels()).toBe(tunnels);
    } finally {
      await proxy.close();
    }
  });
});

/** A forward proxy for plain-HTTP targets: CONNECT tunnels and absolute-URI requests, counted. */
async function startConnectProxy(): Promise<{ url: string; tunnels(): number; close(): Promise<void> }> {
  let count = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    count++;
    const target = new URL(req.url ?? '/');
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: req.method, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  server.on('connect', (req: { url?: string }, client: Socket, head: Buffer) => {
    count++;
    const [host, port] = String(req.url).split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => s.destroy());
      s.on('close', () => sockets.delete(s));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tunnels: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
