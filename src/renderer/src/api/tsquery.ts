/**
 * The table's search box as a PostgreSQL tsquery for `datastore_search` with `plain=false`
 * and `language=simple`: every word of the user's text as a prefix (`'città':*`), all of
 * them required. CKAN's own table view builds the same shape but splits words on ASCII only,
 * which breaks on accented letters; here a word is a run of Unicode letters, digits and
 * combining marks. Pure: no DOM.
 */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

export function searchWords(text: string): string[] {
  return text.normalize('NFC').toLowerCase().match(WORD) ?? [];
}

/** `città castello` → `'città':* & 'castello':*`; '' when there is no word. */
export function prefixTsQuery(text: string): string {
  return searchWords(text).map((word) => `'${word.replace(/'/g, "''")}':*`).join(' & ');
}
