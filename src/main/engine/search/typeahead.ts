import { invalid, withMessage } from '../../errors';
import { message } from '../../../shared/messages';
import { foldText } from '../../../shared/fold-text';
import { tokenLexemes, type TextSearchLanguage } from '../fts';
import { difference, intersectMany, union, unionMany } from '../fts/posting-ops';
import type { ResourceTextIndex } from './full-text';

/**
 * `deskstore_q`, search as you type (docs/search.md): what the UI's search box sends, and what
 * a script can send too. Every word of the text must match a row, and a word matches
 *  - what `q` would match for it (its lexeme in the resource's own text-search language, so
 *    `Springs` finds `spring`, and `q`'s rows are always among the results), or
 *  - any word of the row that starts with it, ignoring case and accents (`citta` finds
 *    `Città`), also inside names joined by punctuation (`bozen` finds `Bolzano/Bozen`).
 * Words `q` ignores (stop words such as `the`, `della`) are ignored too, unless there is no
 * other word: then they are prefixes like the rest.
 */
export const MAX_TYPEAHEAD_LENGTH = 1000;
const MAX_WORDS = 32;

export interface TypeaheadWord {
  /** What `q` looks for (null: a stop word). */
  readonly lexeme: string | null;
  /** The word as typed, folded: matched as a prefix of the row's words. */
  readonly prefix: string;
}

export function typeaheadWords(text: string, language: TextSearchLanguage): TypeaheadWord[] {
  if (text.length > MAX_TYPEAHEAD_LENGTH) {
    const detail = `At most ${MAX_TYPEAHEAD_LENGTH} characters (this text has ${text.length})`;
    throw withMessage(
      invalid('deskstore_q', detail),
      message('search.typeahead.too_long', `The search text is too long: ${detail.toLowerCase()}.`, {
        max: MAX_TYPEAHEAD_LENGTH,
        length: text.length,
      }),
    );
  }
  const tokens = tokenLexemes(text, language);
  const meaningful = tokens.some((t) => t.lexeme !== null) ? tokens.filter((t) => t.lexeme !== null) : tokens;
  const words = new Map<string, TypeaheadWord>();
  for (const { token, lexeme } of meaningful) {
    const word = { lexeme, prefix: foldText(token) };
    words.set(JSON.stringify(word), word);
  }
  if (words.size > MAX_WORDS) {
    const detail = `At most ${MAX_WORDS} different words (this text has ${words.size})`;
    throw withMessage(
      invalid('deskstore_q', detail),
      message('search.typeahead.too_many_words', `The search has too many words: ${detail.toLowerCase()}.`, {
        max: MAX_WORDS,
        words: words.size,
      }),
    );
  }
  return [...words.values()];
}

/** Shortest stem tried as "the typed word went past its stem" (below that, too many false leads). */
const MIN_STEM = 3;
const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Whether folded text has a word starting with `prefix` (at the start or after a non-word character). */
export function hasWordStartingWith(foldedText: string, prefix: string): boolean {
  for (let i = foldedText.indexOf(prefix); i >= 0; i = foldedText.indexOf(prefix, i + 1)) {
    if (i === 0 || !WORD_CHAR.test(foldedText[i - 1]!)) return true;
  }
  return false;
}

interface WordRows {
  readonly prefix: string;
  /** Rows that certainly match the word. */
  readonly sure: Uint32Array;
  /** Rows that match if their text has a word starting with the prefix. */
  readonly maybe: Uint32Array;
}

/**
 * A word's rows. Two cases need the row's text to confirm a candidate, because the word typed
 * is longer than what the index holds for it:
 *  - the index holds stems: `universit` is no prefix of `univers` (the stem of `university`
 *    and `universities`), so lexemes that are shorter prefixes of the typed word are candidates;
 *  - PostgreSQL's parser ends a file token at the first non-ASCII letter (`Adige/Südtirol` is
 *    `adige/s` and `üdtirol`), so lexemes whose word after punctuation is a shorter prefix of
 *    the typed word (`s` of `sudtirol`) are candidates too.
 */
function wordRows(word: TypeaheadWord, index: ResourceTextIndex): WordRows {
  const sureLists = [index.matchFoldedPrefix(word.prefix)];
  if (word.lexeme !== null) sureLists.push(index.match({ type: 'term', lexeme: word.lexeme, prefix: false }));
  const sure = unionMany(sureLists);
  const shorter: Uint32Array[] = [];
  for (let end = 1; end < word.prefix.length; end++) {
    const start = word.prefix.slice(0, end);
    shorter.push(index.matchFoldedKey(start));
    if (end >= MIN_STEM && start !== word.lexeme) shorter.push(index.match({ type: 'term', lexeme: start, prefix: false }));
  }
  return { prefix: word.prefix, sure, maybe: difference(unionMany(shorter), sure) };
}

/** The `_id`s (ascending) `text` finds as search as you type; null when it has no word (no condition). */
export function matchTypeahead(text: string, language: TextSearchLanguage, index: ResourceTextIndex): Uint32Array | null {
  const words = typeaheadWords(text, language);
  if (words.length === 0) return null;
  const perWord = words.map((word) => wordRows(word, index));
  const candidates = intersectMany(perWord.map((w) => (w.maybe.length ? union(w.sure, w.maybe) : w.sure)));
  if (perWord.every((w) => w.maybe.length === 0)) return candidates.slice();
  // Walk the candidates with a cursor in each word's sure rows; read a row's text only when needed.
  const cursors = perWord.map(() => 0);
  const rows = new Uint32Array(candidates.length);
  let n = 0;
  for (let i = 0; i < candidates.length; i++) {
    const row = candidates[i]!;
    let text: string | null = null;
    let ok = true;
    for (let k = 0; k < perWord.length && ok; k++) {
      const { sure, prefix } = perWord[k]!;
      let c = cursors[k]!;
      while (c < sure.length && sure[c]! < row) c++;
      cursors[k] = c;
      if (c < sure.length && sure[c] === row) continue;
      text ??= foldText(index.documentText(row));
      ok = hasWordStartingWith(text, prefix);
    }
    if (ok) rows[n++] = row;
  }
  return rows.slice(0, n);
}
