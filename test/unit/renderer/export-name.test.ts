import { describe, expect, it } from 'vitest';
import { exportName } from '../../../src/renderer/src/features/export/export-name';
import { EMPTY_VIEW } from '../../../src/renderer/src/features/table/view-state';

const words = { empty: '(vuoto)', notEmpty: '(non vuoto)' };

describe('export file name', () => {
  it('is the resource title, then what narrows the rows', () => {
    expect(exportName('Elenco comuni', EMPTY_VIEW, words)).toBe('Elenco comuni');
    expect(
      exportName(
        'Elenco comuni',
        {
          ...EMPTY_VIEW,
          q: ' città ',
          filters: { Regione: ['Umbria', 'Lazio'], Sigla: [{ deskstore_empty: true }] },
        },
        words,
      ),
    ).toBe('Elenco comuni (città, Regione Umbria+Lazio, Sigla (vuoto))');
  });

  it('leaves out the extension of a resource named after its file', () => {
    expect(exportName('istat-comuni.csv', { ...EMPTY_VIEW, q: 'san' }, words)).toBe('istat-comuni (san)');
    expect(exportName('dati.csv.gz', EMPTY_VIEW, words)).toBe('dati');
  });

  it('stays short', () => {
    const name = exportName('t', { ...EMPTY_VIEW, q: 'x'.repeat(300) }, words);
    expect([...name]).toHaveLength(100);
    expect(name.endsWith('…')).toBe(true);
  });
});
