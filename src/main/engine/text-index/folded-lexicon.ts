import { foldText } from '../../../shared/fold-text';
import { lowerBound, type InvertedIndex } from '../fts';

/**
 * The keys a literal prefix lookup misses, for search as you type (docs/search.md): lexemes
 * are kept as PostgreSQL writes them, accents included (`città`), and a name with a slash is
 * one `file` token (`bolzano/bozen`). Typing `citta` or `bozen` must still find them, so each
 * such lexeme gets extra keys pointing back at it: its accent-folded form, and every word that
 * starts with a letter inside it after punctuation (`bozen`, `example.com` in
 * `info@example.com`; not the `01` of a date). Plain ASCII words need no key: the index's own
 * sorted lexemes answer their prefixes.
 */
export class FoldedLexicon {
  private constructor(
    private readonly keys: readonly string[],
    private readonly targets: readonly string[],
  ) {}

  static readonly EMPTY = new FoldedLexicon([], []);

  static of(lexemes: Iterable<string>): FoldedLexicon {
    const pairs: [string, string][] = [];
    for (const lexeme of lexemes) for (const key of extraKeys(lexeme)) pairs.push([key, lexeme]);
    if (pairs.length === 0) return FoldedLexicon.EMPTY;
    pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return new FoldedLexicon(
      pairs.map((p) => p[0]),
      pairs.map((p) => p[1]),
    );
  }

  /** The lexemes of an immutable index that need keys, found by one pass over its term bytes. */
  static ofIndex(index: InvertedIndex): FoldedLexicon {
    const { termBytes, termOffsets, termCount } = index;
    const flagged: string[] = [];
    for (let t = 0; t < termCount; t++) {
      const end = termOffsets[t + 1]!;
      for (let p = termOffsets[t]!; p < end; p++) {
        const b = termBytes[p]!;
        const next = p + 1 < end ? termBytes[p + 1]! : 0;
        if (b >= 0x80 || (ASCII_CLASS[b] === PUNCTUATION && (next >= 0x80 || ASCII_CLASS[next] === LETTER))) {
          flagged.push(index.term(t));
          break;
        }
      }
    }
    return FoldedLexicon.of(flagged);
  }

  get size(): number {
    return this.keys.length;
  }

  /** Lexemes with a key starting with `foldedPrefix` (each once). */
  matching(foldedPrefix: string): string[] {
    return this.collect(foldedPrefix, (key) => key.startsWith(foldedPrefix));
  }

  /** Lexemes with exactly the key `folded`: `adige/s` for `s`, where PostgreSQL's parser cut
   * `Adige/Südtirol` into `adige/s` and `üdtirol`. */
  exact(folded: string): string[] {
    return this.collect(folded, (key) => key === folded);
  }

  private collect(from: string, keep: (key: string) => boolean): string[] {
    const found = new Set<string>();
    for (let i = lowerBound(this.keys, from); i < this.keys.length && keep(this.keys[i]!); i++) found.add(this.targets[i]!);
    return [...found];
  }
}

/** ASCII classes of lexeme bytes (lexemes are lower case): a word starts at a letter after punctuation. */
const LETTER = 1;
const DIGIT = 2;
const PUNCTUATION = 3;
const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  ASCII_CLASS[c] = /[a-z]/.test(ch) ? LETTER : /[0-9]/.test(ch) ? DIGIT : PUNCTUATION;
}

const LETTER_CHAR = /\p{L}/u;
const WORD_CHAR = /[\p{L}\p{N}]/u;

/** The folded form when it differs, and the folded rest from each letter that follows punctuation. */
export function extraKeys(lexeme: string): string[] {
  const folded = foldText(lexeme);
  const keys = new Set<string>();
  if (folded !== lexeme) keys.add(folded);
  for (let i = 1; i < folded.length; i++) {
    if (!WORD_CHAR.test(folded[i - 1]!) && LETTER_CHAR.test(folded[i]!)) keys.add(folded.slice(i));
  }
  return [...keys];
}
