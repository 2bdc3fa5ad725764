import { describe, expect, it } from 'vitest';
import { ENGLISH_STOP_WORDS, ITALIAN_STOP_WORDS } from '../../../src/main/engine/fts/stop-words';
import {
  TEXT_SEARCH_LANGUAGES,
  documentLexemes,
  isTextSearchLanguage,
  plainQueryLexemes,
} from '../../../src/main/engine/fts/text-search-config';

describe('configurations', () => {
  it('knows english, simple and italian only', () => {
    expect(TEXT_SEARCH_LANGUAGES).toEqual(['english', 'simple', 'italian']);
    expect(isTextSearchLanguage('italian')).toBe(true);
    expect(isTextSearchLanguage('english')).toBe(true);
    expect(isTextSearchLanguage('simple')).toBe(true);
    expect(isTextSearchLanguage('german')).toBe(false);
    expect(isTextSearchLanguage('English')).toBe(false);
    expect(isTextSearchLanguage('')).toBe(false);
  });

  it('embeds PostgreSQL stop lists of the documented size', () => {
    expect(ENGLISH_STOP_WORDS).toHaveLength(127);
    expect(new Set(ENGLISH_STOP_WORDS).size).toBe(127);
    expect(ITALIAN_STOP_WORDS).toHaveLength(279);
    expect(ITALIAN_STOP_WORDS).toContain('perché');
    expect(ITALIAN_STOP_WORDS).toContain('è');
  });
});

describe('english', () => {
  it('stems with Snowball English', () => {
    expect(documentLexemes('warandpeace books running', 'english')).toEqual(['warandpeac', 'book', 'run']);
    expect(documentLexemes('Running RUNS ran', 'english')).toEqual(['run', 'run', 'ran']);
  });

  it('drops English stop words but not d, è or Italian words', () => {
    expect(documentLexemes('the no a of The NOT', 'english')).toEqual([]);
    expect(documentLexemes("d'Italia è bella", 'english')).toEqual(['d', 'italia', 'è', 'bella']);
    // Italian is not Italian-stemmed by the english configuration: mobili != mobile.
    expect(documentLexemes('mobili', 'english')).not.toEqual(documentLexemes('mobile', 'english'));
  });

  it('only lower-cases numbers, e-mails, hosts and URLs (simple dictionary)', () => {
    // numhword 'the-cats2' and hword_numpart 'cats2' go to simple; the part 'the' is a word
    // part, so it goes through english_stem and is dropped as a stop word.
    expect(documentLexemes('Running@Example.com the-cats2 Books.com', 'english')).toEqual([
      'running@example.com',
      'the-cats2',
      'cats2',
      'books.com',
    ]);
  });

  it('indexes booleans and timestamps the way row_to_json renders them', () => {
    expect(documentLexemes('true false', 'english')).toEqual(['true', 'fals']);
    expect(documentLexemes('2005-03-01T00:00:00', 'english')).toEqual(['2005', '-03', '-01', 't00', '00', '00']);
  });
});

describe('italian', () => {
  it('stems with Snowball Italian and drops Italian stop words', () => {
    expect(documentLexemes('mobili mobile', 'italian')).toEqual(['mobil', 'mobil']);
    expect(documentLexemes('Perché la città è bella', 'italian')).toEqual(['citt', 'bell']);
    expect(documentLexemes('romagnola capitale', 'italian')).toEqual(['romagnol', 'capital']);
  });
});

describe('simple', () => {
  it('lower-cases only and keeps stop words', () => {
    expect(documentLexemes('The Running warandpeace Perché', 'simple')).toEqual(['the', 'running', 'warandpeace', 'perché']);
  });
});

describe('plainQueryLexemes', () => {
  it('returns distinct lexemes, stop words dropped', () => {
    expect(plainQueryLexemes('tolstoy annakarenina', 'english')).toEqual(['tolstoy', 'annakarenina']);
    expect(plainQueryLexemes('Brazil brazil BRAZIL', 'english')).toEqual(['brazil']);
    expect(plainQueryLexemes('the', 'english')).toEqual([]);
    expect(plainQueryLexemes('?!', 'english')).toEqual([]);
    expect(plainQueryLexemes('the', 'simple')).toEqual(['the']);
  });

  it('uses the same normalisation as documents (language only changes the query side)', () => {
    expect(plainQueryLexemes('warandpeace', 'simple')).toEqual(['warandpeace']);
    expect(documentLexemes('warandpeace', 'english')).toEqual(['warandpeac']);
  });

  it('is stable across the word cache (same answer on repeated calls)', () => {
    const first = documentLexemes('Città CITTÀ città running Running', 'english');
    for (let i = 0; i < 3; i++) expect(documentLexemes('Città CITTÀ città running Running', 'english')).toEqual(first);
    expect(first).toEqual(['città', 'città', 'città', 'run', 'run']);
  });
});
