import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { dataFile } from '../../helpers/fixtures';
import { suggestTextSearchLanguage } from '../../../src/shared/text-search-languages';

/** The first lines of a data file, as the import preview shows them (header and first rows). */
function firstLines(name: string, count = 30): string[] {
  const bytes = readFileSync(dataFile(name));
  const text = (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).subarray(0, 200_000).toString('latin1');
  return text.split(/\r?\n/).slice(0, count);
}

describe('suggested full-text language', () => {
  it('Italian for the Italian public-administration files, English for the international ones', () => {
    expect(suggestTextSearchLanguage(firstLines('istat-elenco-comuni-italiani.csv'))).toBe('italian');
    expect(suggestTextSearchLanguage(firstLines('dpc-covid19-ita-note.csv'))).toBe('italian');
    expect(suggestTextSearchLanguage(firstLines('dpc-covid19-ita-province.csv.gz'))).toBe('italian');
    // fuel brand names (`Hi-Q Diesel`, `Blue Super`) and codes: too little Italian text to tell
    expect(suggestTextSearchLanguage(firstLines('mise-carburanti-prezzo_alle_8-2022-03-24.csv'))).toBe('english');
    expect(suggestTextSearchLanguage(firstLines('world-cities.csv'))).toBe('english');
    expect(suggestTextSearchLanguage(firstLines('country-codes.csv'))).toBe('english');
  });

  it("English, CKAN's default, when there is too little to tell", () => {
    expect(suggestTextSearchLanguage([])).toBe('english');
    expect(suggestTextSearchLanguage(['id;valore', '1;2'])).toBe('english');
    expect(suggestTextSearchLanguage(['The city of the river and the hills'])).toBe('english');
    expect(suggestTextSearchLanguage(['La città del fiume e delle colline, con il castello'])).toBe('italian');
  });
});
