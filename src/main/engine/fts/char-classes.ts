// Character classes of PostgreSQL's default text-search parser (wparser_def.c), as seen from
// a UTF-8 database with a glibc locale such as en_US.UTF-8 (the normal CKAN set-up):
//   p_isalpha  -> iswalpha: Unicode "Alphabetic" plus non-ASCII decimal digits (glibc files
//                 every digit outside 0-9 under "alpha", because C requires isdigit = 0-9 only)
//   p_isdigit  -> ASCII 0-9 only
//   p_isspecial-> zero display width (pg_dsplen == 0: non-spacing/enclosing marks, format
//                 characters other than U+00AD) or a spacing combining mark (PostgreSQL keeps
//                 a table of those; we take the whole Mc category)
//   p_isspace  -> glibc iswspace (no-break spaces are NOT spaces)
// The classes are bit flags so a single table lookup answers every test.

export const C_ALPHA = 1;
export const C_DIGIT = 2;
export const C_SPACE = 4;
export const C_SPECIAL = 8;
export const C_ASCLET = 16;
export const C_XDIGIT = 32;
export const C_URLCHAR = 64;
const C_COMPUTED = 128;

export const C_ALNUM = C_ALPHA | C_DIGIT;

// One byte per BMP code unit, filled lazily: computing all 65 536 classes with Unicode regexes
// at start-up would cost ~30 ms for characters most documents never contain.
const bmpTable = new Uint8Array(65536);
const astralCache = new Map<number, number>();

const ALPHA_RE = /^[\p{Alphabetic}\p{Nd}]$/u;
const SPECIAL_RE = /^[\p{Mn}\p{Me}\p{Mc}\p{Cf}]$/u;
// glibc's "space" class beyond ASCII (U+00A0, U+2007 and U+202F are deliberately absent).
const UNICODE_SPACES = new Set([
  0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x205f, 0x3000,
]);

function initAscii(): void {
  for (let c = 0; c < 128; c++) {
    let cls = C_COMPUTED;
    const isUpper = c >= 65 && c <= 90;
    const isLower = c >= 97 && c <= 122;
    if (isUpper || isLower) cls |= C_ALPHA | C_ASCLET;
    if (c >= 48 && c <= 57) cls |= C_DIGIT;
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)) cls |= C_XDIGIT;
    if (c === 32 || (c >= 9 && c <= 13)) cls |= C_SPACE;
    // p_isurlchar: printable ASCII minus the characters RFC 3986 forbids.
    if (c > 0x20 && c < 0x7f && '"<>\\^`{|}'.indexOf(String.fromCharCode(c)) < 0) cls |= C_URLCHAR;
    bmpTable[c] = cls;
  }
}
initAscii();

function computeClass(codePoint: number): number {
  const ch = String.fromCodePoint(codePoint);
  let cls = C_COMPUTED;
  if (ALPHA_RE.test(ch)) cls |= C_ALPHA;
  // U+00AD SOFT HYPHEN has display width 1 in PostgreSQL's wcwidth, so it is not "special".
  if (codePoint !== 0xad && SPECIAL_RE.test(ch)) cls |= C_SPECIAL;
  if (UNICODE_SPACES.has(codePoint)) cls |= C_SPACE;
  return cls;
}

/** Class of a non-surrogate BMP code unit. */
export function classOfUnit(c: number): number {
  const cls = bmpTable[c]!;
  if (cls !== 0) return cls & ~C_COMPUTED;
  // Lone surrogates get no class at all (they can never be part of a token).
  const computed = c >= 0xd800 && c <= 0xdfff ? C_COMPUTED : computeClass(c);
  bmpTable[c] = computed;
  return computed & ~C_COMPUTED;
}

/** Class of the character starting at `i` (a surrogate pair counts as one character). */
export function classAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return bmpTable[c]! & ~C_COMPUTED;
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) {
      const cp = (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
      let cls = astralCache.get(cp);
      if (cls === undefined) {
        cls = computeClass(cp) & ~C_COMPUTED;
        if (astralCache.size < 4096) astralCache.set(cp, cls);
      }
      return cls;
    }
  }
  return classOfUnit(c);
}

/** Length in UTF-16 code units of the character starting at `i`. */
export function charLenAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return 2;
  }
  return 1;
}

/** UTF-8 byte length of text[start, end) — PostgreSQL's length limits are in bytes. */
export function utf8Length(text: string, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}
