import { describe, expect, it } from 'vitest';
import { IMPORT_ACCEPT, IMPORT_EXTENSIONS, importFormatByName, looksTabular } from '../../../src/shared/import-formats';
import { mimeTypeOf } from '../../../src/main/util/mime-type';

describe('the import formats, written once and derived everywhere', () => {
  it('the file chooser accepts every ending and its media type, gzip included', () => {
    expect([...IMPORT_EXTENSIONS].sort()).toEqual(['.csv', '.geojson', '.gz', '.json', '.ods', '.tsv', '.txt', '.xlsx', '.zip']);
    const accept = IMPORT_ACCEPT.split(',');
    for (const item of [
      '.csv',
      '.gz',
      'text/csv',
      'application/gzip',
      'application/geo+json',
      'application/vnd.oasis.opendocument.spreadsheet',
    ])
      expect(accept).toContain(item);
    expect(new Set(accept).size).toBe(accept.length);
  });

  it('names a format from a file name, compressed text included', () => {
    expect(
      ['dati.CSV', 'x.tsv.gz', 'a.txt', 'b.xlsx', 'c.ods', 'd.json', 'e.geojson', 'f.zip', 'g.pdf', 'noext', 'h.gz'].map(
        importFormatByName,
      ),
    ).toEqual(['csv', 'csv', 'csv', 'xlsx', 'ods', 'json', 'geojson', 'zip', null, null, null]);
  });

  it('stores the media type the table says for every import ending (as Python guesses it)', () => {
    expect(
      ['a.csv', 'a.tsv', 'a.txt', 'a.json', 'a.geojson', 'a.zip', 'a.gz', 'a.xlsx', 'a.ods', 'a.csv.gz', 'a.pdf', 'a.xls'].map(mimeTypeOf),
    ).toEqual([
      'text/csv',
      'text/tab-separated-values',
      'text/plain',
      'application/json',
      'application/geo+json',
      'application/zip',
      'application/gzip',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.oasis.opendocument.spreadsheet',
      'text/csv',
      'application/pdf',
      'application/vnd.ms-excel',
    ]);
  });

  it('loads a URL into the DataStore by its format word or its name ending, as xloader does', () => {
    expect(looksTabular('https://x.it/a', 'CSV')).toBe(true);
    expect(looksTabular('https://x.it/a', 'text/csv')).toBe(true);
    expect(looksTabular('https://x.it/a', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')).toBe(true);
    expect(looksTabular('https://x.it/a', 'tsv')).toBe(true);
    expect(looksTabular('https://x.it/dati.xlsx?download=1', '')).toBe(true);
    expect(looksTabular('https://x.it/dati.csv.gz', null)).toBe(true);
    expect(looksTabular('https://x.it/relazione.pdf', 'PDF')).toBe(false);
    expect(looksTabular('https://x.it/pagina', 'HTML')).toBe(false);
    expect(looksTabular('https://x.it/csv', '')).toBe(false);
  });
});
