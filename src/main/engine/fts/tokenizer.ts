// Splits text into PostgreSQL default-parser tokens (what ts_parse('default', text) returns,
// minus blanks). Plain words, words with digits (numwords), plain integers and runs of
// spaces/punctuation — nearly all of a typical cell — are recognised by hand-written fast
// paths; whenever the next characters could start something richer (host, e-mail, URL, file
// path, decimal, hyphenated word, tag, ...) the position is handed to the faithful
// state-machine interpreter in default-parser.ts.
// Every fast path returns exactly what the interpreter would (checked by a differential test).

import * as chars from './char-classes';
import { DefaultParser, setStepBudget, stepBudgetExhausted } from './default-parser';
import * as tables from './parser-states';
import { FNV_OFFSET as FNV_OFFSET_, FNV_PRIME as FNV_PRIME_ } from './token-term-table';

// Local copies of imports for the hot loops (see default-parser.ts).
const { C_ALNUM, C_ALPHA, C_ASCLET, C_SPECIAL, classOfUnit } = chars;
const { STATE_BASE } = tables;
const TOK_ASCIIWORD = tables.Tok.AsciiWord,
  TOK_WORD = tables.Tok.Word,
  TOK_UINT = tables.Tok.UInt;
const TOK_NUMWORD = tables.Tok.NumWord;
const TOK_BLANK = tables.Tok.Blank;
const FNV_OFFSET = FNV_OFFSET_,
  FNV_PRIME = FNV_PRIME_;

/**
 * Reusable token list: parallel typed arrays, no per-token objects. Tokens found by the fast
 * paths also carry the FNV-1a state over their characters (`hashes`, valid where `hashed` is
 * 1; see token-term-table.ts) and a copy of them in `chars`, both made while scanning, so
 * term lookups need not re-read the string (charCodeAt costs several times a typed read).
 */
export class TokenBuffer {
  types = new Uint8Array(256);
  starts = new Uint32Array(256);
  lens = new Uint32Array(256);
  hashes = new Int32Array(256);
  hashed = new Uint8Array(256);
  /** The text's code units at the positions of hashed tokens (the rest is stale). */
  chars = new Uint16Array(1024);
  count = 0;

  push(type: number, start: number, len: number): void {
    if (this.count === this.types.length) this.grow();
    const i = this.count++;
    this.types[i] = type;
    this.starts[i] = start;
    this.lens[i] = len;
    this.hashed[i] = 0;
  }

  pushHashed(type: number, start: number, len: number, hash: number): void {
    if (this.count === this.types.length) this.grow();
    const i = this.count++;
    this.types[i] = type;
    this.starts[i] = start;
    this.lens[i] = len;
    this.hashes[i] = hash;
    this.hashed[i] = 1;
  }

  private grow(): void {
    const n = this.types.length * 2;
    const types = new Uint8Array(n);
    types.set(this.types);
    this.types = types;
    const starts = new Uint32Array(n);
    starts.set(this.starts);
    this.starts = starts;
    const lens = new Uint32Array(n);
    lens.set(this.lens);
    this.lens = lens;
    const hashes = new Int32Array(n);
    hashes.set(this.hashes);
    this.hashes = hashes;
    const hashed = new Uint8Array(n);
    hashed.set(this.hashed);
    this.hashed = hashed;
  }
}

const rootParser = new DefaultParser(0);

// ASCII class table, copied locally so the hot loops avoid a function call per character.
const ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII[c] = classOfUnit(c);

const CH_DOT = 46,
  CH_MINUS = 45,
  CH_PLUS = 43,
  CH_UNDERSCORE = 95,
  CH_AT = 64,
  CH_COLON = 58,
  CH_SLASH = 47,
  CH_LT = 60,
  CH_AMP = 38,
  CH_TILDE = 126,
  CH_BANG = 33,
  CH_QUESTION = 63,
  CH_HASH = 35;

const isSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdfff;
const isAsciiAlnum = (c: number): boolean => c >= 0 && c < 128 && (ASCII[c]! & C_ALNUM) !== 0;
const isAsciiDigit = (c: number): boolean => c >= 48 && c <= 57;
/** p_isalpha || p_isdigit for a code unit that may be -1 (end of text); -2 = undecidable. */
function alnumOrUnknown(c: number): number {
  if (c < 0) return 0;
  if (c < 128) return ASCII[c]! & C_ALNUM;
  if (isSurrogate(c)) return -2;
  return classOfUnit(c) & C_ALNUM;
}

/** Switches for tests that compare the shortcuts with the bare interpreter. */
export interface ScanOptions {
  /** Use the hand-written fast paths (default true). */
  fastPaths?: boolean;
  /** Drop stale saved parser positions after each token (default true). */
  compactStack?: boolean;
}

/** Parser steps allowed per character (plus a constant): real text needs a handful. */
const STEPS_PER_CHAR = 64;
const STEPS_BASE = 100_000;

/** The parsing work a text of `length` UTF-16 units may cost before plain word splitting takes over. */
export function stepBudgetFor(length: number): number {
  return STEPS_BASE + STEPS_PER_CHAR * length;
}

/** Tokenizes `text` into `out` (blank tokens omitted). */
export function scanTokens(text: string, out: TokenBuffer, options?: ScanOptions): void {
  const fastPaths = options?.fastPaths ?? true;
  const compactStack = options?.compactStack ?? true;
  out.count = 0;
  if (out.chars.length < text.length) out.chars = new Uint16Array(Math.max(text.length, out.chars.length * 2));
  const p = rootParser;
  p.init(text, 0);
  const len = text.length;
  setStepBudget(stepBudgetFor(len));
  for (;;) {
    if (fastPaths && p.depth === 1 && p.state[0] === STATE_BASE && !p.ignore && !p.wanthost) {
      // Fast paths leave the parser in Base: run them back to back until one declines.
      const from = p.pos[0]!;
      let pos = from;
      for (;;) {
        if (pos >= len) return;
        const next = fastToken(text, pos, out);
        if (next <= pos) break;
        pos = next;
      }
      if (pos !== from) {
        p.pos[0] = pos;
        p.lenTok[0] = 0;
      }
    }
    if (!p.get()) {
      if (stepBudgetExhausted()) degradedScan(text, p.tokStart, out);
      return;
    }
    if (p.tokType !== TOK_BLANK) out.push(p.tokType, p.tokStart, p.tokLen);
    if (compactStack) p.compact();
  }
}

/**
 * Tries to read the token at `pos` (parser in state Base). Returns the position after it
 * (pushing a word/integer token, or nothing for blanks), or -1 when only the full state
 * machine can tell what comes next.
 */
function fastToken(text: string, pos: number, out: TokenBuffer): number {
  const len = text.length;
  const c = text.charCodeAt(pos);
  if (isSurrogate(c)) return -1;
  const cls = c < 128 ? ASCII[c]! : classOfUnit(c);
  if (cls & C_ALPHA) {
    out.chars[pos] = c;
    return fastWord(text, pos, (cls & C_ASCLET) !== 0, Math.imul(FNV_OFFSET ^ c, FNV_PRIME), out);
  }
  const n = pos + 1 < len ? text.charCodeAt(pos + 1) : -1;
  if (isAsciiDigit(c)) {
    out.chars[pos] = c;
    return fastUnsignedInt(text, pos, Math.imul(FNV_OFFSET ^ c, FNV_PRIME), out);
  }
  // Base-state characters that push a sub-parser: only go on if that sub-parser must fail.
  switch (c) {
    case CH_LT: // tag
      if (
        n === CH_SLASH ||
        n === CH_BANG ||
        n === CH_QUESTION ||
        n === CH_COLON ||
        n === CH_UNDERSCORE ||
        (n >= 0 && n < 128 && ASCII[n]! & C_ASCLET)
      )
        return -1;
      break;
    case CH_MINUS:
    case CH_PLUS: // signed integer
      if (isAsciiDigit(n)) return -1;
      break;
    case CH_AMP: // XML entity
      if (n === CH_HASH || n === CH_COLON || n === CH_UNDERSCORE || (n >= 0 && n < 128 && ASCII[n]! & C_ASCLET)) return -1;
      break;
    case CH_TILDE: // ~/file
      if (isAsciiAlnum(n) || n === CH_UNDERSCORE || n === CH_SLASH) return -1;
      break;
    case CH_SLASH: // /file
      if (isAsciiAlnum(n) || n === CH_DOT || n === CH_UNDERSCORE || n === CH_TILDE) return -1;
      break;
    case CH_DOT: // ./file, ../file
      if (n === CH_DOT || n === CH_SLASH) return -1;
      break;
  }
  // InSpace: swallow non-alphanumerics up to a character that may start a token.
  let i = pos + 1;
  while (i < len) {
    const d = text.charCodeAt(i);
    if (d < 128) {
      if (ASCII[d]! & C_ALNUM || d === CH_LT || d === CH_MINUS || d === CH_PLUS || d === CH_AMP || d === CH_SLASH) break;
      i++;
    } else if (isSurrogate(d)) {
      break; // let the interpreter deal with astral characters
    } else if (classOfUnit(d) & C_ALNUM) {
      break;
    } else {
      i++;
    }
  }
  return i;
}

/**
 * Fallback once the step budget is spent on a pathological text: the fast paths where they
 * decide alone, otherwise plain runs of letters or digits. Deterministic, so the same text
 * always yields the same tokens; real documents never get here.
 */
function degradedScan(text: string, from: number, out: TokenBuffer): void {
  const len = text.length;
  let pos = from;
  while (pos < len) {
    const next = fastToken(text, pos, out);
    if (next > pos) {
      pos = next;
      continue;
    }
    const cls = chars.classAt(text, pos);
    let end = pos + chars.charLenAt(text, pos);
    if (cls & (C_ALPHA | chars.C_DIGIT)) {
      const want = cls & C_ALPHA ? C_ALPHA | C_SPECIAL : chars.C_DIGIT;
      while (end < len && chars.classAt(text, end) & want) end += chars.charLenAt(text, end);
      out.push(cls & C_ALPHA ? TOK_WORD : TOK_UINT, pos, end - pos);
    }
    pos = end;
  }
}

/**
 * After a token ending at `i`: a single space followed by an ASCII letter or digit (or the
 * end) is a blank that fastToken would skip on its own; skip it here and save the call.
 */
function skipSpace(text: string, i: number): number {
  const len = text.length;
  if (i < len && text.charCodeAt(i) === 32) {
    const n = i + 1 < len ? text.charCodeAt(i + 1) : -1;
    if (n < 0 || (n < 128 && (ASCII[n]! & C_ALNUM) !== 0)) return i + 1;
  }
  return i;
}

/** InAsciiWord / InWord up to a character that ends the word for sure (`h`: FNV state after the first character). */
function fastWord(text: string, pos: number, asciiStart: boolean, h: number, out: TokenBuffer): number {
  const len = text.length;
  const chars = out.chars;
  let ascii = asciiStart;
  let i = pos + 1;
  while (i < len) {
    const d = text.charCodeAt(i);
    if (d < 128) {
      if (ASCII[d]! & C_ASCLET) {
        h = Math.imul(h ^ d, FNV_PRIME);
        chars[i++] = d;
        continue;
      }
      break;
    }
    if (isSurrogate(d)) return -1;
    if (classOfUnit(d) & (C_ALPHA | C_SPECIAL)) {
      h = Math.imul(h ^ d, FNV_PRIME);
      ascii = false;
      chars[i++] = d;
      continue;
    }
    break;
  }
  if (i < len) {
    const d = text.charCodeAt(i);
    const n = i + 1 < len ? text.charCodeAt(i + 1) : -1;
    if (isAsciiDigit(d)) return fastNumWord(text, pos, i, h, out);
    if (d === CH_MINUS) {
      const a = alnumOrUnknown(n);
      if (a !== 0) return -1; // hyphenated word (or host part)
    } else if (ascii) {
      // InAsciiWord pushes sub-parsers on these; each needs a specific next character.
      const nAlnum = isAsciiAlnum(n);
      if (d === CH_DOT && (nAlnum || n === CH_UNDERSCORE)) return -1;
      if ((d === CH_UNDERSCORE || d === CH_AT) && nAlnum) return -1;
      if (d === CH_COLON && n === CH_SLASH) return -1;
      if (d === CH_SLASH && (nAlnum || n === CH_DOT || n === CH_UNDERSCORE || n === CH_TILDE)) return -1;
    }
  }
  out.pushHashed(ascii ? TOK_ASCIIWORD : TOK_WORD, pos, i - pos, h);
  return skipSpace(text, i);
}

/**
 * A word that reached an ASCII digit at `digit`: InNumWord (after InAsciiWord's failed try at a
 * host, when the word was ASCII so far) up to the end of the letter/digit/mark run. Only
 * characters that let a host, e-mail, file path or hyphenated word go on ('.', '-', '_', '@',
 * '/', ':') after the run need the interpreter; anything else ends a plain numword.
 */
function fastNumWord(text: string, pos: number, digit: number, h: number, out: TokenBuffer): number {
  const len = text.length;
  const chars = out.chars;
  let i = digit;
  while (i < len) {
    const d = text.charCodeAt(i);
    if (d < 128) {
      if (ASCII[d]! & C_ALNUM) {
        h = Math.imul(h ^ d, FNV_PRIME);
        chars[i++] = d;
        continue;
      }
      break;
    }
    if (isSurrogate(d)) return -1;
    if (classOfUnit(d) & (C_ALPHA | C_SPECIAL)) {
      h = Math.imul(h ^ d, FNV_PRIME);
      chars[i++] = d;
      continue;
    }
    break;
  }
  if (i < len) {
    const d = text.charCodeAt(i);
    if (d === CH_DOT || d === CH_MINUS || d === CH_UNDERSCORE || d === CH_AT || d === CH_SLASH || d === CH_COLON) return -1;
  }
  out.pushHashed(TOK_NUMWORD, pos, i - pos, h);
  return skipSpace(text, i);
}

/** InUnsignedInt up to a character that ends the number for sure (`h`: FNV state after the first digit). */
function fastUnsignedInt(text: string, pos: number, h: number, out: TokenBuffer): number {
  const len = text.length;
  const chars = out.chars;
  let i = pos + 1;
  for (let d = i < len ? text.charCodeAt(i) : -1; isAsciiDigit(d); d = ++i < len ? text.charCodeAt(i) : -1) {
    h = Math.imul(h ^ d, FNV_PRIME);
    chars[i] = d;
  }
  if (i < len) {
    const d = text.charCodeAt(i);
    const n = i + 1 < len ? text.charCodeAt(i + 1) : -1;
    if (d < 128) {
      if (ASCII[d]! & C_ASCLET) return -1; // exponent, host, numword
      const nAlnum = isAsciiAlnum(n);
      if ((d === CH_DOT || d === CH_MINUS || d === CH_UNDERSCORE || d === CH_AT) && nAlnum) return -1;
      if (d === CH_SLASH && (nAlnum || n === CH_DOT || n === CH_UNDERSCORE || n === CH_TILDE)) return -1;
    } else if (isSurrogate(d) || classOfUnit(d) & (C_ALPHA | C_SPECIAL)) {
      return -1; // numword
    }
  }
  out.pushHashed(TOK_UINT, pos, i - pos, h);
  return skipSpace(text, i);
}

/** A token as ts_parse would list it (used by tests and debugging). */
export interface ParsedToken {
  type: number;
  text: string;
}

/** Convenience wrapper returning token objects (like ts_parse); not for hot paths. */
export function parseTokens(text: string, options?: ScanOptions): ParsedToken[] {
  const buf = new TokenBuffer();
  scanTokens(text, buf, options);
  const res: ParsedToken[] = [];
  for (let i = 0; i < buf.count; i++) {
    res.push({ type: buf.types[i]!, text: text.substr(buf.starts[i]!, buf.lens[i]) });
  }
  return res;
}
