import { chmodSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ckan } from '../helpers/ckan-client';
import { DATA, lastJsonLine, removeDir, runCli, runCliAsync, startServer, tempDir, type ServerProcess } from '../helpers/deskstore-process';

const started: ServerProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of started.splice(0)) await s.stop();
  for (const d of dirs.splice(0)) removeDir(d);
});

async function serve(opts: Parameters<typeof startServer>[0] = {}): Promise<ServerProcess> {
  const s = await startServer(opts);
  started.push(s);
  dirs.push(s.dataDir);
  return s;
}

describe('deskstore serve', () => {
  it('prints exactly one stdout line once it accepts requests, and the token file on stderr', async () => {
    const s = await serve();
    expect(s.stdout()).toMatch(/^Deskstore listening on http:\/\/127\.0\.0\.1:\d+\n$/);
    const tokenFile = join(s.dataDir, 'api-token');
    expect(s.stderr()).toContain(tokenFile);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const res = await fetch(`${s.url}/api/3`);
    expect(await res.json()).toEqual({ version: 3 });
  });

  it('reuses the token of the data directory and accepts --token instead', async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const first = await startServer({ dataDir });
    const token = first.token;
    await first.stop();
    const second = await serve({ dataDir });
    expect(second.token).toBe(token);
    await second.stop();
    const third = await serve({ dataDir, args: ['--token', 'my-own-token'] });
    const denied = await fetch(`${third.url}/api/3/action/package_create`, {
      method: 'POST',
      headers: { Authorization: token, 'Content-Type': 'application/json' },
      body: '{"name":"x1"}',
    });
    expect(denied.status).toBe(403);
    const allowed = await fetch(`${third.url}/api/3/action/package_create`, {
      method: 'POST',
      headers: { Authorization: 'my-own-token', 'Content-Type': 'application/json' },
      body: '{"name":"x1"}',
    });
    expect(allowed.status).toBe(200);
  });

  it('takes the token from --token-file or DESKSTORE_TOKEN, so it never shows in the process list', async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const tokenFile = join(dataDir, '..', `${Date.now()}-token`);
    writeFileSync(tokenFile, 'from-a-file-0123456789\n', { mode: 0o600 });
    try {
      for (const opts of [{ args: ['--token-file', tokenFile] }, { env: { DESKSTORE_TOKEN: 'from-the-environment-0123' } }]) {
        const s = await serve({ dataDir, ...opts });
        const expected = opts.args ? 'from-a-file-0123456789' : 'from-the-environment-0123';
        expect(s.token).toBe(expected);
        const writes = async (token: string) => (await ckan(s.url, token).post('package_create', { name: `p${Date.now()}` })).status;
        expect(await writes(expected)).toBe(200);
        expect(await writes('wrong')).toBe(403);
        // What `ps` shows of the server: its command line.
        expect(readFileSync(`/proc/${s.child.pid}/cmdline`, 'utf8')).not.toContain(expected);
        await s.stop();
      }
    } finally {
      removeDir(tokenFile);
    }
    const help = runCli(['help', 'serve']);
    expect(help.stdout).toContain('--token-file FILE');
    expect(help.stdout).toContain('DESKSTORE_TOKEN');
    const empty = join(dataDir, 'empty-token');
    writeFileSync(empty, '\n');
    const refused = runCli(['serve', '--data', dataDir, '--token-file', empty]);
    expect([refused.status, refused.stderr.split('\n')[0]]).toEqual([2, `deskstore: --token-file: ${empty} is empty`]);
  });

  it('keeps the data folder and its files private to the user, tightening an existing folder', async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    chmodSync(dataDir, 0o755);
    const s = await serve({ dataDir });
    const api = ckan(s.url, s.token);
    const pkg = await api.ok('package_create', { name: 'private' });
    const rid = (await api.ok('datastore_create', { resource: { package_id: pkg.id }, records: [{ a: 1 }] })).resource_id;
    await api.ok('datastore_upsert', { resource_id: rid, method: 'insert', records: [{ a: 2 }] }); // a journal
    const upload = await api.upload('deskstore_import_preview', {}, { name: 'x.csv', data: new TextEncoder().encode('a,b\n1,2\n') });
    expect(upload.status).toBe(200);
    const modes: string[] = [];
    const walk = (path: string) => {
      const st = statSync(path);
      modes.push(`${path.slice(dataDir.length) || '/'} ${(st.mode & 0o777).toString(8)}`);
      if (st.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
    };
    walk(dataDir);
    expect(modes.some((m) => m.endsWith('.journal 600'))).toBe(true);
    expect(modes.filter((m) => !/ (600|700)$/.test(m))).toEqual([]);
  });

  it('exits 0 on SIGTERM and on SIGINT, releasing the data directory', async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const a = await startServer({ dataDir });
    expect(await a.stop('SIGTERM')).toBe(0);
    const b = await startServer({ dataDir });
    expect(await b.stop('SIGINT')).toBe(0);
  });

  it('refuses a second server on the same data directory, naming the running one', async () => {
    const s = await serve();
    const second = runCli(['serve', '--data', s.dataDir, '--port', '0', '--no-sample']);
    expect(second.status).not.toBe(0);
    expect(second.stderr).toContain(s.url);
    expect(second.stderr).not.toMatch(/^\s+at /m);
  });

  it('imports and syncs through the server that holds the data directory, instead of refusing', async () => {
    const s = await serve();
    const importing = await runCliAsync([
      'import',
      join(DATA, 'world-cities.csv'),
      '--data',
      s.dataDir,
      '--package',
      'citta',
      '--name',
      'Città del mondo',
      '--type',
      'geonameid=text',
    ]);
    expect(importing.stderr).toContain(`in use by the Deskstore server at ${s.url}: importing through it`);
    expect(importing.status).toBe(0);
    const summary = lastJsonLine<{
      resource_id: string;
      package_id: string;
      rows: number;
      format: string;
      fields: { id: string; type: string }[];
    }>(importing.stdout);
    expect(summary.format).toBe('csv');
    expect(summary.rows).toBeGreaterThan(1000);
    expect(summary.fields.find((f) => f.id === 'geonameid')?.type).toBe('text');
    const api = ckan(s.url, s.token);
    expect((await api.ok('datastore_search', { resource_id: summary.resource_id, limit: 0 })).total).toBe(summary.rows);
    const resource = await api.ok('resource_show', { id: summary.resource_id });
    expect([resource.name, resource.package_id, resource.url_type]).toEqual(['Città del mondo', summary.package_id, 'upload']);
    expect((await api.ok('package_show', { id: 'citta' })).id).toBe(summary.package_id);

    // Again into the same resource: its data replaced, its id kept.
    const again = await runCliAsync(['import', join(DATA, 'world-cities.csv'), '--data', s.dataDir, '--resource-id', summary.resource_id]);
    expect(again.status).toBe(0);
    expect(lastJsonLine<{ resource_id: string }>(again.stdout).resource_id).toBe(summary.resource_id);

    const syncing = await runCliAsync(['sync', '--data', s.dataDir, '--retries', '1']);
    expect(syncing.status).toBe(0);
    expect(syncing.stderr).toContain(`in use by the Deskstore server at ${s.url}: running the sync there`);
    expect(syncing.stderr).toContain('--retries apply only when no server holds the data directory');
    expect(lastJsonLine(syncing.stdout)).toEqual({ datasets: 0, updated: 0, unchanged: 0, failed: 0 });
  });

  it("tells a running server's refusal of a push or a mirror in its words, without a stack trace", async () => {
    const s = await serve();
    const pushing = await runCliAsync(['push', 'no-such-resource', '--data', s.dataDir, '--to', 'http://127.0.0.1:1']);
    expect(pushing.stderr).toContain(`in use by the Deskstore server at ${s.url}: running the push there`);
    expect([pushing.status, pushing.stderr.trim().split('\n').at(-1)]).toEqual([
      1,
      `deskstore: Not found: there is no resource no-such-resource in ${s.dataDir}`,
    ]);
    const mirroring = await runCliAsync(['mirror', 'http://127.0.0.1:1/dataset/x', '--data', s.dataDir]);
    expect(mirroring.status).toBe(1);
    expect(mirroring.stderr).toContain('deskstore: The portal http://127.0.0.1:1 cannot be reached');
    for (const r of [pushing, mirroring]) expect(r.stderr).not.toMatch(/^\s+at /m);
  });

  it('names the busy port and --port, without a stack trace', async () => {
    const s = await serve();
    const other = tempDir();
    dirs.push(other);
    const busy = runCli(['serve', '--data', other, '--port', String(new URL(s.url).port), '--no-sample']);
    expect(busy.status).toBe(1);
    expect(busy.stderr).toContain(`port ${new URL(s.url).port} on 127.0.0.1 is already in use`);
    expect(busy.stderr).toContain('--port N');
    expect(busy.stderr).not.toMatch(/^\s+at /m);
    expect(busy.stdout).toBe('');
  });

  it('rejects requests whose Host header is not its own loopback address (DNS rebinding)', async () => {
    const s = await serve();
    const port = Number(new URL(s.url).port);
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/api/3/action/status_show', headers: { Host: host } }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.end();
      });
    expect(await status(`127.0.0.1:${port}`)).toBe(200);
    expect(await status(`localhost:${port}`)).toBe(200);
    expect(await status(`evil.example:${port}`)).toBe(403);
    expect(await status(`127.0.0.1.evil.example:${port}`)).toBe(403);
  });

  it('only listens on loopback', async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const r = runCli(['serve', '--data', dataDir, '--host', '0.0.0.0']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/loopback/);
  });

  it('imports the embedded ISTAT sample on the first start of a data directory, once', async () => {
    const s = await serve({ sample: true });
    const api = ckan(s.url);
    expect((await api.get('package_list')).body).toMatchObject({ result: ['esempio-comuni-italiani'] });
    const pkg = (await api.get('package_show', { id: 'esempio-comuni-italiani' })).body as { result: { resources: { id: string }[] } };
    const rid = pkg.result.resources[0]!.id;
    const found = await api.get('datastore_search', { resource_id: rid, q: 'Števerjan', limit: '1' });
    expect(found.body).toMatchObject({ result: { total: 1 } });
    const all = await api.get('datastore_search', { resource_id: rid, limit: '0' });
    expect(all.body).toMatchObject({ result: { total: 571 } });
    await s.stop();
    const again = await serve({ dataDir: s.dataDir, sample: true });
    expect((await ckan(again.url, again.token).post('package_delete', { id: 'esempio-comuni-italiani' })).status).toBe(200);
    await again.stop();
    const third = await serve({ dataDir: s.dataDir, sample: true });
    expect((await ckan(third.url).get('package_list')).body).toMatchObject({ result: [] });
  });

  it('does not import the sample with --no-sample', async () => {
    const s = await serve();
    expect((await ckan(s.url).get('package_list')).body).toMatchObject({ result: [] });
  });
});

describe('deskstore import', () => {
  it('says plainly that the file is missing or is not a file, without a stack trace, and creates nothing', () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    for (const [file, message] of [
      ['/no/such/file.csv', 'There is no file /no/such/file.csv'],
      [dataDir, `${dataDir} is not a file`],
    ] as const) {
      const r = runCli(['import', file, '--data', dataDir]);
      expect(r.status).toBe(1);
      expect(r.stderr.trim()).toBe(`deskstore: ${message}`);
      expect(r.stdout).toBe('');
    }
  });
});

describe('deskstore push', () => {
  it('names a resource that is not in the data directory before reaching for the portal', () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const r = runCli(['push', 'no-such-resource', '--data', dataDir, '--to', 'http://127.0.0.1:1']);
    expect([r.status, r.stderr.trim()]).toEqual([1, `deskstore: Not found: there is no resource no-such-resource in ${dataDir}`]);
    expect(r.stdout).toBe('');
  });
});
