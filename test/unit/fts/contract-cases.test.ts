// The q-* conformance cases and docs/ckan-contract.md §3.4 examples, run through the full-text module the
// way the engine will: a row document is the row's column values joined by spaces (JSON
// columns as JSON text), indexed with the english configuration; `q` is parsed with the
// request language.
import { describe, expect, it } from 'vitest';
import { PostingsBuilder } from '../../../src/main/engine/fts/postings-builder';
import { evaluateQuery } from '../../../src/main/engine/fts/query-eval';
import { matchesPhrase } from '../../../src/main/engine/fts/phrase-match';
import { rankRows } from '../../../src/main/engine/fts/rank';
import { documentLexemes, tokenizeDocument, type TextSearchLanguage } from '../../../src/main/engine/fts/text-search-config';
import { TsQuerySyntaxError, parseTsQuery, plainToTsQuery } from '../../../src/main/engine/fts/tsquery';
import { universeOf } from './fts-test-helpers';

type Row = Record<string, unknown>;
const text = (row: Row): string =>
  Object.values(row)
    .filter((v) => v !== null)
    .map((v) => (typeof v === 'string' ? v : JSON.stringify(v)))
    .join(' ');

function table(rows: Row[]) {
  const docs = rows.map(text);
  const builder = new PostingsBuilder();
  docs.forEach((doc, i) => builder.addRowLexemes(i + 1, documentLexemes(doc, 'english')));
  const index = builder.finish();
  const universe = universeOf(docs.map((_, i) => i + 1));
  return {
    index,
    search(q: string, options: { plain?: boolean; language?: TextSearchLanguage } = {}): number[] {
      const language = options.language ?? 'english';
      const query = options.plain === false ? parseTsQuery(q, language) : plainToTsQuery(q, language);
      const { candidates, verify } = evaluateQuery(query, index, universe);
      const check = new Set(verify);
      return Array.from(candidates).filter((row) => {
        if (!check.has(row)) return true;
        const doc = tokenizeDocument(docs[row - 1]!, 'english');
        return matchesPhrase(query, doc.lexemes, doc.positions);
      });
    },
  };
}

const books = table([
  {
    bük: 'annakarenina',
    author: 'tolstoy',
    published: '2005-03-01T00:00:00',
    characters: ['Princess Anna', 'Sergius'],
    'rating with %': '60%',
    nested: ['b', { moo: 'moo' }],
  },
  { bük: 'warandpeace', author: 'tolstoy', published: null, characters: null, 'rating with %': '99%', nested: { a: 'b' } },
]);
const comuni = table([
  { comune: 'Città di Castello', regione: 'Umbria', abitanti: 39000, note: 'Perché no? È bella.' },
  { comune: 'Forlì', regione: 'Emilia-Romagna', abitanti: 117000, note: 'Città romagnola' },
  { comune: 'Cantù', regione: 'Lombardia', abitanti: 40000, note: 'Famosa per il mobile' },
  { comune: 'Roma', regione: 'Lazio', abitanti: 2800000, note: "Capitale d'Italia" },
  { comune: 'Milano', regione: 'Lombardia', abitanti: 1370000, note: null },
]);

describe('conformance q-* cases', () => {
  it('q-single-word / q-two-words-and / q-no-implicit-prefix / q-prefix-with-plain-false', () => {
    expect(books.search('annakarenina')).toEqual([1]);
    expect(books.search('tolstoy annakarenina')).toEqual([1]);
    expect(books.search('tolstoy')).toEqual([1, 2]);
    expect(books.search('annakar')).toEqual([]);
    expect(books.search('annakar:*', { plain: false })).toEqual([1]);
  });

  it('q-stopwords-only matches nothing', () => {
    expect(books.search('the')).toEqual([]);
    expect(books.search('')).toEqual([]);
  });

  it('q-tsquery-syntax-error', () => {
    expect(() => comuni.search('(città', { plain: false })).toThrow(TsQuerySyntaxError);
  });

  it('q-italian-accented / q-italian-accent-not-folded', () => {
    expect(comuni.search('città')).toEqual([1, 2]);
    expect(comuni.search('CITTÀ')).toEqual([1, 2]);
    expect(comuni.search('citta')).toEqual([]);
    expect(comuni.search('Forli')).toEqual([]);
    expect(comuni.search('Forlì')).toEqual([2]);
  });

  it('q-rank-default-order', () => {
    const brazil = table([
      { from: 'Brazil', to: 'Italy' },
      { from: 'Brazil', to: 'Brazil' },
    ]);
    const query = plainToTsQuery('Brazil', 'english');
    const rows = Uint32Array.from(brazil.search('Brazil'));
    const ranks = rankRows(query, brazil.index, rows);
    const order = Array.from(rows).sort((a, b) => ranks[rows.indexOf(b)]! - ranks[rows.indexOf(a)]!);
    expect(order).toEqual([2, 1]);
  });
});

describe('docs/ckan-contract.md §3.4 behaviours', () => {
  it('matches hyphenated words whole or by part, numbers whole, and not date fragments', () => {
    expect(comuni.search('Emilia-Romagna')).toEqual([2]);
    expect(comuni.search('romagna')).toEqual([2]);
    expect(comuni.search('Emilia-Romagna', { plain: false })).toEqual([2]);
    expect(comuni.search('2800000')).toEqual([4]);
    expect(comuni.search('40000')).toEqual([3]);
    expect(books.search('2005-03-01')).toEqual([1]);
    expect(books.search('3')).toEqual([]);
  });

  it('drops stop words on both sides and stems English', () => {
    expect(comuni.search('Perché no?')).toEqual([1]);
    expect(comuni.search('italia')).toEqual([4]);
    expect(comuni.search('lombardia')).toEqual([3, 5]);
    expect(comuni.search('mobili')).toEqual([]); // Italian plural is not folded by the english stemmer
    expect(books.search('warandpeace')).toEqual([2]);
    expect(books.search('WarAndPeace')).toEqual([2]);
  });

  it('language changes only the query side', () => {
    expect(books.search('warandpeace', { language: 'simple' })).toEqual([]);
    expect(books.search('warandpeac', { language: 'simple' })).toEqual([2]);
    expect(comuni.search('bella', { language: 'italian' })).toEqual([]); // query stemmed to "bell"
  });

  it('indexes JSON text: the words of a JSON column', () => {
    expect(books.search('moo')).toEqual([1]);
    expect(books.search('princess anna')).toEqual([1]);
  });

  it('supports the DataTables view style query (prefix, plain=false, simple)', () => {
    expect(comuni.search('emilia-rom:*', { plain: false, language: 'simple' })).toEqual([2]);
    expect(comuni.search('capital_d_ital:*', { plain: false, language: 'simple' })).toEqual([4]);
    // The document holds English stems: "capitale" was indexed as "capital", so the longer
    // prefix finds nothing — the same surprise CKAN users get with the DataTables view.
    expect(comuni.search('capitale_d_ital:*', { plain: false, language: 'simple' })).toEqual([]);
    expect(comuni.search('castel:* & !umbria', { plain: false, language: 'simple' })).toEqual([]);
    expect(comuni.search('lombardia & !cantù', { plain: false, language: 'simple' })).toEqual([5]);
  });
});
