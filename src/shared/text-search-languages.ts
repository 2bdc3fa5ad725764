/**
 * The full-text languages a resource can be indexed in (PostgreSQL's text search
 * configurations of the same names): `english`, CKAN's default, which `datastore_create`
 * keeps; `italian`; `simple` (no stemming, no stop words). Chosen at import, kept with the
 * resource, shown in the UI.
 */
export const TEXT_SEARCH_LANGUAGES = ['english', 'simple', 'italian'] as const;
export type TextSearchLanguage = (typeof TEXT_SEARCH_LANGUAGES)[number];
export const DEFAULT_TEXT_SEARCH_LANGUAGE: TextSearchLanguage = 'english';

export function isTextSearchLanguage(name: unknown): name is TextSearchLanguage {
  return typeof name === 'string' && (TEXT_SEARCH_LANGUAGES as readonly string[]).includes(name);
}

// Very common words of each language (articles, prepositions, conjunctions): their counts tell
// Italian prose from English prose in a few rows. Left out: words both use (`in`, `a`), words
// of place names in many languages (`La Paz`, `Le Havre`, `Al Ain`), and short English words
// that Italian data is full of as codes (`TO`, `AT`, `OR`: provinces).
const ITALIAN = new Set(
  (
    'di del della delle dei degli dello il gli ed è per con che non una uno nel nella nei ' +
    'nelle alla alle agli dal dalla dai sono anche più come sul sulla questo questa'
  ).split(' '),
);
const ENGLISH = new Set('the of and for with that from this are was which not its have has were been their'.split(' '));

/**
 * The language to suggest for some text (a file's header and first rows): Italian when its
 * common words are clearly Italian, or, for data with few sentences (names, places, codes),
 * when its words end in a vowel as Italian words do; otherwise CKAN's English.
 */
export function suggestTextSearchLanguage(texts: Iterable<string>): TextSearchLanguage {
  let italian = 0;
  let english = 0;
  let words = 0;
  let vowelEnded = 0;
  for (const text of texts) {
    for (const match of text.toLowerCase().matchAll(/\p{L}+/gu)) {
      const word = match[0];
      if (ITALIAN.has(word)) italian++;
      else if (ENGLISH.has(word)) english++;
      else if (word.length >= 4) {
        words++;
        if (/[aeiouàèéìòù]$/.test(word)) vowelEnded++;
      }
    }
  }
  if (italian + english >= 3) return italian > english * 2 ? 'italian' : DEFAULT_TEXT_SEARCH_LANGUAGE;
  return words >= 20 && vowelEnded / words >= 0.75 ? 'italian' : DEFAULT_TEXT_SEARCH_LANGUAGE;
}
