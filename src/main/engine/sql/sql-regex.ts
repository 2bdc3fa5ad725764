import { RE2JS } from 're2js';
import { SqlQueryError } from './sql-errors';
import { checkTextBytes } from './sql-limits';

/**
 * PostgreSQL's regular expressions (`~`, `~*`, regexp_replace), matched by RE2 (the `re2js`
 * port): time linear in the text, whatever the pattern (LIKE has its own matcher,
 * like-match.ts). JavaScript's own
 * engine backtracks, and `regexp_replace(repeat('a', 30000), '(a*)*b', 'x')` held the SQL
 * worker for a minute, and every other SQL query behind it (issue 21). RE2 has no
 * back-references and no lookaround, which PostgreSQL has: such a pattern is refused with a
 * message that says so (docs/sql-and-values.md).
 */

const POSIX_CLASSES: Record<string, string> = {
  alpha: '\\p{L}',
  digit: '\\d',
  alnum: '\\p{L}\\p{N}',
  space: '\\s',
  upper: '\\p{Lu}',
  lower: '\\p{Ll}',
  punct: '\\p{P}',
};

const cache = new Map<string, RE2JS>();
// A query asks the same pattern row after row: the last one is kept at hand.
let last: { pattern: string; insensitive: boolean; re: RE2JS } | null = null;

function compiled(key: string, build: () => RE2JS): RE2JS {
  let re = cache.get(key);
  if (!re) {
    re = build();
    if (cache.size > 500) cache.clear();
    cache.set(key, re);
  }
  return re;
}

/**
 * A PostgreSQL (ARE) pattern: `.` matches a newline and `^`/`$` only the ends of the text, as
 * in PostgreSQL's default mode; POSIX classes as Unicode classes, as PostgreSQL's are in a
 * UTF-8 database.
 */
export function posixRegex(pattern: string, caseInsensitive: boolean): RE2JS {
  if (last?.pattern === pattern && last.insensitive === caseInsensitive) return last.re;
  const re = compiled(`${caseInsensitive ? 'i' : 's'}~${pattern}`, () => {
    const source = pattern.replace(/\[:(alpha|digit|alnum|space|upper|lower|punct):\]/g, (_, cls: string) => POSIX_CLASSES[cls]!);
    try {
      return RE2JS.compile(source, RE2JS.DOTALL | (caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0));
    } catch {
      const why = /\\[1-9]|\(\?<?[=!]/.test(pattern) ? ' (back-references and lookaround are not supported by Deskstore)' : '';
      throw new SqlQueryError(`invalid regular expression: ${pattern}${why}`);
    }
  });
  last = { pattern, insensitive: caseInsensitive, re };
  return re;
}

/** One piece of a regexp_replace replacement: text, a group (`\1`–`\9`), or the whole match (`\&`). */
type Piece = string | number;

/** PostgreSQL's replacement text: `\n` a group, `\&` the whole match, `\\` a backslash, any other `\` as written. */
function replacementPieces(replacement: string): Piece[] {
  const pieces: Piece[] = [];
  let literal = '';
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i]!;
    const next = replacement[i + 1];
    if (c !== '\\' || next === undefined) {
      literal += c;
      continue;
    }
    if (/[1-9&]/.test(next)) {
      if (literal) pieces.push(literal);
      literal = '';
      pieces.push(next === '&' ? 0 : Number(next));
      i++;
    } else if (next === '\\') {
      literal += '\\';
      i++;
    } else {
      literal += c;
    }
  }
  if (literal) pieces.push(literal);
  return pieces;
}

/**
 * regexp_replace: the first match, or every one (`global`), replaced. The result's size is
 * counted as it is built and the call fails as soon as it passes the limit (sql-limits.ts).
 */
export function regexReplace(text: string, re: RE2JS, replacement: string, global: boolean): string {
  const pieces = replacementPieces(replacement);
  const matcher = re.matcher(text);
  const groups = matcher.groupCount();
  const out: string[] = [];
  let size = 0;
  let from = 0;
  const add = (s: string) => {
    size += s.length;
    checkTextBytes(size); // at least a byte per UTF-16 unit; the exact bytes are checked on the result
    out.push(s);
  };
  while (matcher.find()) {
    add(text.slice(from, matcher.start()));
    for (const piece of pieces) {
      if (typeof piece === 'string') add(piece);
      else if (piece <= groups) add(matcher.group(piece) ?? '');
    }
    from = matcher.end();
    if (!global) break;
  }
  if (from === 0 && out.length === 0) return text;
  add(text.slice(from));
  return out.join('');
}
