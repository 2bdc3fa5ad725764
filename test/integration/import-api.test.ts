import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ckan } from '../helpers/ckan-client';
import { DATA, removeDir, startServer, tempDir, type ServerProcess } from '../helpers/deskstore-process';

/**
 * Loading files through the API the way CKAN scripts do: resource_create with a multipart
 * upload or a URL, then poll xloader_status (docs/ckan-contract.md §10, issue 3).
 */
let server: ServerProcess;
let api: ReturnType<typeof ckan>;
let files: Server;
let filesUrl: string;
const stalled: ServerResponse[] = [];
const scratch = tempDir();
// Files written to `scratch` may be loaded by file:// URL (local-files.test.ts tests the refusals).
const serverArgs = ['--max-upload-mb', '8', '--import-folder', scratch];

beforeAll(async () => {
  server = await startServer({ args: serverArgs });
  api = ckan(server.url, server.token);
  files = createServer((req, res) => {
    if (req.url === '/cities.csv') {
      res.writeHead(200, { 'Content-Type': 'text/csv' });
      res.end(readFileSync(join(DATA, 'world-cities.csv')));
    } else if (req.url === '/stalled.csv') {
      // A server that starts answering and then sends nothing more.
      res.writeHead(200, { 'Content-Type': 'text/csv' });
      res.write('a,b\n');
      stalled.push(res);
    } else {
      res.writeHead(404);
      res.end('not here');
    }
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as { port: number }).port}`;
});
afterAll(async () => {
  await server.stop();
  for (const res of stalled) res.destroy();
  files.close();
  removeDir(server.dataDir);
  removeDir(scratch);
});

async function waitForLoad(resourceId: string, timeoutMs = 60_000): Promise<Record<string, unknown>> {
  const until = Date.now() + timeoutMs;
  const seen = new Set<string>();
  for (;;) {
    const status = await api.ok('xloader_status', { resource_id: resourceId });
    seen.add(status.status);
    if (!['pending', 'running'].includes(status.status)) return { ...status, seen: [...seen] };
    if (Date.now() > until) throw new Error(`load still ${status.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a CKAN-style script flow', () => {
  it('package_create → resource_create with an upload → xloader_status → search → upsert → restart → the row is there', async () => {
    const pkg = await api.ok('package_create', { name: 'carburanti', title: 'Prezzi carburanti' });
    const created = await api.upload(
      'resource_create',
      { package_id: pkg.id, name: 'prezzi alle 8' },
      {
        name: 'mise-carburanti-prezzo_alle_8-2022-03-24.csv',
        data: readFileSync(join(DATA, 'mise-carburanti-prezzo_alle_8-2022-03-24.csv')),
      },
    );
    expect(created.status).toBe(200);
    const resource = (created.body as { result: { id: string; url_type: string; deskstore_job: { status: string } } }).result;
    expect(resource.url_type).toBe('upload');
    expect(['pending', 'running']).toContain(resource.deskstore_job.status);
    const done = await waitForLoad(resource.id);
    expect(done.status).toBe('complete');
    expect(done.rows_done).toBe(91070);

    const diesel = await api.ok('datastore_search', {
      resource_id: resource.id,
      filters: { idImpianto: 6492, descCarburante: 'Hi-Q Diesel' },
    });
    expect(diesel.total).toBe(1);
    expect(diesel.records[0]).toMatchObject({ prezzo: 1.644, dtComu: '2022-03-22T17:18:54' });

    // A loaded file is "read-only" for the DataStore (CKAN): writes need force.
    const refused = await api.post('datastore_upsert', { resource_id: resource.id, method: 'insert', records: [{ idImpianto: 1 }] });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: { 'read-only': [expect.stringContaining('Cannot edit read-only resource')] } });
    await api.ok('datastore_upsert', {
      resource_id: resource.id,
      method: 'insert',
      force: true,
      records: [{ idImpianto: 999999, descCarburante: 'Idrogeno', prezzo: 13.9, isSelf: 1, dtComu: '2022-03-24 08:00:00' }],
    });

    expect(await server.stop()).toBe(0);
    server = await startServer({ dataDir: server.dataDir, args: serverArgs });
    api = ckan(server.url, server.token);
    const after = await api.ok('datastore_search', { resource_id: resource.id, filters: { idImpianto: 999999 } });
    expect(after.total).toBe(1);
    expect(after.records[0]).toMatchObject({ descCarburante: 'Idrogeno', prezzo: 13.9, _id: 91071 });
    expect((await api.ok('datastore_search', { resource_id: resource.id, limit: 0 })).total).toBe(91071);
  }, 120_000);
});

describe('loads from a URL', () => {
  it('fetches an http URL in the background', async () => {
    const pkg = await api.ok('package_create', { name: 'from-url' });
    const resource = await api.ok('resource_create', { package_id: pkg.id, name: 'cities', url: `${filesUrl}/cities.csv` });
    const done = await waitForLoad(resource.id);
    expect(done.status).toBe('complete');
    expect((await api.ok('datastore_search', { resource_id: resource.id, q: 'Escaldes' })).total).toBeGreaterThan(0);
  });

  it('reports a failed fetch as an error and keeps the previous data', async () => {
    const pkg = await api.ok('package_create', { name: 'from-url-failing' });
    const resource = await api.ok('resource_create', { package_id: pkg.id, name: 'cities', url: `${filesUrl}/cities.csv` });
    expect((await waitForLoad(resource.id)).status).toBe('complete');
    await api.ok('resource_patch', { id: resource.id, url: `${filesUrl}/missing.csv` });
    const failed = await waitForLoad(resource.id);
    expect(failed.status).toBe('error');
    expect(String((failed.error as { message: string }).message)).toMatch(/HTTP 404/);
    expect((await api.ok('datastore_search', { resource_id: resource.id, limit: 0 })).total).toBe(34032);
  });
});

describe('bad uploads', () => {
  it('refuses an upload over the size limit, keeping nothing', async () => {
    const pkg = await api.ok('package_create', { name: 'too-big' });
    const big = Buffer.alloc(9 * 1024 * 1024, 'a;b\n');
    const r = await api.upload('resource_create', { package_id: pkg.id, name: 'big' }, { name: 'big.csv', data: big });
    expect(r.status).toBe(413);
    expect((await api.ok('package_show', { id: pkg.id })).resources).toEqual([]);
  });

  it('loads a CSV with bad rows and reports the repairs in the status; the user may skip them instead', async () => {
    const pkg = await api.ok('package_create', { name: 'ragged-upload' });
    const data = Buffer.from('a;b\n1;2\n3;4;5;6\n');
    const r = await api.upload('resource_create', { package_id: pkg.id, name: 'ragged' }, { name: 'ragged.csv', data });
    const loaded = await waitForLoad((r.body as { result: { id: string } }).result.id);
    expect(loaded).toMatchObject({ status: 'complete', rows_done: 2 });
    expect(loaded.repairs).toEqual([
      expect.objectContaining({
        kind: 'extra_cells',
        action: 'extra_column',
        rows: 1,
        lines: [3],
        examples: [
          expect.objectContaining({
            line: 3,
            raw: '3;4;5;6',
            outcome: expect.objectContaining({ code: 'import.repair.outcome.extra_column' }),
          }),
        ],
        message: expect.objectContaining({ code: 'import.repair.extra_cells.extra_column', params: expect.objectContaining({ rows: 1 }) }),
      }),
    ]);
    const skip = await api.upload(
      'resource_create',
      { package_id: pkg.id, name: 'ragged', deskstore_repairs: JSON.stringify({ extra_cells: 'skip' }) },
      { name: 'ragged.csv', data },
    );
    expect(await waitForLoad((skip.body as { result: { id: string } }).result.id)).toMatchObject({ status: 'complete', rows_done: 1 });
    const wrong = await api.upload(
      'resource_create',
      { package_id: pkg.id, deskstore_repairs: JSON.stringify({ extra_cells: 'repair' }) },
      { name: 'ragged.csv', data },
    );
    expect(wrong.status).toBe(409);
    expect(wrong.body).toMatchObject({ error: { deskstore_repairs: ['extra_cells can be extra_column, skip'] } });
  });
});

describe('files that are not CSV', () => {
  it('refuses a legacy .xls workbook or a binary file in the preview and in the load, saying what to do', async () => {
    const xls = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(600, 0)]);
    const preview = await api.upload('deskstore_import_preview', {}, { name: 'dati.xls', data: xls });
    expect(preview.status).toBe(409);
    expect(preview.body).toMatchObject({
      error: { upload: [expect.stringMatching(/legacy Excel \(\.xls\).*save it as XLSX or CSV/)] },
      deskstore_message: { code: 'import.refused.legacy_xls' },
    });
    const pkg = await api.ok('package_create', { name: 'binary' });
    const binary = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(300, 0)]);
    const r = await api.upload('resource_create', { package_id: pkg.id, name: 'x' }, { name: 'dati.csv', data: binary });
    const failed = await waitForLoad((r.body as { result: { id: string } }).result.id);
    expect(failed.status).toBe('error');
    expect(failed.error).toMatchObject({
      message: expect.stringMatching(/binary data/),
      deskstore_message: { code: 'import.refused.binary' },
    });
    const missing = await api.post('deskstore_import_preview', { deskstore_local_path: join(scratch, 'nope.csv') });
    expect(missing.status).toBe(409);
    expect(missing.body).toMatchObject({ error: { upload: [expect.stringMatching(/There is no file/)] } });
  });

  it('checks a token without side effects', async () => {
    expect(await api.ok('deskstore_token_check')).toEqual({ authorized: true });
    expect(await ckan(server.url, 'wrong').ok('deskstore_token_check')).toEqual({ authorized: false });
  });
});

describe('preview and cancel', () => {
  it('previews a staged upload, re-previews with other options, then loads it', async () => {
    const preview = await api.upload(
      'deskstore_import_preview',
      {},
      { name: 'comuni.csv', data: readFileSync(join(DATA, 'istat-elenco-comuni-italiani.csv')) },
    );
    const p = (preview.body as { result: Record<string, any> }).result;
    expect(p).toMatchObject({ encoding: 'windows-1252', delimiter: ';', skipLines: 0 });
    expect(p.columns[5].label).toBe('Denominazione (Italiana e straniera)');
    expect(p.rows[0][5]).toBe('Agliè');
    const again = await api.ok('deskstore_import_preview', {
      deskstore_upload_id: p.upload_id,
      deskstore_types: JSON.stringify({ 'Codice Regione': 'int4' }),
    });
    expect(again.columns[0]).toMatchObject({ id: 'Codice Regione', type: 'int4', forced: true });
    const pkg = await api.ok('package_create', { name: 'staged' });
    const resource = await api.ok('resource_create', {
      package_id: pkg.id,
      name: 'comuni',
      deskstore_upload_id: p.upload_id,
      deskstore_types: JSON.stringify({ 'Codice Regione': 'int4' }),
    });
    expect((await waitForLoad(resource.id)).status).toBe('complete');
    const first = await api.ok('datastore_search', { resource_id: resource.id, limit: 1 });
    expect(first.records[0]['Codice Regione']).toBe(1);
  });

  it('runs a load from a stalled server beside the import queue, so other loads go on', async () => {
    const pkg = await api.ok('package_create', { name: 'stalled' });
    const slow = await api.ok('resource_create', { package_id: pkg.id, name: 'slow', url: `${filesUrl}/stalled.csv` });
    const uploaded = await api.upload(
      'resource_create',
      { package_id: pkg.id, name: 'quick' },
      { name: 'quick.csv', data: new TextEncoder().encode('n,nome\n1,uno\n') },
    );
    const quick = (uploaded.body as { result: { id: string } }).result.id;
    expect((await waitForLoad(quick, 20_000)).status).toBe('complete');
    expect(await api.ok('xloader_status', { resource_id: slow.id })).toMatchObject({ status: 'running', phase: 'downloading' });
    expect((await api.ok('deskstore_import_cancel', { resource_id: slow.id })).cancelled).toBe(true);
  });

  it('cancels a running load and keeps the previous data', async () => {
    const pkg = await api.ok('package_create', { name: 'cancelled' });
    const resource = await api.ok('resource_create', { package_id: pkg.id, name: 'cities', url: `${filesUrl}/cities.csv` });
    expect((await waitForLoad(resource.id)).status).toBe('complete');
    const bigFile = join(scratch, 'many.csv');
    const rows = Array.from({ length: 150_000 }, (_, i) => `${i};riga numero ${i};${i % 97}`);
    writeFileSync(bigFile, `n;testo;gruppo\n${rows.join('\n')}\n`);
    await api.ok('resource_patch', { id: resource.id, url: `file://${bigFile}` });
    // Cancel while it runs: wait for the job to be running rather than for a guessed delay.
    for (let status = ''; status !== 'running';) {
      status = (await api.ok('xloader_status', { resource_id: resource.id })).status;
      expect(['pending', 'running']).toContain(status);
      if (status !== 'running') await new Promise((r) => setTimeout(r, 10));
    }
    const cancelled = await api.ok('deskstore_import_cancel', { resource_id: resource.id });
    expect(cancelled.cancelled).toBe(true);
    expect((await api.ok('xloader_status', { resource_id: resource.id })).status).toBe('cancelled');
    expect((await api.ok('datastore_search', { resource_id: resource.id, limit: 0 })).total).toBe(34032);
  });
});
