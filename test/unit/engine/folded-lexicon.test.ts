import { describe, expect, it } from 'vitest';
import { PostingsBuilder } from '../../../src/main/engine/fts';
import { FoldedLexicon, extraKeys } from '../../../src/main/engine/text-index/folded-lexicon';

describe('extraKeys', () => {
  it('adds the folded form of accented lexemes and the words after inner punctuation', () => {
    expect(extraKeys('città')).toEqual(['citta']);
    expect(extraKeys('bolzano/bozen')).toEqual(['bozen']);
    expect(extraKeys('collio-števerjan')).toEqual(['collio-steverjan', 'steverjan']);
    expect(extraKeys('info@comune.roma.it')).toEqual(['comune.roma.it', 'roma.it', 'it']);
    // plain words, numbers and dates need nothing: a literal prefix lookup finds them
    expect(extraKeys('spring')).toEqual([]);
    expect(extraKeys('2020-03-01')).toEqual([]);
    expect(extraKeys('2.5')).toEqual([]);
  });
});

describe('FoldedLexicon', () => {
  const lexemes = ['città', 'cittadella', 'bolzano/bozen', 'adige/s', 'üdtirol', 'spring', '2020-03-01', 'zürich', 'москва'];

  it('finds lexemes by folded prefix and by exact folded key', () => {
    const lexicon = FoldedLexicon.of(lexemes);
    expect(lexicon.matching('citt').sort()).toEqual(['città']); // cittadella is found literally, not here
    expect(lexicon.matching('boz')).toEqual(['bolzano/bozen']);
    expect(lexicon.matching('zur')).toEqual(['zürich']);
    expect(lexicon.matching('udt')).toEqual(['üdtirol']);
    expect(lexicon.exact('s')).toEqual(['adige/s']);
    expect(lexicon.exact('bo')).toEqual([]);
    expect(lexicon.matching('mos')).toEqual([]); // no key needed: it folds to itself
  });

  it('reads an immutable index with the same result as the lexemes themselves', () => {
    const builder = new PostingsBuilder();
    lexemes.forEach((lexeme, i) => builder.addRowLexemes(i + 1, [lexeme]));
    const fromIndex = FoldedLexicon.ofIndex(builder.finish());
    const direct = FoldedLexicon.of(lexemes);
    expect(fromIndex.size).toBe(direct.size);
    for (const prefix of ['c', 'citta', 'b', 'bozen', 's', 'u', 'z', '2'])
      expect(fromIndex.matching(prefix).sort()).toEqual(direct.matching(prefix).sort());
  });
});
