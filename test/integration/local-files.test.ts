import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeskstore, type RunningDeskstore } from '../../src/main/app/deskstore-app';
import { ckan } from '../helpers/ckan-client';
import type { ImportJobStatus } from '../../src/shared/wire/import';
import { ROOT, removeDir, requireBuilt, startServer, tempDir, type ServerProcess } from '../helpers/deskstore-process';

/**
 * Issue 8, "the token reads any file the user can read": a request may name a local file only
 * through a handle the native dialog granted, or inside a folder the user allowed with
 * --import-folder; and what a client without the token sees never holds a path on this machine.
 */
let scratch: string;
let allowed: string;
let secret: string;
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

beforeAll(() => {
  scratch = tempDir('deskstore-local-');
  dirs.push(scratch);
  allowed = join(scratch, 'allowed');
  mkdirSync(allowed);
  secret = join(scratch, 'secret.csv');
  writeFileSync(secret, 'password\nhunter2\n');
  writeFileSync(join(allowed, 'comuni.csv'), 'codice;nome\n001;Agliè\n002;Airasca\n');
  writeFileSync(join(allowed, 'nota.pdf'), '%PDF-1.4 not really');
  symlinkSync(secret, join(allowed, 'link-to-secret.csv'));
});

async function waitForLoad(api: ReturnType<typeof ckan>, resourceId: string): Promise<ImportJobStatus> {
  for (;;) {
    const status = await api.ok('xloader_status', { resource_id: resourceId });
    if (status.status !== 'pending' && status.status !== 'running') return status;
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('without --import-folder', () => {
  let server: ServerProcess;
  let api: ReturnType<typeof ckan>;
  let packageId: string;
  beforeAll(async () => {
    server = await startServer();
    dirs.push(server.dataDir);
    api = ckan(server.url, server.token);
    packageId = (await api.ok('package_create', { name: 'local' })).id;
  });
  afterAll(async () => {
    await server.stop();
  });

  it('does not load a file:// URL, even for the token holder', async () => {
    for (const url of [pathToFileURL(secret).href, 'file:///etc/passwd', `file://${allowed}/../secret.csv`]) {
      const r = await api.post('resource_create', { package_id: packageId, name: 'x', url, format: 'CSV' });
      expect([url, r.status]).toEqual([url, 409]);
      expect((r.body as any).error.url[0]).toMatch(/^Local files are not read from a path in a request/);
    }
    expect((await api.ok('package_show', { id: 'local' })).resources).toEqual([]);
  });

  it('does not preview a local path, even for the token holder', async () => {
    const r = await api.post('deskstore_import_preview', { deskstore_local_path: secret });
    expect(r.status).toBe(409);
    expect(r.text).not.toContain('hunter2');
    expect((r.body as any).error.deskstore_local_path[0]).toMatch(/^Local files are not read/);
  });

  it('does not accept a file handle it never granted', async () => {
    const r = await api.post('deskstore_import_preview', { deskstore_local_file: '3b4e1e5c-0a43-4f7e-9d38-2a1f0c8d9e11' });
    expect([r.status, (r.body as any).error]).toEqual([
      409,
      { __type: 'Validation Error', deskstore_local_file: ['No such file handle: choose the file again'] },
    ]);
  });
});

describe('with --import-folder', () => {
  let server: ServerProcess;
  let api: ReturnType<typeof ckan>;
  let anonymous: ReturnType<typeof ckan>;
  let packageId: string;
  beforeAll(async () => {
    server = await startServer({ args: ['--import-folder', allowed] });
    dirs.push(server.dataDir);
    api = ckan(server.url, server.token);
    anonymous = ckan(server.url);
    packageId = (await api.ok('package_create', { name: 'local' })).id;
  });
  afterAll(async () => {
    await server.stop();
  });

  it('loads a file of that folder, stored by its name as an upload is', async () => {
    const created = await api.ok('resource_create', {
      package_id: packageId,
      name: 'comuni',
      url: pathToFileURL(join(allowed, 'comuni.csv')).href,
    });
    expect((await waitForLoad(api, created.id)).status).toBe('complete');
    const shown = await api.ok('resource_show', { id: created.id });
    // Stored as an upload is: CKAN's download URL, which serves the file kept in the data folder.
    expect([shown.url, shown.url_type]).toEqual([
      `${server.url}/dataset/${packageId}/resource/${created.id}/download/comuni.csv`,
      'upload',
    ]);
    expect((await fetch(shown.url!)).status).toBe(200);
    expect((await api.ok('datastore_search', { resource_id: created.id })).records[0]).toMatchObject({ codice: '001', nome: 'Agliè' });
  });

  it('previews a path of that folder, but nothing a link or ../ leads to outside it', async () => {
    const preview = await api.ok('deskstore_import_preview', { deskstore_local_path: join(allowed, 'comuni.csv') });
    expect(preview.rows[0]).toEqual(['001', 'Agliè']);
    for (const path of [join(allowed, 'link-to-secret.csv'), join(allowed, '..', 'secret.csv'), secret]) {
      const r = await api.post('deskstore_import_preview', { deskstore_local_path: path });
      expect([path, r.status]).toEqual([path, 409]);
      expect(r.text).not.toContain('hunter2');
    }
    const missing = await api.post('deskstore_import_preview', { deskstore_local_path: join(allowed, 'nope.csv') });
    expect((missing.body as any).error.upload[0]).toMatch(/^There is no file /);
  });

  it('shows clients without the token a file name, never a path on this machine', async () => {
    // A file:// URL kept as metadata (not tabular, so not loaded) by the token holder.
    const url = pathToFileURL(join(allowed, 'nota.pdf')).href;
    const created = await api.ok('resource_create', { package_id: packageId, name: 'nota', url });
    expect((await api.ok('resource_show', { id: created.id })).url).toBe(url);
    const views = [
      (await anonymous.ok('resource_show', { id: created.id })).url,
      (await anonymous.ok('package_show', { id: 'local' })).resources.find((r) => r.id === created.id)?.url,
      (await anonymous.ok('package_search', { q: 'local' })).results[0]?.resources.find((r) => r.id === created.id)?.url,
    ];
    expect(views).toEqual(['nota.pdf', 'nota.pdf', 'nota.pdf']);
    expect(JSON.stringify(await anonymous.ok('package_show', { id: 'local' }))).not.toContain(scratch);
  });
});

describe('a file picked in the desktop app’s dialog', () => {
  let app: RunningDeskstore;
  let api: ReturnType<typeof ckan>;
  beforeAll(async () => {
    requireBuilt();
    const dataDir = tempDir();
    dirs.push(dataDir);
    app = await startDeskstore({
      dataDir,
      version: 'test',
      workers: {
        engine: pathToFileURL(join(ROOT, 'out/main/engine-worker.js')),
        importer: pathToFileURL(join(ROOT, 'out/main/import-worker.js')),
      },
      logger: { request: () => {}, warn: () => {}, error: () => {} },
    });
    api = ckan(app.url, app.token);
  });
  afterAll(async () => {
    await app.close();
  });

  it('is previewed and loaded through its one-time handle, which then cannot be used again', async () => {
    // What the IPC handler does with the path the native dialog returned.
    const picked = app.localFiles.grant(secret);
    expect(picked).toMatchObject({ name: 'secret.csv', size: 17 });
    expect(JSON.stringify(picked)).not.toContain(scratch);
    const preview = await api.ok('deskstore_import_preview', { deskstore_local_file: picked.handle });
    expect(preview.rows[0]).toEqual(['hunter2']);
    const again = await api.ok('deskstore_import_preview', { deskstore_local_file: picked.handle, deskstore_delimiter: ';' });
    expect(again.delimiter).toBe(';');
    const pkg = await api.ok('package_create', { name: 'picked' });
    const created = await api.ok('resource_create', { package_id: pkg.id, name: 'picked', deskstore_local_file: picked.handle });
    expect((await waitForLoad(api, created.id)).status).toBe('complete');
    expect((await api.ok('resource_show', { id: created.id })).url).toBe(
      `${app.url}/dataset/${pkg.id}/resource/${created.id}/download/secret.csv`,
    );
    const reused = await api.post('resource_create', { package_id: pkg.id, name: 'again', deskstore_local_file: picked.handle });
    expect((reused.body as any).error).toEqual({
      __type: 'Validation Error',
      deskstore_local_file: ['No such file handle: choose the file again'],
    });
  });
});
