import { describe, expect, it } from 'vitest';
import { prefixTsQuery, searchWords } from '../../../src/renderer/src/api/tsquery';

describe('prefix tsquery for the table search', () => {
  it('makes every word a prefix and ANDs them', () => {
    expect(prefixTsQuery('città castello')).toBe("'città':* & 'castello':*");
  });

  it('keeps accents and letters outside ASCII (CKAN\'s view splits on them)', () => {
    expect(prefixTsQuery('Števerjan')).toBe("'števerjan':*");
    expect(prefixTsQuery('Nabrežina')).toBe("'nabrežina':*");
    expect(prefixTsQuery('Warīsān')).toBe("'warīsān':*");
    expect(prefixTsQuery('Москва')).toBe("'москва':*");
  });

  it('splits on anything that is not a letter or digit: quotes, hyphens, slashes, punctuation', () => {
    expect(prefixTsQuery("Sant'Angelo")).toBe("'sant':* & 'angelo':*");
    expect(prefixTsQuery('Collio-Števerjan')).toBe("'collio':* & 'števerjan':*");
    expect(prefixTsQuery('Bolzano/Bozen')).toBe("'bolzano':* & 'bozen':*");
    expect(prefixTsQuery("a'' & b | !c :* (d)")).toBe("'a':* & 'b':* & 'c':* & 'd':*");
    expect(prefixTsQuery('001 ITC1')).toBe("'001':* & 'itc1':*");
  });

  it('composes decomposed accents (NFD input) into the indexed form', () => {
    expect(prefixTsQuery('citta\u0300')).toBe("'città':*");
    expect(searchWords('Citta\u0300 di Castello')).toEqual(['città', 'di', 'castello']);
  });

  it('is empty for text without words', () => {
    expect(prefixTsQuery('')).toBe('');
    expect(prefixTsQuery("  ' - & ")).toBe('');
  });
});
