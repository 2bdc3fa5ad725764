import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ckan } from '../helpers/ckan-client';
import type { ActionParams } from '../../src/shared/wire/actions';
import { DATA, lastJsonLine, removeDir, runCli, startServer, tempDir, type ServerProcess } from '../helpers/deskstore-process';

/**
 * Every vendored real data file (test/fixtures/data) through `deskstore import`, then read back over HTTP. The
 * expected figures come from the data README and from reading each file with Python's csv
 * module (encoding, delimiter and preamble as the README states), not from Deskstore.
 */
interface Imported {
  package_id: string;
  resource_id: string;
  rows: number;
  fields: { id: string; type: string }[];
}

const dataDir = tempDir();
const imported = new Map<string, Imported>();
let server: ServerProcess;
let api: ReturnType<typeof ckan>;

function importFile(file: string, extra: string[] = []): Imported {
  const r = runCli(['import', join(DATA, file), '--data', dataDir, ...extra]);
  if (r.status !== 0) throw new Error(`import ${file} failed: ${r.stderr}`);
  expect(r.stderr).toMatch(/imported [\d,]+ rows/);
  return lastJsonLine<Imported>(r.stdout);
}

const typeOf = (i: Imported, id: string) => i.fields.find((f) => f.id === id)?.type;

async function search(file: string, params: Omit<ActionParams<'datastore_search'>, 'resource_id' | 'id'>) {
  return api.ok('datastore_search', {
    resource_id: imported.get(file)!.resource_id,
    ...params,
  });
}

beforeAll(async () => {
  for (const file of [
    'istat-elenco-comuni-italiani.csv',
    'mise-carburanti-prezzo_alle_8-2022-03-24.csv',
    'dpc-covid19-ita-note.csv',
    'country-codes.csv',
    'world-cities.csv',
    'dpc-covid19-ita-province.csv.gz',
  ]) {
    imported.set(file, importFile(file));
  }
  server = await startServer({ dataDir });
  api = ckan(server.url, server.token);
}, 300_000);

afterAll(async () => {
  await server?.stop();
  removeDir(dataDir);
});

describe('istat-elenco-comuni-italiani.csv (Windows-1252, ";", CRLF, line breaks in header cells)', () => {
  const file = 'istat-elenco-comuni-italiani.csv';
  it('has every row and column, with clean names and the original header as label', async () => {
    const i = imported.get(file)!;
    expect(i.rows).toBe(7901);
    expect(i.fields).toHaveLength(26);
    expect(i.fields.map((f) => f.id)).toContain('Denominazione in italiano');
    expect(i.fields.every((f) => Buffer.byteLength(f.id) <= 63 && !f.id.includes('\n') && f.id === f.id.trim())).toBe(true);
    const info = await api.ok('datastore_info', { id: i.resource_id });
    const second = info.fields[1];
    expect(second?.info?.label).toBe("Codice dell'Unità territoriale sovracomunale \n(valida a fini statistici)");
  });
  it('decodes cp1252 letters that only exist there (Š, ž)', async () => {
    const found = await search(file, { q: 'Števerjan' });
    expect(found.total).toBe(1);
    expect(found.records[0]!['Denominazione (Italiana e straniera)']).toBe('San Floriano del Collio-Števerjan');
    expect((await search(file, { q: 'Nabrežina' })).total).toBe(1);
  });
  it('keeps codes with leading zeros as text, trims padding, and keeps NA (Napoli) as a value', async () => {
    const i = imported.get(file)!;
    expect(typeOf(i, 'Codice Comune formato alfanumerico')).toBe('text');
    expect(typeOf(i, 'Codice Regione')).toBe('text');
    const first = (await search(file, { limit: 1 })).records[0]!;
    expect(first['Codice Regione']).toBe('01');
    expect(first['Progressivo del Comune (2)']).toBe('001');
    expect(first['Codice Comune formato alfanumerico']).toBe('001001');
    expect(first['Denominazione in italiano']).toBe('Agliè');
    expect((await search(file, { filters: { 'Sigla automobilistica': 'NA' }, limit: 0 })).total).toBe(92);
  });
});

describe('mise-carburanti (preamble line, dd/mm/yyyy HH:MM:SS)', () => {
  const file = 'mise-carburanti-prezzo_alle_8-2022-03-24.csv';
  it('skips the preamble and types every column', async () => {
    const i = imported.get(file)!;
    expect(i.rows).toBe(91070);
    expect(i.fields).toEqual([
      { id: 'idImpianto', type: 'int4' },
      { id: 'descCarburante', type: 'text' },
      { id: 'prezzo', type: 'numeric' },
      { id: 'isSelf', type: 'int4' },
      { id: 'dtComu', type: 'timestamp' },
    ]);
    const first = (await search(file, { limit: 1 })).records[0]!;
    expect(first).toEqual({
      _id: 1,
      idImpianto: 6492,
      descCarburante: 'Hi-Q Diesel',
      prezzo: 1.644,
      isSelf: 1,
      dtComu: '2022-03-22T17:18:54',
    });
  });
  it('filters and sorts on typed values', async () => {
    const cheapest = await search(file, { sort: 'prezzo asc', limit: 1, fields: 'prezzo' });
    expect(cheapest.records[0]!.prezzo).toBe(0.001);
    const dearest = await search(file, { sort: 'prezzo desc', limit: 1, fields: 'prezzo' });
    expect(dearest.records[0]!.prezzo).toBe(4);
    const march = await search(file, { filters: { dtComu: { gte: '2022-03-24' } }, limit: 0 });
    expect(march.total).toBeGreaterThan(0);
  });
});

describe('dpc-covid19-ita-note.csv (UTF-8 with BOM, long quoted text)', () => {
  const file = 'dpc-covid19-ita-note.csv';
  it('strips the BOM from the first header name', async () => {
    const i = imported.get(file)!;
    expect(i.rows).toBe(1617);
    expect(i.fields).toEqual([
      { id: 'data', type: 'timestamp' },
      { id: 'note', type: 'text' },
    ]);
    const first = (await search(file, { limit: 1 })).records[0]!;
    expect(first).toEqual({
      _id: 1,
      data: '2020-03-07T17:00:00',
      note: 'La Provincia di Brescia ha comunicato dati parziali di 300 casi positivi',
    });
  });
});

describe('country-codes.csv (56 columns, many scripts, NA = Namibia / North America)', () => {
  const file = 'country-codes.csv';
  it('keeps NA and leading-zero codes', async () => {
    const i = imported.get(file)!;
    expect(i.rows).toBe(249);
    expect(i.fields).toHaveLength(56);
    expect(typeOf(i, 'Dial')).toBe('text');
    expect(typeOf(i, 'ISO4217-currency_numeric_code')).toBe('text');
    expect((await search(file, { filters: { 'ISO3166-1-Alpha-2': 'NA' }, limit: 0 })).total).toBe(1);
    expect((await search(file, { filters: { Continent: 'NA' }, limit: 0 })).total).toBe(41);
    const dial = await search(file, { fields: 'Dial', limit: 5 });
    expect(dial.records.map((r) => r.Dial)).toEqual(['93', '358', '355', '213', '1-684']);
    const currency = await search(file, { fields: 'ISO4217-currency_numeric_code', limit: 3 });
    expect(currency.records.map((r) => r['ISO4217-currency_numeric_code'])).toEqual(['971', '978', '008']);
  });
});

describe('world-cities.csv', () => {
  const file = 'world-cities.csv';
  it('imports cleanly with nulls for empty cells', async () => {
    const i = imported.get(file)!;
    expect(i.rows).toBe(34032);
    expect(i.fields).toEqual([
      { id: 'name', type: 'text' },
      { id: 'country', type: 'text' },
      { id: 'subcountry', type: 'text' },
      { id: 'geonameid', type: 'int4' },
    ]);
    expect((await search(file, { limit: 1 })).records[0]).toEqual({
      _id: 1,
      name: 'les Escaldes',
      country: 'Andorra',
      subcountry: 'Escaldes-Engordany',
      geonameid: 3040051,
    });
    const sql = await api.ok('datastore_search_sql', { sql: `SELECT count(*) AS n FROM "${i.resource_id}" WHERE subcountry IS NULL` });
    expect(sql.records[0].n).toBe(123);
  });
});

describe('dpc-covid19-ita-province.csv.gz (262,807 rows, gzip, NA = Napoli)', () => {
  const file = 'dpc-covid19-ita-province.csv.gz';
  it('reads the gzip directly and types every column', async () => {
    const i = imported.get(file)!;
    expect(i.rows).toBe(262807);
    expect(typeOf(i, 'data')).toBe('timestamp');
    expect(typeOf(i, 'codice_provincia')).toBe('text');
    expect(typeOf(i, 'lat')).toBe('numeric');
    expect(typeOf(i, 'totale_casi')).toBe('int4');
    const first = (await search(file, { limit: 1 })).records[0]!;
    expect(first).toMatchObject({
      data: '2020-02-24T18:00:00',
      codice_regione: '13',
      codice_provincia: '066',
      denominazione_provincia: "L'Aquila",
      lat: 42.35122196,
      totale_casi: 0,
      note: null,
    });
    expect((await search(file, { filters: { sigla_provincia: 'NA' }, limit: 0 })).total).toBe(1781);
    const unknownPlace = await api.ok('datastore_search_sql', { sql: `SELECT count(*) AS n FROM "${i.resource_id}" WHERE lat IS NULL` });
    expect(unknownPlace.records[0].n).toBe(72240);
  });
});

describe('a file that cannot be read', () => {
  it('fails with a clear message and leaves the data directory as it was', (ctx) => {
    const dir = tempDir();
    ctx.onTestFinished(() => removeDir(dir));
    const store = join(dir, 'store');
    const ok = runCli(['import', join(DATA, 'world-cities.csv'), '--data', store, '--package', 'cities']);
    expect(ok.status).toBe(0);
    const catalogue = readFileSync(join(store, 'catalogue.json'), 'utf8');
    const filesBefore = readdirSync(join(store, 'resources'), { recursive: true }).sort();
    const bad = join(dir, 'broken.csv');
    writeFileSync(bad, Buffer.concat([Buffer.from('a;b\n1;2\n'), Buffer.alloc(64, 0), Buffer.from([0xff, 0xfe, 0x01])]));
    const r = runCli(['import', bad, '--data', store, '--package', 'cities']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/it contains binary data/);
    expect(r.stdout).toBe('');
    expect(readFileSync(join(store, 'catalogue.json'), 'utf8')).toBe(catalogue);
    expect(readdirSync(join(store, 'resources'), { recursive: true }).sort()).toEqual(filesBefore);
  });
});

describe('a file with bad rows', () => {
  it("imports every row and lists the repairs in the CLI's JSON", (ctx) => {
    const dir = tempDir();
    ctx.onTestFinished(() => removeDir(dir));
    const ragged = join(dir, 'ragged.csv');
    writeFileSync(ragged, 'a;b\n1;2\n3;4;5;6\n7\n8;9\n');
    const r = runCli(['import', ragged, '--data', join(dir, 'store')]);
    expect(r.status).toBe(0);
    const summary = JSON.parse(r.stdout.trim().split('\n').pop()!) as { rows: number; fields: { id: string }[]; repairs: unknown[] };
    expect(summary.rows).toBe(4);
    expect(summary.fields.map((f) => f.id)).toEqual(['a', 'b', 'extra_cells']);
    expect(summary.repairs).toEqual([
      expect.objectContaining({ kind: 'extra_cells', action: 'extra_column', rows: 1, lines: [3] }),
      expect.objectContaining({ kind: 'missing_cells', action: 'repair', rows: 1, lines: [4] }),
    ]);
    expect(r.stderr).toMatch(/repaired: 1 row\(s\) have more cells than the header's 2/);
    const skipped = runCli([
      'import',
      ragged,
      '--data',
      join(dir, 'store2'),
      '--repair',
      'extra_cells=skip',
      '--repair',
      'missing_cells=skip',
    ]);
    expect(JSON.parse(skipped.stdout.trim().split('\n').pop()!)).toMatchObject({ rows: 2, fields: [{ id: 'a' }, { id: 'b' }] });
    expect(runCli(['import', ragged, '--data', join(dir, 'store3'), '--repair', 'missing_cells=extra_column']).stderr).toMatch(
      /missing_cells can be repair, skip/,
    );
  });
});
