// Text search configurations `english`, `simple` and `italian`, mirroring PostgreSQL's:
// the default parser splits the text (tokenizer.ts) and each token type is mapped to a
// dictionary exactly like `\dF+ english`:
//   asciiword, word, asciihword, hword, hword_asciipart, hword_part -> <language>_stem
//   numword, numhword, hword_numpart, email, url, host, url_path, file,
//   int, uint, float, sfloat, version                              -> simple (lower-case only)
//   blank, tag, protocol, entity                                    -> not indexed
// `<language>_stem` is the Snowball dictionary: lower-case, drop stop words, stem. In the
// `simple` configuration every indexed type goes to the `simple` dictionary (no stop words).
//
// Positions follow to_tsvector: every indexed token takes a position, stop words included
// (they leave a gap), capped at 16383; tokens of 2047 bytes or more are skipped entirely.
//
// Known differences from PostgreSQL (UTF-8 database, glibc locale), all deliberate:
// - Character classes come from Unicode properties (char-classes.ts), not from glibc's
//   tables: rare characters may classify differently (newer Unicode, exotic scripts). A
//   database in the C locale (where PostgreSQL treats every non-ASCII character as a letter)
//   is not modelled.
// - Case folding is String.prototype.toLowerCase (full Unicode mapping, context-sensitive
//   final sigma, 'İ' -> 'i̇'), where PostgreSQL lower-cases character by character.
// - The stemmers are the snowball-stemmers package (a JS port of an older Snowball release);
//   PostgreSQL 14+ bundles a newer Snowball whose English/Italian rules differ for a few words.
// - The e-mail/URL sub-parsers nest at most 16 deep; PostgreSQL would fail the whole
//   statement with "stack depth limit exceeded" on such input instead.
// - Parsing work is capped at 64 steps per character (+100k): texts that make the parser
//   backtrack quadratically ('<!--' or '~/' repeated thousands of times) are finished with
//   plain letter/digit splitting. PostgreSQL just takes its (quadratic) time.
// - Unpaired UTF-16 surrogates (impossible in PostgreSQL text) are treated as blanks.
// - tsvector size limits (1 MB per document) are not enforced.
// - documentLexemes() numbers positions by array index (stop-word gaps are lost); use
//   tokenizeDocument() when exact positions matter (phrase verification).

import { newStemmer } from 'snowball-stemmers';
import type { TextSearchLanguage } from '../../../shared/text-search-languages';
import * as chars from './char-classes';
import { Tok } from './parser-states';
import { ENGLISH_STOP_WORDS, ITALIAN_STOP_WORDS } from './stop-words';
import * as tokenizer from './tokenizer';
import * as termTable from './token-term-table';

// Local copies of imports used per token (see default-parser.ts).
const { utf8Length } = chars;
const { scanTokens } = tokenizer;
const { TokenTermTable, TOKEN_MISSING, tokenHash, fnvRange } = termTable;
type TokenTermTable = termTable.TokenTermTable;
const TOK_UINT = Tok.UInt,
  TOK_INT = Tok.Int,
  TOK_FLOAT = Tok.Float,
  TOK_VERSION = Tok.Version;

// The configurations offered: one list for the engine, the API and the UI.
export { type TextSearchLanguage, TEXT_SEARCH_LANGUAGES, isTextSearchLanguage } from '../../../shared/text-search-languages';

/** PostgreSQL MAXSTRLEN: longer tokens are not indexed ("word is too long to be indexed"). */
const MAX_TOKEN_BYTES = 2047;
/** dsnowball_lexize passes longer words through lower-cased, unstemmed and unfiltered. */
const MAX_STEM_BYTES = 1000;
/** PostgreSQL MAXENTRYPOS - 1: positions beyond are clamped. */
const MAX_POSITION = 16383;
/** Bound on each word cache: distinct words of a 1M-row import fit; codes must not bloat it. */
const CACHE_LIMIT = 300_000;

const DICT_NONE = 0;
const DICT_LANGUAGE = 1;
const DICT_SIMPLE = 2;
const DICT_BY_TYPE = new Uint8Array(24).fill(DICT_SIMPLE);
for (const t of [Tok.Blank, Tok.Tag, Tok.Protocol, Tok.Entity]) DICT_BY_TYPE[t] = DICT_NONE;
for (const t of [Tok.AsciiWord, Tok.Word, Tok.HWordPart, Tok.HWordAsciiPart, Tok.AsciiHWord, Tok.HWord]) {
  DICT_BY_TYPE[t] = DICT_LANGUAGE;
}
DICT_BY_TYPE[0] = DICT_NONE;

/** One configuration's word dictionary, memoised: stemming costs ~5 µs a word, a Map hit ~50 ns. */
class WordDictionary {
  private readonly cache = new Map<string, string | null>();

  constructor(
    private readonly stemmer: ((word: string) => string) | null,
    private readonly stopWords: ReadonlySet<string> | null,
  ) {}

  /** Lexeme for a word token as written in the text, or null for a stop word. */
  lexize(raw: string): string | null {
    const cached = this.cache.get(raw);
    if (cached !== undefined) return cached;
    const lexeme = this.lexizeUncached(raw);
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(raw, lexeme);
    return lexeme;
  }

  /** lexize() without the memo, for callers that keep their own (TermInterner). */
  lexizeUncached(raw: string): string | null {
    const lower = raw.toLowerCase();
    if (this.stemmer === null) return lower;
    if (raw.length * 3 > MAX_STEM_BYTES && utf8Length(raw, 0, raw.length) > MAX_STEM_BYTES) return lower;
    if (this.stopWords !== null && this.stopWords.has(lower)) return null;
    return this.stemmer(lower);
  }
}

function snowball(language: string): (word: string) => string {
  const stemmer = newStemmer(language);
  return (word) => stemmer.stem(word);
}

const DICTIONARIES: Record<TextSearchLanguage, WordDictionary> = {
  english: new WordDictionary(snowball('english'), new Set(ENGLISH_STOP_WORDS)),
  italian: new WordDictionary(snowball('italian'), new Set(ITALIAN_STOP_WORDS)),
  simple: new WordDictionary(null, null),
};

/** Digits-only token types: the `simple` dictionary keeps them as written (no case to fold). */
function isDigitsOnly(type: number): boolean {
  return type === TOK_UINT || type === TOK_INT || type === TOK_FLOAT || type === TOK_VERSION;
}

/** The `simple` dictionary for non-word tokens. */
function simpleLexeme(type: number, raw: string): string {
  return isDigitsOnly(type) ? raw : raw.toLowerCase();
}

/** PostgreSQL drops words of MAX_TOKEN_BYTES or more (UTF-8); only long tokens are measured. */
function isTooLong(text: string, start: number, len: number): boolean {
  return len * 3 >= MAX_TOKEN_BYTES && utf8Length(text, start, start + len) >= MAX_TOKEN_BYTES;
}

const tokens = new tokenizer.TokenBuffer();

/**
 * Core of to_tsvector: calls `emit` for every indexed token in text order with the token as
 * written, its lexeme (null for a stop word, which still takes a position) and its position.
 */
function walkTokens(
  text: string,
  language: TextSearchLanguage,
  emit: (raw: string, lexeme: string | null, position: number) => void,
): void {
  const dictionary = DICTIONARIES[language];
  if (!dictionary) throw new Error(`unknown text search configuration: ${String(language)}`);
  scanTokens(text, tokens);
  const { types, starts, lens } = tokens;
  let position = 0;
  for (let i = 0; i < tokens.count; i++) {
    const type = types[i]!;
    const dict = DICT_BY_TYPE[type]!;
    if (dict === DICT_NONE) continue;
    const start = starts[i]!;
    const len = lens[i]!;
    if (isTooLong(text, start, len)) continue;
    position++;
    const raw = text.substr(start, len);
    emit(raw, dict === DICT_LANGUAGE ? dictionary.lexize(raw) : simpleLexeme(type, raw), position < MAX_POSITION ? position : MAX_POSITION);
  }
}

/** Appends a document's lexemes (and their positions when asked) in text order. */
function analyze(text: string, language: TextSearchLanguage, lexemes: string[], positions: number[] | null): void {
  walkTokens(text, language, (_raw, lexeme, position) => {
    if (lexeme === null) return;
    lexemes.push(lexeme);
    if (positions !== null) positions.push(position);
  });
}

/** A token of a text as written, with the lexeme it is indexed as (null: a stop word, not indexed). */
export interface TokenLexeme {
  readonly token: string;
  readonly lexeme: string | null;
}

/**
 * The indexed tokens of a text with their lexemes, in order: the words plainto_tsquery
 * would look for, still paired with what was typed (search as you type needs both).
 */
export function tokenLexemes(text: string, language: TextSearchLanguage): TokenLexeme[] {
  const out: TokenLexeme[] = [];
  walkTokens(text, language, (token, lexeme) => out.push({ token, lexeme }));
  return out;
}

/** to_tsvector: the lexemes of a document in order, duplicates kept (tf = count), with positions = array index */
export function documentLexemes(text: string, language: TextSearchLanguage): string[] {
  const lexemes: string[] = [];
  analyze(text, language, lexemes, null);
  return lexemes;
}

export interface AnalyzedDocument {
  lexemes: string[];
  /** PostgreSQL word positions (1-based; stop words leave gaps; clamped at 16383). */
  positions: number[];
}

/** to_tsvector with real positions: what phrase verification (`<->`) needs. */
export function tokenizeDocument(text: string, language: TextSearchLanguage): AnalyzedDocument {
  const lexemes: string[] = [];
  const positions: number[] = [];
  analyze(text, language, lexemes, positions);
  return { lexemes, positions };
}

/** Where a TermInterner gets term ids for lexemes it has not seen yet (e.g. a PostingsBuilder).
 * Called in the middle of documentTermIds: it must not tokenize text itself. */
export interface LexemeInterner {
  internLexeme(lexeme: string): number;
}

/** Key kinds of the token table: the same characters may map differently per dictionary. */
const KIND_WORD = 0;
const KIND_SIMPLE_LOWER = 1;
const KIND_SIMPLE_RAW = 2;
/** Term id cached for a stop word. */
const STOP_TERM = -1;

/**
 * Caches token text (as written) -> term id for one configuration and one LexemeInterner,
 * for documentTermIds(). Only valid for the interner it was made with: ids come from it.
 */
export class TermInterner {
  /** @internal */
  readonly table: TokenTermTable;

  /** @param maxEntries cached tokens kept before the cache starts over (tests use small values) */
  constructor(
    readonly language: TextSearchLanguage,
    readonly lexemes: LexemeInterner,
    maxEntries?: number,
  ) {
    if (!DICTIONARIES[language]) throw new Error(`unknown text search configuration: ${String(language)}`);
    this.table = new TokenTermTable(maxEntries);
  }
}

/**
 * The term ids of a document's lexemes: exactly
 * `documentLexemes(text, language).map((l) => interner.lexemes.internLexeme(l))` (same ids,
 * same order, duplicates kept), but a token seen before costs one probe of the interner's
 * table and allocates nothing. The ids are written to out[at], out[at + 1], ... (by default
 * appended) and the index after the last one is returned. To reuse one array for many
 * documents, keep that index rather than truncating (`out.length = 0` makes V8 drop the
 * array's storage, so every document would allocate it again).
 */
export function documentTermIds(
  text: string,
  language: TextSearchLanguage,
  interner: TermInterner,
  out: number[],
  at: number = out.length,
): number {
  if (interner.language !== language) {
    throw new Error(`term interner is for ${interner.language}, not ${String(language)}`);
  }
  if (!(at >= 0 && at <= out.length && at === Math.floor(at))) throw new RangeError(`bad output index ${at}`);
  const dictionary = DICTIONARIES[language];
  const table = interner.table;
  scanTokens(text, tokens);
  const { types, starts, lens, hashes, hashed, chars } = tokens;
  const count = tokens.count;
  let end = at;
  for (let i = 0; i < count; i++) {
    const type = types[i]!;
    const dict = DICT_BY_TYPE[type]!;
    if (dict === DICT_NONE) continue;
    const start = starts[i]!;
    const len = lens[i]!;
    if (isTooLong(text, start, len)) continue;
    const kind = dict === DICT_LANGUAGE ? KIND_WORD : isDigitsOnly(type) ? KIND_SIMPLE_RAW : KIND_SIMPLE_LOWER;
    let term: number;
    let hash: number;
    if (hashed[i] === 1) {
      hash = tokenHash(hashes[i]!, kind);
      term = table.findChars(chars, start, len, kind, hash);
    } else {
      hash = tokenHash(fnvRange(text, start, len), kind);
      term = table.find(text, start, len, kind, hash);
    }
    if (term === TOKEN_MISSING) {
      const raw = text.substr(start, len);
      const lexeme = kind === KIND_WORD ? dictionary.lexizeUncached(raw) : kind === KIND_SIMPLE_RAW ? raw : raw.toLowerCase();
      term = lexeme === null ? STOP_TERM : interner.lexemes.internLexeme(lexeme);
      table.insert(text, start, len, kind, hash, term);
    }
    if (term !== STOP_TERM) out[end++] = term;
  }
  return end;
}

/** plainto_tsquery: distinct lexemes of a query, stop words dropped */
export function plainQueryLexemes(text: string, language: TextSearchLanguage): string[] {
  return [...new Set(documentLexemes(text, language))];
}
