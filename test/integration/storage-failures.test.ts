import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ckan } from '../helpers/ckan-client';
import { removeDir, startServer, tempDir, type ServerProcess } from '../helpers/deskstore-process';

/**
 * Damaged files, a full disk and a read-only data directory: a clear error for what cannot
 * work, nothing acknowledged lost, and the rest of the store keeps answering.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

async function twoResources(server: ServerProcess) {
  const api = ckan(server.url, server.token);
  const pkg = await api.ok('package_create', { name: 'damage' });
  const make = async (name: string) =>
    (
      await api.ok('datastore_create', {
        resource: { package_id: pkg.id, name },
        force: true,
        primary_key: 'k',
        fields: [
          { id: 'k', type: 'text' },
          { id: 'v', type: 'int' },
        ],
        records: Array.from({ length: 500 }, (_, i) => ({ k: `${name}-${i}`, v: i })),
      })
    ).resource_id as string;
  return { api, a: await make('a'), b: await make('b') };
}

function generationFile(dataDir: string, rid: string, ext: 'columns' | 'sqlite'): string {
  const dir = join(dataDir, 'resources', rid);
  return join(
    dir,
    readdirSync(dir).find((f) => f.endsWith(`.${ext}`))!,
  );
}

describe('damaged resource files', () => {
  it('rebuilds a damaged columns file from the table file', async () => {
    let server = await startServer();
    dirs.push(server.dataDir);
    const { a } = await twoResources(server);
    await server.stop();
    const columns = generationFile(server.dataDir, a, 'columns');
    truncateSync(columns, 100);
    server = await startServer({ dataDir: server.dataDir });
    const api = ckan(server.url, server.token);
    const found = await api.ok('datastore_search', { resource_id: a, filters: { k: 'a-42' } });
    expect(found.records[0]).toMatchObject({ k: 'a-42', v: 42 });
    expect((await api.ok('datastore_search', { resource_id: a, q: 'a-7' })).total).toBeGreaterThan(0);
    expect(server.stderr()).toMatch(/rebuilt its columns file from its table/);
    expect(statSync(columns).size).toBeGreaterThan(100);
    await server.stop();
  });

  it('rebuilds a damaged table file from the column store, and keeps writes', async () => {
    let server = await startServer();
    dirs.push(server.dataDir);
    const { a } = await twoResources(server);
    await server.stop();
    writeFileSync(generationFile(server.dataDir, a, 'sqlite'), 'this is not a database');
    server = await startServer({ dataDir: server.dataDir });
    let api = ckan(server.url, server.token);
    // SQL first (the SQL worker cannot read the file; the engine answers from the rebuilt table), then a write.
    expect((await api.ok('datastore_search_sql', { sql: `SELECT v FROM "${a}" WHERE k = 'a-1'` })).records).toEqual([{ v: 1 }]);
    await api.ok('datastore_upsert', { resource_id: a, records: [{ k: 'a-1', v: 1000 }] });
    const sql = await api.ok('datastore_search_sql', { sql: `SELECT v FROM "${a}" WHERE k = 'a-1'` });
    expect(sql.records).toEqual([{ v: 1000 }]);
    await server.stop();
    server = await startServer({ dataDir: server.dataDir });
    api = ckan(server.url, server.token);
    expect((await api.ok('datastore_search', { resource_id: a, filters: { k: 'a-1' } })).records[0].v).toBe(1000);
    await server.stop();
  });

  it('reports a resource whose files are both damaged, while the others keep working', async () => {
    let server = await startServer();
    dirs.push(server.dataDir);
    const { a, b } = await twoResources(server);
    await server.stop();
    truncateSync(generationFile(server.dataDir, a, 'columns'), 10);
    writeFileSync(generationFile(server.dataDir, a, 'sqlite'), 'garbage');
    server = await startServer({ dataDir: server.dataDir });
    const api = ckan(server.url, server.token);
    const broken = await api.post('datastore_search', { resource_id: a });
    expect(broken.status).toBe(409);
    expect(JSON.stringify(broken.body)).toMatch(/damaged.*restore the folder from a backup/);
    expect((await api.ok('datastore_search', { resource_id: b, limit: 0 })).total).toBe(500);
    expect((await api.ok('package_list')).length).toBe(1);
    await server.stop();
  });
});

/** A tiny tmpfs as the data directory; needs the right to mount (root in CI and here). */
function mountTmpfs(dir: string, megabytes: number): string | null {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir], { stdio: 'pipe' });
    return null;
  } catch (err) {
    return `cannot mount a tmpfs here (${String((err as { stderr?: Buffer }).stderr ?? err).trim()})`;
  }
}

const mountPoint = tempDir('deskstore-tmpfs-');
dirs.push(mountPoint);
const cannotMount = mountTmpfs(mountPoint, 24);
if (cannotMount) console.log(`skipping the full-disk and read-only tests: ${cannotMount}`);
afterAll(() => {
  if (!cannotMount) execFileSync('umount', ['-l', mountPoint]);
});

describe.skipIf(cannotMount !== null)('a full disk and a read-only data directory', () => {
  it('answers writes with a clear "disk is full", loses nothing acknowledged, keeps serving reads', async () => {
    const dataDir = join(mountPoint, 'full');
    mkdirSync(dataDir);
    let server = await startServer({ dataDir });
    const { api, a, b } = await twoResources(server);
    await api.ok('datastore_create', { resource_id: a, fields: [{ id: 'note', type: 'text' }] });
    const acknowledged: string[] = [];
    let refused: { status: number; text: string } | null = null;
    const note = 'x'.repeat(300_000);
    for (let i = 0; i < 200 && !refused; i++) {
      const r = await api.post('datastore_upsert', { resource_id: a, records: [{ k: `big-${i}`, v: i, note }] });
      if (r.status === 200) acknowledged.push(`big-${i}`);
      else refused = { status: r.status, text: r.text };
    }
    expect(refused, 'the disk never filled up').not.toBeNull();
    expect(refused!.status).toBe(409);
    expect(refused!.text).toMatch(/disk is full/);
    expect(acknowledged.length).toBeGreaterThan(0);
    // Reads go on, for the full resource and the others.
    expect((await api.ok('datastore_search', { resource_id: a, limit: 0 })).total).toBe(500 + acknowledged.length);
    expect((await api.ok('datastore_search', { resource_id: b, limit: 0 })).total).toBe(500);
    await server.stop('SIGKILL');
    server = await startServer({ dataDir });
    const after = ckan(server.url, server.token);
    const rows = await after.ok('datastore_search', { resource_id: a, filters: { k: acknowledged }, fields: 'k', limit: 1000 });
    expect(rows.total).toBe(acknowledged.length);
    await server.stop();
    // The next test shares the small disk: how full this one left it is down to chance.
    removeDir(dataDir);
  }, 120_000);

  it('refuses writes on a read-only file system with a clear message and keeps reading', async () => {
    const dataDir = join(mountPoint, 'ro');
    mkdirSync(dataDir);
    let server = await startServer({ dataDir });
    const { a } = await twoResources(server);
    await server.stop();
    execFileSync('mount', ['-o', 'remount,ro', mountPoint]);
    try {
      server = await startServer({ dataDir, env: { DESKSTORE_TOKEN: 'fixed-token' } }).catch((err: Error) => {
        throw new Error(`a read-only data directory should still serve reads: ${err.message}`);
      });
      const api = ckan(server.url, 'fixed-token');
      expect((await api.ok('datastore_search', { resource_id: a, limit: 0 })).total).toBe(500);
      const r = await api.post('datastore_upsert', { resource_id: a, records: [{ k: 'a-1', v: 1 }] });
      expect(r.status).toBe(409);
      expect(r.text).toMatch(/read-only/);
      // Uploads too: CKAN's error with the reason, not a 500 (issue 8).
      const csv = { name: 'x.csv', data: new TextEncoder().encode('a,b\n1,2\n') };
      for (const [action, fields] of [
        ['deskstore_import_preview', {}],
        ['resource_create', { package_id: 'damage', name: 'x' }],
      ] as const) {
        const upload = await api.upload(action, fields, csv);
        expect([action, upload.status]).toEqual([action, 409]);
        expect(upload.text).toMatch(/read-only/);
      }
      await server.stop();
    } finally {
      execFileSync('mount', ['-o', 'remount,rw', mountPoint]);
    }
  }, 60_000);
});
