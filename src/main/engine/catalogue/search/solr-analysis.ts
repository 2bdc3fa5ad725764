import { newStemmer } from 'snowball-stemmers';

/**
 * The analysis of CKAN's Solr `text` field type (ckan/config/solr/schema.xml): whitespace
 * tokens, split by a word delimiter (at punctuation, case changes and letter/digit changes;
 * the index side also keeps the parts joined, so `Wi-Fi` is found as `wifi`), lower-cased,
 * stemmed with Snowball English and folded to ASCII. `string` fields (name, tags,
 * organization, res_format, license_id, …) are not analysed: they match whole and exactly.
 */

const english = newStemmer('english');

/** One analysed term and its position, for phrase queries. */
export interface Term {
  readonly term: string;
  readonly position: number;
}

const fold = (s: string): string => s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');

/** A token's word parts: runs of letters or digits, split again at lower→upper changes. */
function wordParts(token: string): string[] {
  const runs = token.match(/\p{L}+|\p{N}+/gu) ?? [];
  return runs.flatMap((run) => run.split(/(?<=\p{Ll})(?=\p{Lu})/u));
}

function normalise(word: string): string {
  return fold(english.stem(word.toLowerCase()));
}

/** The terms a `text` field holds for this value (index side). */
export function indexTerms(value: string): Term[] {
  const out: Term[] = [];
  let position = 0;
  for (const token of value.split(/\s+/).filter(Boolean)) {
    const parts = wordParts(token);
    for (const part of parts) out.push({ term: normalise(part), position: position++ });
    // catenateWords: the word parts joined, at the position of the last one.
    const words = parts.filter((p) => /^\p{L}+$/u.test(p));
    if (words.length > 1) out.push({ term: normalise(words.join('')), position: position - 1 });
  }
  return out;
}

/** The terms of a query word or phrase for a `text` field (query side: no catenation). */
export function queryTerms(value: string): string[] {
  return value.split(/\s+/).filter(Boolean).flatMap(wordParts).map(normalise);
}

/** A wildcard term on a `text` field: Solr lower-cases and folds it but does not stem it. */
export function wildcardPattern(value: string): RegExp {
  const escaped = fold(value.toLowerCase())
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`, 'u');
}

/** A wildcard on a `string` field: exact characters, case-sensitive. */
export function stringWildcard(value: string): RegExp {
  const escaped = value
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`, 'su');
}
