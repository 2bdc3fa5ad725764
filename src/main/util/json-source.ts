/**
 * The source text of JSON values inside a larger JSON text, without decoding them: where a
 * value ends, the items of an array, the members of an object. A portal's records are read
 * this way (portal/raw-records.ts, importer/json-dump-reader.ts) so that a number keeps the
 * text the portal wrote (`310.00`, `0.00000025`, `9223372036854775807`) and a JSON cell the
 * exact text stored, instead of passing through a JavaScript number.
 */

const QUOTE = 34;
const BACKSLASH = 92;

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

export function skipSpace(text: string, at: number): number {
  while (at < text.length && isSpace(text.charCodeAt(at))) at++;
  return at;
}

/** Index just past the JSON value that starts at `at` (a valid text assumed; errors are the decoder's). */
export function valueEnd(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === QUOTE) return stringEnd(text, at);
  if (first !== 91 && first !== 123) {
    // A number or a literal: up to the next delimiter.
    let i = at;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 44 || c === 93 || c === 125 || isSpace(c)) break;
      i++;
    }
    return i;
  }
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(text, i) - 1;
    else if (c === 91 || c === 123) depth++;
    else if (c === 93 || c === 125) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  throw new SyntaxError('JSON ended inside a value');
}

function stringEnd(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i + 1;
  }
  throw new SyntaxError('JSON ended inside a string');
}

/** [start, end) of each item of the array whose `[` is at `at`; and where the array ends. */
export function arrayItems(text: string, at: number): { items: [number, number][]; end: number } {
  if (text.charCodeAt(at) !== 91) throw new SyntaxError('expected a JSON array');
  const items: [number, number][] = [];
  let i = skipSpace(text, at + 1);
  if (text.charCodeAt(i) === 93) return { items, end: i + 1 };
  for (;;) {
    const end = valueEnd(text, i);
    items.push([i, end]);
    i = skipSpace(text, end);
    const c = text.charCodeAt(i);
    if (c === 93) return { items, end: i + 1 };
    if (c !== 44) throw new SyntaxError('expected , or ] in a JSON array');
    i = skipSpace(text, i + 1);
  }
}

/** Each member of the object whose `{` is at `at`: its key (decoded) and its value's [start, end). */
export function objectMembers(text: string, at: number): { members: [string, number, number][]; end: number } {
  if (text.charCodeAt(at) !== 123) throw new SyntaxError('expected a JSON object');
  const members: [string, number, number][] = [];
  let i = skipSpace(text, at + 1);
  if (text.charCodeAt(i) === 125) return { members, end: i + 1 };
  for (;;) {
    const keyEnd = stringEnd(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipSpace(text, keyEnd);
    if (text.charCodeAt(i) !== 58) throw new SyntaxError('expected : in a JSON object');
    i = skipSpace(text, i + 1);
    const end = valueEnd(text, i);
    members.push([key, i, end]);
    i = skipSpace(text, end);
    const c = text.charCodeAt(i);
    if (c === 125) return { members, end: i + 1 };
    if (c !== 44) throw new SyntaxError('expected , or } in a JSON object');
    i = skipSpace(text, i + 1);
  }
}
