// documentTermIds (token text -> term id in one probe) must give exactly what documentLexemes
// followed by internLexeme gives: same ids, same order, same multiplicity, every language.
import { describe, expect, it } from 'vitest';
import { PostingsBuilder } from '../../../src/main/engine/fts/postings-builder';
import {
  TEXT_SEARCH_LANGUAGES,
  TermInterner,
  documentLexemes,
  documentTermIds,
  type TextSearchLanguage,
} from '../../../src/main/engine/fts/text-search-config';
import { expectSameIndex, seededRandom } from './fts-test-helpers';

const ITALIAN_PROSE = `Quel ramo del lago di Como, che volge a mezzogiorno, tra due catene non interrotte di monti,
tutto a seni e a golfi, a seconda dello sporgere e del rientrare di quelli, vien, quasi a un tratto, a ristringersi,
e a prender corso e figura di fiume, tra un promontorio a destra, e un'ampia costiera dall'altra parte; e il ponte,
che ivi congiunge le due rive, par che renda ancor più sensibile all'occhio questa trasformazione. Nel mezzo del
cammin di nostra vita mi ritrovai per una selva oscura, ché la diritta via era smarrita. Perché è così? Sarà, sarà!
La città di Forlì, in Emilia-Romagna, conta circa 117.000 abitanti; il comune è noto per l'università.
Roma è la capitale d'Italia: 2800000 residenti nel 2011-04-04, secondo l'ISTAT (www.istat.it, info@istat.it).`;

const ENGLISH_PROSE = `It was the best of times, it was the worst of times, it was the age of wisdom, it was the
age of foolishness. The quick brown fox jumps over the lazy dog's back; dogs, foxes and DOGS. State-of-the-art
well-known e-mail: john.doe@example.com, see https://example.org/path/to/file.html?x=1 or ftp://host:21/a.
Version 1.2.3, -17, +4, 3.14159, 6.02e23, 1e-5, 0x1F, /usr/local/bin, ./a/b, ~/notes.txt, <b>bold</b> &amp; &#169;`;

/** Fragments covering every token type and both dictionaries, in several spellings. */
const FRAGMENTS = [
  'the',
  'The',
  'THE',
  'and',
  'is',
  'of',
  'a',
  'I',
  'running',
  'Runs',
  'runner',
  'cats',
  'Cats',
  'CATS',
  'il',
  'della',
  'è',
  'È',
  'più',
  'perché',
  'città',
  'Città',
  'CITTÀ',
  'università',
  'servizio',
  'servizi',
  'Servizio',
  'cittadini',
  'manutenzione',
  'comunali',
  'al',
  'dell',
  "dell'acqua",
  "l'Italia",
  'sarò',
  'ho',
  'samefo156',
  'Samefo156',
  'SAMEFO156',
  'gliponi130',
  'abc1def',
  'x1',
  'X1',
  'caffè2',
  'città3',
  '2a',
  '3D',
  'a1b2c3',
  '42',
  '0042',
  '-17',
  '+4',
  '3.14',
  '6.02e23',
  '1E5',
  '1.2.3',
  '2011-04-04',
  '117.000',
  'Emilia-Romagna',
  'emilia-romagna',
  'state-of-the-art',
  'co-op',
  'a-1',
  'x-1-y',
  'Forlì-Cesena',
  'ab-12-cd',
  'www.istat.it',
  'WWW.ISTAT.IT',
  'info@istat.it',
  'Info@Istat.IT',
  'john.doe@example.com',
  'http://example.org/a/b?c=d',
  'HTTPS://Example.ORG/Path',
  'example.com:8080/x',
  '/usr/local',
  './x',
  '~/y.txt',
  '<b>',
  '</b>',
  '<!-- c -->',
  '&amp;',
  '&#169;',
  'naïve',
  'Ñandú',
  'straße',
  'STRASSE',
  'İstanbul',
  'ΣΟΦΟΣ',
  'σοφός',
  'Москва',
  'москва',
  '東京',
  '😀',
  'a😀b',
  '𝐀𝐁',
  'x\u0301y',
  'é',
  'e\u0301',
  '١٢٣',
  'word_with_underscore',
  `${'y'.repeat(1100)}`,
  `${'Y'.repeat(1100)}`,
  `${'z'.repeat(2100)}`,
  `${'é'.repeat(700)}`,
  `${'ab1'.repeat(400)}`,
];
const SEPARATORS = [' ', ' ', ' ', ', ', '. ', '-', '/', '\n', '\t', '; ', '', '.', '@', ':', ' - ', '(', ')', '"', '\u00a0'];

function randomDocuments(seed: number, count: number): string[] {
  const rnd = seededRandom(seed);
  const italian = ITALIAN_PROSE.split(/\s+/);
  const english = ENGLISH_PROSE.split(/\s+/);
  const docs: string[] = [];
  for (let d = 0; d < count; d++) {
    const n = rnd(14);
    let text = '';
    for (let k = 0; k < n; k++) {
      const pick = rnd(10);
      const word = pick < 5 ? FRAGMENTS[rnd(FRAGMENTS.length)]! : pick < 8 ? italian[rnd(italian.length)]! : english[rnd(english.length)]!;
      text += word + SEPARATORS[rnd(SEPARATORS.length)]!;
    }
    docs.push(text);
  }
  docs.push('', ' ', ITALIAN_PROSE, ENGLISH_PROSE, FRAGMENTS.join(' '), FRAGMENTS.join(''), FRAGMENTS.join('-'));
  return docs;
}

/** Ids the reference way and the fused way, each from a fresh builder, document by document. */
function compare(
  docs: readonly string[],
  language: TextSearchLanguage,
  maxEntries?: number,
): { reference: PostingsBuilder; fused: PostingsBuilder } {
  const reference = new PostingsBuilder();
  const fused = new PostingsBuilder();
  const interner = new TermInterner(language, fused, maxEntries);
  const out: number[] = [];
  let row = 0;
  for (const doc of docs) {
    const expected = documentLexemes(doc, language).map((l) => reference.internLexeme(l));
    const end = documentTermIds(doc, language, interner, out, 0);
    expect(end).toBe(expected.length);
    const got = out.slice(0, end);
    if (JSON.stringify(got) !== JSON.stringify(expected)) {
      expect({ doc, got }).toEqual({ doc, got: expected });
    }
    row++;
    reference.addRow(row, expected);
    fused.addRow(row, out, end);
  }
  expect(fused.termCount).toBe(reference.termCount);
  return { reference, fused };
}

describe('documentTermIds', () => {
  for (const language of TEXT_SEARCH_LANGUAGES) {
    it(`equals documentLexemes + internLexeme on random and real text (${language})`, () => {
      const docs = randomDocuments(language.length * 7919, 4000);
      const { reference, fused } = compare(docs, language);
      const a = reference.finish();
      const b = fused.finish();
      expectSameIndex(b, a);
    });

    it(`stays exact when its token cache starts over (${language})`, () => {
      compare(randomDocuments(language.length * 31, 1500), language, 5);
      compare(randomDocuments(language.length * 37, 1500), language, 1);
    });
  }

  it('gives a repeated word one id whatever its case, and skips stop words', () => {
    const builder = new PostingsBuilder();
    const interner = new TermInterner('italian', builder);
    const out: number[] = [];
    const end = documentTermIds('Servizio servizio SERVIZIO il della servizi città Città', 'italian', interner, out);
    expect(out.slice(0, end)).toEqual([0, 0, 0, 0, 1, 1]);
    expect(builder.termCount).toBe(2);
  });

  it('writes at `at`, appends by default and returns the end index', () => {
    const builder = new PostingsBuilder();
    const interner = new TermInterner('english', builder);
    const out = [7, 7, 7, 7, 7];
    expect(documentTermIds('cats dogs', 'english', interner, out, 1)).toBe(3);
    expect(out).toEqual([7, 0, 1, 7, 7]);
    expect(documentTermIds('dogs birds', 'english', interner, out)).toBe(7);
    expect(out).toEqual([7, 0, 1, 7, 7, 1, 2]);
    expect(documentTermIds('the of and', 'english', interner, out, 0)).toBe(0);
    expect(() => documentTermIds('x', 'english', interner, out, 99)).toThrow(RangeError);
  });

  it('refuses an interner made for another configuration', () => {
    const interner = new TermInterner('english', new PostingsBuilder());
    expect(() => documentTermIds('cats', 'italian', interner, [])).toThrow(/english/);
  });
});
