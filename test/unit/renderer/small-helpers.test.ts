import { describe, expect, it } from 'vitest';
import { splitTokenFromFragment } from '../../../src/renderer/src/api/token';
import { normalizeBaseUrl, portalHints } from '../../../src/renderer/src/api/urls';
import { resourcesToShow } from '../../../src/renderer/src/features/catalogue/catalogue-filter';
import { datasetNameFrom, titleFromFileName } from '../../../src/renderer/src/features/import/dataset-name';
import { pathForLocale } from '../../../src/renderer/src/i18n/locale';
import { browserLocale, localeFromPath } from '../../../src/shared/locales';
import type { PackageDict } from '../../../src/shared/wire/catalogue';
import { columnLabel, columnWidth, typicalLength } from '../../../src/renderer/src/features/table/columns';

describe('token in the fragment', () => {
  it('is taken out, leaving the route', () => {
    expect(splitTokenFromFragment('token=abc')).toEqual({ token: 'abc', rest: '/' });
    expect(splitTokenFromFragment('/import#token=a%2Bb')).toEqual({ token: 'a+b', rest: '/import' });
    expect(splitTokenFromFragment('/x?token=abc&y=1')).toEqual({ token: 'abc', rest: '/x?y=1' });
    expect(splitTokenFromFragment('/x?y=1&token=abc')).toEqual({ token: 'abc', rest: '/x?y=1' });
    expect(splitTokenFromFragment('/resource/abc')).toBeNull();
  });
});

describe('locale paths', () => {
  it('reads and rewrites the locale segment', () => {
    expect(localeFromPath('/it/')).toBe('it');
    expect(localeFromPath('/fr/')).toBeNull();
    expect(pathForLocale('/en/', 'it')).toBe('/it/');
    expect(pathForLocale('/en/deep/path', 'it')).toBe('/it/deep/path');
    expect(pathForLocale('/', 'it')).toBe('/it/');
    expect(pathForLocale('/en', 'it')).toBe('/it/');
    expect(browserLocale(['de-DE', 'it-IT', 'en'])).toBe('it');
    expect(browserLocale(['de'])).toBeNull();
  });
});

describe('URLs', () => {
  it('normalizes a portal address to its site root', () => {
    expect(normalizeBaseUrl('dati.comune.milano.it/')).toBe('https://dati.comune.milano.it');
    expect(normalizeBaseUrl('https://demo.ckan.org/api/3/action')).toBe('https://demo.ckan.org');
    expect(normalizeBaseUrl('https://example.org/data/')).toBe('https://example.org/data');
    expect(normalizeBaseUrl('ftp://x')).toBeNull();
    expect(normalizeBaseUrl('  ')).toBeNull();
  });

  it('reads a CKAN download URL as portal root and resource id', () => {
    expect(
      portalHints('https://dati.gov.it/opendata/dataset/comuni/resource/0a1b2c3d-0000-4000-8000-123456789abc/download/comuni.csv'),
    ).toEqual({ base: 'https://dati.gov.it/opendata', resourceId: '0a1b2c3d-0000-4000-8000-123456789abc' });
    expect(portalHints('https://raw.githubusercontent.com/x/y.csv')).toEqual({
      base: 'https://raw.githubusercontent.com',
      resourceId: null,
    });
    expect(portalHints('comuni.csv')).toBeNull();
    expect(portalHints(null)).toBeNull();
  });
});

describe('import helpers', () => {
  it('dataset names from titles', () => {
    expect(datasetNameFrom('Comuni italiani (ISTAT) — 2024')).toBe('comuni-italiani-istat-2024');
    expect(datasetNameFrom('Città', '-2')).toBe('citta-2');
    expect(datasetNameFrom('!!')).toBe('dataset');
    expect(datasetNameFrom('x'.repeat(150), '-12')).toHaveLength(100);
    expect(titleFromFileName('istat-elenco-comuni_italiani.csv')).toBe('Istat elenco comuni italiani');
  });

  it("narrows a dataset's resources by the catalogue search, ignoring accents", () => {
    const pkg = {
      id: 'p',
      name: 'misc',
      title: 'Varie',
      notes: null,
      num_resources: 2,
      metadata_created: '',
      metadata_modified: '',
      resources: [
        { id: 'a', name: 'Città', deskstore: { source: { file: 'citta.csv' } } },
        { id: 'b', name: 'Altro' },
      ],
    } as unknown as PackageDict;
    expect(resourcesToShow(pkg, 'citta').map((r) => r.id)).toEqual(['a']);
    expect(resourcesToShow(pkg, 'varie').map((r) => r.id)).toEqual(['a', 'b']);
    expect(resourcesToShow(pkg, '').map((r) => r.id)).toEqual(['a', 'b']);
  });
});

describe('table columns', () => {
  it('labels come from info.label, line breaks folded', () => {
    expect(columnLabel({ id: 'Codice (valida a f', type: 'text', info: { label: 'Codice \n(valida a fini statistici)' } })).toBe(
      'Codice (valida a fini statistici)',
    );
    expect(columnLabel({ id: 'x', type: 'int4' })).toBe('x');
  });

  it("widths follow the type, the header's longest word and the typical value", () => {
    const sample = Array.from({ length: 10 }, (_, i) => ({ name: i === 9 ? 'x'.repeat(200) : 'Campo Tures/Sand in Taufers', n: i }));
    expect(typicalLength('name', sample)).toBe(200);
    expect(typicalLength('name', sample.slice(0, 9))).toBe(27);
    expect(columnWidth({ id: '_id', type: 'int' })).toBe(76);
    expect(columnWidth({ id: 'n', type: 'int4' }, sample)).toBe(120);
    expect(columnWidth({ id: 'denominazione_regione', type: 'text' })).toBeGreaterThanOrEqual(21 * 8);
    expect(columnWidth({ id: 'name', type: 'text' }, sample.slice(0, 9))).toBeGreaterThan(200);
    expect(
      columnWidth(
        { id: 'name', type: 'text' },
        sample.map(() => ({ name: 'y'.repeat(500) })),
      ),
    ).toBe(360);
  });
});
