import { describe, expect, it } from 'vitest';
import { formatOf } from '../../../src/main/importer/formats';
import type { ImportChoices } from '../../../src/main/importer/import-types';
import type { RawTable } from '../../../src/main/importer/raw-table';
import { serialToIso } from '../../../src/main/importer/readers/xlsx-reader';
import { inferColumn } from '../../../src/main/importer/type-columns';
import { previewFile } from '../../../src/main/importer/preview';
import { fixtureFile } from '../../helpers/fixtures';

/** Each format of the table of formats, read from a small fixture (test/fixtures/messy). */
async function read(name: string, choices: ImportChoices = {}): Promise<RawTable> {
  const path = fixtureFile('messy', name);
  return (await formatOf(path, name)).read({ path, name, choices });
}

function column(table: RawTable, label: string): { cells: (string | null)[]; type: string } {
  const i = table.header.indexOf(label);
  expect(i, `column ${label} in ${table.header.join(', ')}`).toBeGreaterThanOrEqual(0);
  const c = table.columns[i]!;
  return {
    cells: Array.from({ length: table.rows }, (_, r) => c.values[c.codes[r + 1]!] || null),
    type: inferColumn(c, table.layout.decimalComma).type,
  };
}

describe('XLSX', () => {
  it("skips the empty first sheet, finds the header below a merged title row, keeps the cells' real types", async () => {
    const t = await read('comuni.xlsx');
    expect(t.layout).toMatchObject({
      format: 'xlsx',
      sheet: 'Comuni 2023',
      headerLine: 3,
      sheets: [
        { name: 'Note', empty: true },
        { name: 'Comuni 2023', empty: false },
      ],
    });
    expect(t.header).toEqual(['Comune', 'Abitanti', 'Data rilevazione', 'Capoluogo', 'Densità', 'Codice']);
    expect(t.rows).toBe(3);
    expect(column(t, 'Comune').cells).toEqual(['Aosta', 'Bard', 'Cogne']);
    expect(column(t, 'Abitanti')).toEqual({ cells: ['33916', '118', '1339'], type: 'int4' });
    expect(column(t, 'Data rilevazione')).toEqual({ cells: ['2024-01-01', '2024-01-01T12:00:00', '2024-01-02'], type: 'timestamp' });
    expect(column(t, 'Capoluogo')).toEqual({ cells: ['true', 'false', 'false'], type: 'bool' });
    expect(column(t, 'Densità')).toMatchObject({ cells: ['1585.6007480131', '6.4942212438084', '6.29821260583255'], type: 'numeric' });
    expect(column(t, 'Codice')).toEqual({ cells: ['007003', '007008', '007022'], type: 'text' });
    expect(t.repairs).toEqual([]);
    // The cells' own types, handed over: numbers, dates and booleans are not guessed again;
    // text cells (names, codes kept as text) are left to inference.
    expect(t.fileTypes).toEqual([undefined, 'int4', 'timestamp', 'bool', 'numeric', undefined]);
  });

  it("says in the preview that a column's type is the file's own", async () => {
    const preview = await previewFile(fixtureFile('messy', 'comuni.xlsx'), 'comuni.xlsx', {});
    const byId = Object.fromEntries(preview.columns.map((c) => [c.id, c]));
    expect(byId.Abitanti).toMatchObject({
      type: 'int4',
      forced: false,
      reason: { code: 'import.type.from_file', params: { type: 'int4' } },
    });
    expect(byId.Codice).toMatchObject({ type: 'text', reason: { code: 'import.type.leading_zeros' } });
    // the user's choice still wins over the file's
    const chosen = await previewFile(fixtureFile('messy', 'comuni.xlsx'), 'comuni.xlsx', { types: { Abitanti: 'text' } });
    expect(chosen.columns.find((c) => c.id === 'Abitanti')).toMatchObject({
      type: 'text',
      forced: true,
      reason: { code: 'import.type.forced' },
    });
  });

  it('reads the sheet the user picks, and refuses one it does not have', async () => {
    await expect(read('comuni.xlsx', { sheet: 'Nope' })).rejects.toMatchObject({ worded: { code: 'import.refused.no_sheet' } });
    await expect(read('comuni.xlsx', { sheet: 'Note' })).rejects.toMatchObject({ worded: { code: 'import.refused.empty_sheet' } });
  });

  it("date serials: Excel's 1900 system with its phantom 29 February, and 1904", () => {
    expect(serialToIso(1, false)).toBe('1900-01-01');
    expect(serialToIso(61, false)).toBe('1900-03-01');
    expect(serialToIso(45292, false)).toBe('2024-01-01');
    expect(serialToIso(0, true)).toBe('1904-01-01');
  });
});

describe('ODS', () => {
  it('reads values, not display text; the spanned title row is a preamble; repeated empty cells and rows cost nothing', async () => {
    const t = await read('prezzi.ods');
    expect(t.layout).toMatchObject({
      format: 'ods',
      sheet: 'Prezzi',
      headerLine: 2,
      sheets: [
        { name: 'Prezzi', empty: false },
        { name: 'Vuoto', empty: true },
      ],
    });
    expect(t.header).toEqual(['prodotto', 'prezzo', 'giorno']);
    expect(column(t, 'prezzo')).toEqual({ cells: ['1.849', '1.899'], type: 'numeric' });
    expect(column(t, 'giorno')).toEqual({ cells: ['2022-03-24', '2022-03-25'], type: 'date' });
    expect(t.fileTypes).toEqual([undefined, 'numeric', 'date']);
  });
});

describe('ZIP', () => {
  it('lists the files it can import and reads the first, or the one chosen', async () => {
    const first = await read('two-csvs.zip');
    expect(first.layout.entries).toEqual([
      { name: 'dati/comuni.csv', bytes: 37, format: 'csv' },
      { name: 'dati/province.csv', bytes: 40, format: 'csv' },
    ]);
    expect(first.layout.entry).toBe('dati/comuni.csv');
    expect(first.rows).toBe(2);
    const second = await read('two-csvs.zip', { entry: 'dati/province.csv' });
    expect([second.layout.delimiter, second.rows, second.header]).toEqual([',', 3, ['sigla', 'nome']]);
    await expect(read('two-csvs.zip', { entry: 'x.csv' })).rejects.toMatchObject({ worded: { code: 'import.refused.zip_entry' } });
  });
});

describe('JSON and GeoJSON', () => {
  it('a JSON array of objects: keys as columns in order of appearance, nested values as JSON', async () => {
    const t = await read('comuni.json');
    expect(t.layout.format).toBe('json');
    expect(t.header).toEqual(['comune', 'abitanti', 'capoluogo', 'codice', 'note', 'altitudine', 'tags']);
    expect(column(t, 'abitanti').type).toBe('int4');
    expect(column(t, 'codice').type).toBe('text');
    expect(column(t, 'tags').cells).toEqual([null, null, '["parco","montagna"]']);
  });

  it('a GeoJSON FeatureCollection: properties, geometry as JSON, lat/lon for points', async () => {
    const t = await read('monumenti.geojson');
    expect(t.layout.format).toBe('geojson');
    expect(t.header).toEqual(['nome', 'anno', 'geometry', 'lat', 'lon']);
    expect(column(t, 'lat').cells).toEqual(['41.9009', '41.8902', null]);
    expect(column(t, 'lon')).toMatchObject({ cells: ['12.4833', '12.4922', null], type: 'numeric' });
    expect(JSON.parse(column(t, 'geometry').cells[2]!)).toMatchObject({ type: 'LineString' });
  });
});

describe('the table of formats', () => {
  it('reads every format of the shared table, by the endings the file chooser accepts', async () => {
    const { FORMATS } = await import('../../../src/main/importer/formats');
    const { IMPORT_EXTENSIONS, IMPORT_FORMATS } = await import('../../../src/shared/import-formats');
    expect(FORMATS.map((f) => f.id).sort()).toEqual([...IMPORT_FORMATS].sort());
    expect([...IMPORT_EXTENSIONS].sort()).toEqual([...FORMATS.flatMap((f) => f.extensions), '.gz'].sort());
    // content is recognised in this order: CSV takes what nothing else recognised
    expect(FORMATS.map((f) => f.id)).toEqual(['xlsx', 'ods', 'zip', 'geojson', 'json', 'csv']);
  });
});
