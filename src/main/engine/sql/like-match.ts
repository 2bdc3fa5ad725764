/**
 * PostgreSQL's LIKE and ILIKE without a regular expression (issue 21): `%` any run of
 * characters, `_` one character (a code point), `\` escapes the next. The pattern is cut at
 * its `%`s into fixed-length pieces, and each piece is found at its leftmost place after the
 * one before: for such patterns the leftmost place is always right, so matching is one pass
 * with no backtracking, whatever the pattern (`%a%a%a%a%b` on 30,000 a's backtracked for
 * ever in JavaScript's engine). ILIKE lower-cases both sides first, as PostgreSQL does for
 * UTF-8 text (`lower()` on pattern and text).
 */
interface LikePattern {
  /** The pieces between `%`s; in each, null stands for `_`. */
  readonly pieces: readonly (readonly (string | null)[])[];
  /** The same pieces as plain text when they have no `_` (searched with indexOf). */
  readonly plain: readonly (string | null)[];
  readonly anchoredStart: boolean;
  readonly anchoredEnd: boolean;
  readonly insensitive: boolean;
}

function compile(pattern: string, insensitive: boolean): LikePattern {
  const source = insensitive ? pattern.toLowerCase() : pattern;
  const pieces: (string | null)[][] = [[]];
  let percentLast = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    const piece = pieces[pieces.length - 1]!;
    percentLast = c === '%';
    if (c === '\\' && i + 1 < source.length) piece.push(source[++i]!);
    else if (c === '%') pieces.push([]);
    else if (c === '_') piece.push(null);
    else piece.push(c);
  }
  return {
    pieces,
    plain: pieces.map((p) => (p.includes(null) ? null : p.join(''))),
    anchoredStart: !source.startsWith('%'),
    anchoredEnd: !percentLast,
    insensitive,
  };
}

const isHigh = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** Where `piece` ends if it matches `text` at `at` (UTF-16 index), or -1. */
function matchAt(text: string, at: number, piece: readonly (string | null)[]): number {
  let i = at;
  for (const unit of piece) {
    if (i >= text.length) return -1;
    if (unit === null) {
      i += isHigh(text.charCodeAt(i)) && i + 1 < text.length ? 2 : 1; // `_`: one code point
    } else {
      if (text[i] !== unit) return -1;
      i++;
    }
  }
  return i;
}

/** The leftmost place at or after `from` where `piece` matches: [start, end], or null. */
function find(text: string, from: number, piece: readonly (string | null)[], plain: string | null): [number, number] | null {
  if (plain !== null) {
    const at = text.indexOf(plain, from);
    return at < 0 ? null : [at, at + plain.length];
  }
  for (let at = from; at <= text.length; at++) {
    const end = matchAt(text, at, piece);
    if (end >= 0) return [at, end];
  }
  return null;
}

/**
 * Whether the last piece can end exactly at the end of `text`, starting at or after `from`.
 * Its characters are fixed in number, so walking back over them from the end finds the one
 * place it can start.
 */
function matchesEnd(text: string, from: number, piece: readonly (string | null)[], plain: string | null): boolean {
  if (plain !== null) return text.length - plain.length >= from && text.endsWith(plain);
  let at = text.length;
  for (let k = piece.length - 1; k >= 0; k--) {
    at -= piece[k] === null && at >= 2 && isLow(text.charCodeAt(at - 1)) && isHigh(text.charCodeAt(at - 2)) ? 2 : 1;
  }
  return at >= from && matchAt(text, at, piece) === text.length;
}

function matches(p: LikePattern, value: string): boolean {
  const text = p.insensitive ? value.toLowerCase() : value;
  const { pieces, plain } = p;
  if (pieces.length === 1) return plain[0] !== null ? text === plain[0] : matchAt(text, 0, pieces[0]!) === text.length;
  let at = 0;
  const last = pieces.length - 1;
  for (let k = 0; k <= last; k++) {
    const piece = pieces[k]!;
    if (k === 0 && p.anchoredStart) {
      const start = plain[0]!;
      at = start !== null ? (text.startsWith(start) ? start.length : -1) : matchAt(text, 0, piece);
      if (at < 0) return false;
      continue;
    }
    if (k === last && p.anchoredEnd) return matchesEnd(text, at, piece, plain[k]!);
    const found = find(text, at, piece, plain[k]!);
    if (!found) return false;
    at = found[1];
  }
  return true;
}

// A query asks the same pattern row after row: the last one is kept at hand, others in a map.
let last: { pattern: string; compiled: LikePattern } | null = null;
const cache = new Map<string, LikePattern>();

/** Whether `value` is LIKE (or, `insensitive`, ILIKE) `pattern`. */
export function likeMatches(value: string, pattern: string, insensitive: boolean): boolean {
  if (last === null || last.pattern !== pattern || last.compiled.insensitive !== insensitive) {
    const key = `${insensitive ? 'i' : 's'}${pattern}`;
    let compiled = cache.get(key);
    if (!compiled) {
      compiled = compile(pattern, insensitive);
      if (cache.size > 500) cache.clear();
      cache.set(key, compiled);
    }
    last = { pattern, compiled };
  }
  return matches(last.compiled, value);
}
