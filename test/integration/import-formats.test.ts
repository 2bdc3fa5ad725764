import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ckan } from '../helpers/ckan-client';
import { removeDir, runCli, startServer, tempDir, type ServerProcess } from '../helpers/deskstore-process';
import { fixtureFile } from '../helpers/fixtures';

/**
 * Each messy fixture end to end (issue 10's "done when"): imported through the CLI and the
 * API with every row present and the repairs reported, searchable afterwards.
 */
let server: ServerProcess;
let api: ReturnType<typeof ckan>;
const scratch = tempDir();

beforeAll(async () => {
  server = await startServer();
  api = ckan(server.url, server.token);
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
  removeDir(scratch);
});

async function load(name: string, extra: Record<string, string> = {}): Promise<Record<string, any>> {
  const pkg = await api.ok('package_create', { name: `f-${name.replace(/[^a-z0-9]/g, '-')}-${Object.keys(extra).length}` });
  const r = await api.upload(
    'resource_create',
    { package_id: pkg.id, name, ...extra },
    { name, data: readFileSync(fixtureFile('messy', name)) },
  );
  const id = (r.body as { result: { id: string } }).result.id;
  for (;;) {
    const status = await api.ok('xloader_status', { resource_id: id });
    if (!['pending', 'running'].includes(status.status)) return { ...status, id };
    await new Promise((done) => setTimeout(done, 100));
  }
}

describe('through the CLI', () => {
  it.each([
    ['registry-export.csv', 240, 'csv'],
    ['comuni.xlsx', 3, 'xlsx'],
    ['prezzi.ods', 2, 'ods'],
    ['two-csvs.zip', 2, 'csv'],
    ['comuni.json', 3, 'json'],
    ['monumenti.geojson', 3, 'geojson'],
  ])('%s: %i rows', (name, rows, format) => {
    const r = runCli(['import', fixtureFile('messy', name), '--data', scratch]);
    expect(r.status, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, any>;
    expect(summary).toMatchObject({ rows, format });
    if (name === 'registry-export.csv') {
      expect(summary.repairs.map((x: { kind: string }) => x.kind).sort()).toEqual(['delimiter_in_value', 'stray_quotes']);
    }
    if (name === 'two-csvs.zip') expect(summary.entry).toBe('dati/comuni.csv');
    if (name === 'comuni.xlsx') expect(summary.sheet).toBe('Comuni 2023');
  });
});

describe('through the API', () => {
  it('the registry export loads all 240 rows, the repairs in the status, every id once', async () => {
    const status = await load('registry-export.csv');
    expect(status).toMatchObject({ status: 'complete', rows_done: 240 });
    expect(status.repairs.map((r: { kind: string }) => r.kind).sort()).toEqual(['delimiter_in_value', 'stray_quotes']);
    const ids = await api.ok('datastore_search', { resource_id: status.id, fields: 'id_registro', limit: 1000 });
    expect(new Set(ids.records.map((r: { id_registro: number }) => r.id_registro)).size).toBe(240);
    const found = await api.ok('datastore_search', { resource_id: status.id, q: 'Aquilone' });
    expect(found.total).toBeGreaterThan(0);
    // the report stays with the resource, after the job is forgotten (issue 22, item 3)
    const source = (await api.ok('resource_show', { id: status.id })).deskstore?.source;
    expect(source).toMatchObject({
      format: 'csv',
      encoding: 'utf-8',
      delimiter: '|',
      skipLines: 0,
      rows: 240,
      repairs: [
        { kind: 'delimiter_in_value', action: 'repair', rows: 11, lines: [6, 8, 43, 49, 80, 90, 131, 154, 172, 191, 228] },
        { kind: 'stray_quotes', action: 'repair', rows: 9, lines: [4, 33, 62, 91, 120, 149, 178, 207, 236] },
      ],
      warnings: [],
    });
    expect(source?.repairs?.[0]?.message.code).toBe('import.repair.delimiter_in_value.repair');
    expect(source?.repairs?.[0]?.examples.length).toBeLessThanOrEqual(3);
    expect(source?.columns?.map((c) => [c.id, c.type]).slice(0, 2)).toEqual([
      ['id_registro', 'int4'],
      ['codice_fiscale', 'text'],
    ]);
    expect(source?.columns?.[0]?.reason.code).toMatch(/^import\.type\./);
  });

  it('a workbook sheet, a zip entry and GeoJSON load with their types', async () => {
    const xlsx = await load('comuni.xlsx');
    expect(xlsx).toMatchObject({ status: 'complete', rows_done: 3 });
    const info = await api.ok('datastore_search', { resource_id: xlsx.id, limit: 0 });
    expect(info.fields.map((f: { id: string; type: string }) => [f.id, f.type]).slice(1)).toEqual([
      ['Comune', 'text'],
      ['Abitanti', 'int4'],
      ['Data rilevazione', 'timestamp'],
      ['Capoluogo', 'bool'],
      ['Densità', 'numeric'],
      ['Codice', 'text'],
    ]);
    const zip = await load('two-csvs.zip', { deskstore_entry: 'dati/province.csv' });
    expect(zip).toMatchObject({ status: 'complete', rows_done: 3 });
    const geo = await load('monumenti.geojson');
    const points = await api.ok('datastore_search', { resource_id: geo.id, filters: JSON.stringify({ nome: 'Colosseo' }) });
    expect(points.records[0]).toMatchObject({ lat: 41.8902, lon: 12.4922 });
  });

  it('previews a workbook with its sheets, and a zip with its files', async () => {
    const xlsx = await api.upload(
      'deskstore_import_preview',
      {},
      { name: 'comuni.xlsx', data: readFileSync(fixtureFile('messy', 'comuni.xlsx')) },
    );
    expect((xlsx.body as { result: Record<string, unknown> }).result).toMatchObject({
      format: 'xlsx',
      sheet: 'Comuni 2023',
      headerLine: 3,
      sheets: [
        { name: 'Note', empty: true },
        { name: 'Comuni 2023', empty: false },
      ],
      columns: expect.arrayContaining([
        expect.objectContaining({ id: 'Abitanti', type: 'int4', reason: expect.objectContaining({ code: 'import.type.from_file' }) }),
      ]),
    });
    const zip = await api.upload(
      'deskstore_import_preview',
      { deskstore_entry: 'dati/province.csv' },
      { name: 'two-csvs.zip', data: readFileSync(fixtureFile('messy', 'two-csvs.zip')) },
    );
    expect((zip.body as { result: Record<string, unknown> }).result).toMatchObject({
      format: 'csv',
      entry: 'dati/province.csv',
      entries: [{ name: 'dati/comuni.csv' }, { name: 'dati/province.csv' }],
    });
  });
});
