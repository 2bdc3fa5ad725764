import { describe, expect, it } from 'vitest';
import { packageDocument } from '../../../src/main/engine/catalogue/search/package-document';
import { indexTerms, queryTerms } from '../../../src/main/engine/catalogue/search/solr-analysis';
import { compileDismax, compileLucene, solrDate } from '../../../src/main/engine/catalogue/search/solr-query';

/** package_search's query pieces (docs/ckan-contract.md §10.4), below the compatibility cases. */
const doc = packageDocument({
  name: 'bilancio-2024',
  title: 'Bilancio di previsione',
  notes: 'Wi-Fi pubblico e spese',
  type: 'dataset',
  license_title: 'CC-BY',
  tags: [{ name: 'finanza pubblica' }],
  groups: [],
  organization: { name: 'comune' },
  extras: [],
  resources: [{ format: 'CSV', name: 'Dati', url: 'http://x/y.csv' }],
  metadata_modified: '2024-05-01T10:00:00.000000',
});

describe('Solr text analysis', () => {
  it('splits at punctuation and case changes, keeps the parts joined, stems and folds', () => {
    expect(indexTerms('Wi-Fi OpenData città').map((t) => t.term)).toEqual(['wi', 'fi', 'wifi', 'open', 'data', 'opendata', 'citta']);
    expect(queryTerms('Spese')).toEqual(['spese']);
  });
});

describe('Solr queries', () => {
  it('match string fields exactly and text fields by terms, phrases and wildcards', () => {
    const matches = (q: string) => compileLucene(q)(doc) !== null;
    expect(
      [
        'res_format:CSV',
        'tags:"finanza pubblica"',
        'title:bilancio',
        'notes:wifi',
        'title:bil*',
        'text:comune',
        'name:bilancio-2024',
      ].filter(matches),
    ).toHaveLength(7);
    expect(['res_format:csv', 'tags:finanza', 'title:spese', 'name:bilancio'].filter(matches)).toEqual([]);
  });

  it('combine clauses: AND over OR, NOT, prohibited and required clauses, pure negations', () => {
    const matches = (q: string) => compileLucene(q)(doc) !== null;
    expect(matches('res_format:PDF OR tags:"finanza pubblica" AND title:bilancio')).toBe(true);
    expect(matches('(res_format:PDF OR tags:"finanza pubblica") AND NOT title:bilancio')).toBe(false);
    expect(matches('-res_format:PDF')).toBe(true);
    expect(matches('title:bilancio -organization:comune')).toBe(false);
    expect(matches('metadata_modified:[2024-01-01T00:00:00Z TO 2024-12-31T00:00:00Z]')).toBe(true);
    expect(matches('metadata_modified:{* TO 2024-05-01T10:00:00Z}')).toBe(false);
  });

  it('dismax needs all of two words, all but one of three to five, 80% of more', () => {
    const matches = (q: string) => compileDismax(q)(doc) !== null;
    expect(matches('bilancio spese')).toBe(true);
    expect(matches('bilancio ferrovie')).toBe(false);
    expect(matches('bilancio spese ferrovie')).toBe(true);
    expect(matches('bilancio ferrovie porti')).toBe(false);
    expect(matches('+bilancio -spese')).toBe(false);
  });

  it('computes Solr date math', () => {
    const now = Date.UTC(2024, 4, 17, 13, 45, 30);
    expect(new Date(solrDate('NOW/DAY', now)!).toISOString()).toBe('2024-05-17T00:00:00.000Z');
    expect(new Date(solrDate('NOW-1YEAR/MONTH', now)!).toISOString()).toBe('2023-05-01T00:00:00.000Z');
    expect(new Date(solrDate('NOW+2DAYS', now)!).toISOString()).toBe('2024-05-19T13:45:30.000Z');
    expect(solrDate('*', now)).toBeNull();
    expect(() => solrDate('yesterday', now)).toThrow(/Invalid Date String/);
  });
});
