import { growthRatio, LINEAR_GROWTH_BOUND } from '../../helpers/scaling';
import { describe, expect, it } from 'vitest';
import { cleanHeader, isValidFieldId } from '../../../src/main/importer/header';
import { truncateUtf8 } from '../../../src/shared/identifier-bytes';
import { DATA_FILES, parseDataFile } from './data-files';

const ids = (raw: string[]): string[] => cleanHeader(raw).columns.map((c) => c.id);

describe('cleanHeader on ISTAT', () => {
  const raw = parseDataFile('istat-elenco-comuni-italiani.csv').header;
  const cleaned = cleanHeader(raw);

  it('gives these ids', () => {
    expect(cleaned.columns.map((c) => c.id)).toEqual([
      'Codice Regione',
      "Codice dell'Unità territoriale sovracomunale (valida a fini st",
      'Codice Provincia (Storico)(1)',
      'Progressivo del Comune (2)',
      'Codice Comune formato alfanumerico',
      'Denominazione (Italiana e straniera)',
      'Denominazione in italiano',
      'Denominazione altra lingua',
      'Codice Ripartizione Geografica',
      'Ripartizione geografica',
      'Denominazione Regione',
      "Denominazione dell'Unità territoriale sovracomunale (valida a",
      'Tipologia di Unità territoriale sovracomunale',
      'Flag Comune capoluogo di provincia/città metropolitana/libero',
      'Sigla automobilistica',
      'Codice Comune formato numerico',
      'Codice Comune numerico con 110 province (dal 2010 al 2016)',
      'Codice Comune numerico con 107 province (dal 2006 al 2009)',
      'Codice Comune numerico con 103 province (dal 1995 al 2005)',
      'Codice Catastale del comune',
      'Codice NUTS1 2010',
      'Codice NUTS2 2010 (3)',
      'Codice NUTS3 2010',
      'Codice NUTS1 2021',
      'Codice NUTS2 2021 (3)',
      'Codice NUTS3 2021',
    ]);
  });

  it('keeps the original cells as labels (line breaks, trailing spaces)', () => {
    expect(cleaned.columns[1]!.label).toBe("Codice dell'Unità territoriale sovracomunale \n(valida a fini statistici)");
    expect(cleaned.columns[21]!.label).toBe('Codice NUTS2 2010 (3) ');
    expect(cleaned.columns.map((c) => c.label)).toEqual(raw);
  });

  it('reports every change, in order', () => {
    expect(cleaned.renamed.map((r) => [r.index, r.reason])).toEqual([
      [1, 'line-break'],
      [1, 'too-long'],
      [11, 'line-break'],
      [11, 'too-long'],
      [12, 'trimmed'],
      [13, 'too-long'],
      [21, 'trimmed'],
      [24, 'trimmed'],
    ]);
    expect(cleaned.renamed[0]).toEqual({
      index: 1,
      from: "Codice dell'Unità territoriale sovracomunale \n(valida a fini statistici)",
      to: "Codice dell'Unità territoriale sovracomunale (valida a fini statistici)",
      reason: 'line-break',
    });
    expect(cleaned.renamed[4]).toEqual({
      index: 12,
      from: 'Tipologia di Unità territoriale sovracomunale ',
      to: 'Tipologia di Unità territoriale sovracomunale',
      reason: 'trimmed',
    });
  });

  it('keeps footnote markers', () => {
    expect(cleaned.columns[2]!.id).toBe('Codice Provincia (Storico)(1)');
    expect(cleaned.columns[3]!.id).toBe('Progressivo del Comune (2)');
  });
});

describe('cleanHeader on every data file', () => {
  for (const f of DATA_FILES) {
    it(`${f.name}: valid, unique ids`, () => {
      const { columns } = cleanHeader(parseDataFile(f.name).header);
      expect(columns).toHaveLength(f.cols);
      expect(columns.every((c) => isValidFieldId(c.id))).toBe(true);
      expect(new Set(columns.map((c) => c.id)).size).toBe(f.cols);
    });
  }
  it('leaves clean headers alone (note file: BOM already removed by the decoder)', () => {
    expect(cleanHeader(parseDataFile('dpc-covid19-ita-note.csv').header)).toEqual({
      columns: [
        { id: 'data', label: 'data' },
        { id: 'note', label: 'note' },
      ],
      renamed: [],
    });
    expect(cleanHeader(parseDataFile('country-codes.csv').header).renamed).toEqual([]);
  });
});

describe('cleanHeader rules', () => {
  it('trims, including a stray BOM and NBSP', () => {
    expect(cleanHeader(['\ufeffdata', ' a ', '\u00a0b'])).toEqual({
      columns: [
        { id: 'data', label: '\ufeffdata' },
        { id: 'a', label: ' a ' },
        { id: 'b', label: '\u00a0b' },
      ],
      renamed: [
        { index: 0, from: '\ufeffdata', to: 'data', reason: 'trimmed' },
        { index: 1, from: ' a ', to: 'a', reason: 'trimmed' },
        { index: 2, from: '\u00a0b', to: 'b', reason: 'trimmed' },
      ],
    });
  });

  it('collapses line breaks with the spaces around them, but keeps other double spaces', () => {
    expect(ids(['a \r\n b', 'x\n\ny', 'p  q', 'u\u2028v'])).toEqual(['a b', 'x y', 'p  q', 'u v']);
  });

  it('replaces control characters and double quotes', () => {
    const r = cleanHeader(['a\tb', 'a\u0000b', 'x\u0007', 'say "hi"', 'del\u007f', 'c1\u0085x']);
    expect(r.columns.map((c) => c.id)).toEqual(['a b', 'a b_2', 'x', "say 'hi'", 'del', 'c1 x']);
    expect(r.renamed.filter((x) => x.index === 2)).toEqual([
      { index: 2, from: 'x\u0007', to: 'x ', reason: 'invalid-character' },
      { index: 2, from: 'x ', to: 'x', reason: 'trimmed' },
    ]);
    expect(r.renamed.find((x) => x.index === 1 && x.reason === 'duplicate')).toEqual({
      index: 1,
      from: 'a b',
      to: 'a b_2',
      reason: 'duplicate',
    });
  });

  it("removes leading underscores (_id is CKAN's)", () => {
    const r = cleanHeader(['_id', '__x', '_', '_ y']);
    expect(r.columns.map((c) => c.id)).toEqual(['id', 'x', 'column_3', 'y']);
    expect(r.renamed.filter((x) => x.index === 2).map((x) => x.reason)).toEqual(['leading-underscore', 'empty']);
  });

  it('names empty cells column_<position> (1-based), giving way to real names', () => {
    expect(cleanHeader(['', 'x', ' ']).renamed).toEqual([
      { index: 0, from: '', to: 'column_1', reason: 'empty' },
      { index: 2, from: ' ', to: '', reason: 'trimmed' },
      { index: 2, from: '', to: 'column_3', reason: 'empty' },
    ]);
    expect(ids(['', 'column_1'])).toEqual(['column_1_2', 'column_1']);
  });

  it('numbers duplicates without stealing names used later in the header', () => {
    expect(ids(['a', 'a', 'a_2', 'a'])).toEqual(['a', 'a_3', 'a_2', 'a_4']);
    expect(ids(['Name', 'name'])).toEqual(['Name', 'name_2']); // SQLite folds case: one column otherwise
    expect(ids(['x ', 'x'])).toEqual(['x', 'x_2']);
  });

  it('truncates to 63 bytes of UTF-8 without splitting a character, and stays unique', () => {
    const long = 'a'.repeat(70);
    expect(ids([long])).toEqual(['a'.repeat(63)]);
    expect(ids([long, long + 'b'])).toEqual(['a'.repeat(63), `${'a'.repeat(61)}_2`]);
    const emoji = 'a'.repeat(62) + '😀' + 'b';
    const [id] = ids([emoji]);
    expect(id).toBe('a'.repeat(62));
    expect(truncateUtf8('a'.repeat(59) + '😀b')).toBe('a'.repeat(59) + '😀');
    expect(truncateUtf8('a'.repeat(60) + '😀b')).toBe('a'.repeat(60));
    // 63 characters, 64 bytes: PostgreSQL (so a CKAN portal) would cut it and refuse the rows.
    const accented = 'à' + 'a'.repeat(62);
    expect(ids([accented])).toEqual(['à' + 'a'.repeat(61)]);
    expect(isValidFieldId(accented)).toBe(false);
    expect(ids([accented, accented])).toEqual(['à' + 'a'.repeat(61), `à${'a'.repeat(59)}_2`]);
    const spaced = 'a'.repeat(62) + ' bcd';
    expect(ids([spaced])).toEqual(['a'.repeat(62)]); // no trailing space after the cut
  });

  it('survives hostile cells: 1 MB names, 1 MB of whitespace', () => {
    const r = cleanHeader(['x'.repeat(1_000_000), ' '.repeat(1_000_000) + 'a', '\n'.repeat(500_000), 'b' + ' \t'.repeat(300_000) + 'c']);
    expect(r.columns.map((c) => c.id)).toEqual(['x'.repeat(63), 'a', 'column_3', 'b c']);
  });

  it('cleans hostile cells in time that grows linearly with their size', () => {
    const hostile = (n: number) => ['x'.repeat(n), ' '.repeat(n) + 'a', '\n'.repeat(n / 2), 'b' + ' \t'.repeat(n / 4) + 'c'];
    expect(growthRatio((n) => cleanHeader(hostile(n)), 320_000)).toBeLessThan(LINEAR_GROWTH_BOUND);
  });

  it('isValidFieldId follows docs/ckan-contract.md §6', () => {
    expect(isValidFieldId('ok name (1)')).toBe(true);
    for (const bad of ['', ' a', 'a ', '_a', 'a"b', 'a\tb', 'x'.repeat(64)]) expect(isValidFieldId(bad)).toBe(false);
  });
});
