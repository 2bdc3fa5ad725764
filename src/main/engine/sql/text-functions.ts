import { checkTextBytes, SQL_TEXT_MAX_BYTES, textTooLong } from './sql-limits';

/**
 * PostgreSQL's text functions that Deskstore computes in JS (runtime-functions.ts), written so
 * that none of them allocates more than the limit of sql-limits.ts, whatever its input: the
 * result's size is known or counted before it is built, and no function makes an array with
 * one element per character of a text that can be hundreds of megabytes long (a cell, or a
 * value SQLite built). Lengths are in characters (code points), as PostgreSQL counts them.
 */

/**
 * Pieces joined into one text, with the size checked as they come: at least one UTF-8 byte per
 * UTF-16 unit, so passing the limit in units is passing it in bytes (the exact bytes of the
 * result are checked where it is handed back to SQLite). Joined in groups, so that a text of
 * millions of small pieces never needs an array of millions.
 */
export class TextBuilder {
  private readonly pieces: string[] = [];
  private flat = '';
  private units = 0;

  add(piece: string): void {
    if (!piece) return;
    this.units += piece.length;
    checkTextBytes(this.units);
    this.pieces.push(piece);
    if (this.pieces.length >= 4096) this.flatten();
  }

  text(): string {
    this.flatten();
    return this.flat;
  }

  private flatten(): void {
    this.flat += this.pieces.join('');
    this.pieces.length = 0;
  }
}

const isHigh = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** Where the character after the first `n` characters of `s` starts (UTF-16 index), or s.length. */
function offsetOf(s: string, n: number): number {
  let i = 0;
  for (let k = 0; k < n && i < s.length; k++) i += isHigh(s.charCodeAt(i)) && isLow(s.charCodeAt(i + 1)) ? 2 : 1;
  return i;
}

/** Characters (code points) in `s`. */
export function charCount(s: string): number {
  let pairs = 0;
  for (let i = 0; i < s.length - 1; i++) {
    if (isHigh(s.charCodeAt(i)) && isLow(s.charCodeAt(i + 1))) {
      pairs++;
      i++;
    }
  }
  return s.length - pairs;
}

/** lpad / rpad: cut to `n` characters, or filled with `fill` (repeated) on the left or the right. */
export function pad(s: string, n: number, fill: string, left: boolean): string {
  if (n <= 0) return '';
  // Every character is at least a byte: the size is refused before anything is built.
  if (n > SQL_TEXT_MAX_BYTES) throw textTooLong();
  const have = charCount(s);
  if (n <= have) return s.slice(0, offsetOf(s, n));
  const fillChars = charCount(fill);
  if (fillChars === 0) return s;
  const missing = n - have;
  const copies = Math.floor(missing / fillChars);
  const rest = fill.slice(0, offsetOf(fill, missing % fillChars));
  checkTextBytes(s.length + copies * fill.length + rest.length);
  const padding = fill.repeat(copies) + rest;
  return left ? padding + s : s + padding;
}

/** repeat: `n` copies of `s`; the size is refused before anything is built. */
export function repeat(s: string, n: number): string {
  if (!(n > 0) || s === '') return '';
  checkTextBytes(s.length * Math.floor(n));
  return s.repeat(Math.floor(n));
}

/** replace: every occurrence of `from` (none when it is empty, as PostgreSQL) replaced by `to`. */
export function replace(s: string, from: string, to: string): string {
  if (from === '') return s;
  let at = s.indexOf(from);
  if (at < 0) return s;
  const out = new TextBuilder();
  let start = 0;
  for (; at >= 0; at = s.indexOf(from, start)) {
    out.add(s.slice(start, at));
    out.add(to);
    start = at + from.length;
  }
  out.add(s.slice(start));
  return out.text();
}

/** translate: each character of `from` found in `s` becomes the one at the same place in `to`, or goes. */
export function translate(s: string, from: string, to: string): string {
  const map = new Map<string, string>();
  const targets = to[Symbol.iterator]();
  for (const c of from) {
    const target = targets.next();
    if (!map.has(c)) map.set(c, target.done ? '' : target.value);
  }
  const out = new TextBuilder();
  let run = 0; // start of the characters copied unchanged since the last mapped one
  for (let at = 0; at < s.length;) {
    const width = isHigh(s.charCodeAt(at)) && isLow(s.charCodeAt(at + 1)) ? 2 : 1;
    const mapped = map.get(s.slice(at, at + width));
    if (mapped !== undefined) {
      out.add(s.slice(run, at));
      out.add(mapped);
      run = at + width;
    }
    at += width;
  }
  out.add(s.slice(run));
  return out.text();
}

/** reverse, by characters (a surrogate pair stays whole). */
export function reverse(s: string): string {
  if (s.length > SQL_TEXT_MAX_BYTES) throw textTooLong();
  return Array.from(s).reverse().join('');
}

/** left: the first `n` characters; all but the last `-n` when `n` is negative. */
export function left(s: string, n: number): string {
  return s.slice(0, offsetOf(s, n >= 0 ? n : Math.max(charCount(s) + n, 0)));
}

/** right: the last `n` characters; all but the first `-n` when `n` is negative. */
export function right(s: string, n: number): string {
  return s.slice(offsetOf(s, n >= 0 ? Math.max(charCount(s) - n, 0) : -n));
}

/** split_part: the `n`th field of `s` split at `d` (from the end when negative; PostgreSQL 14). */
export function splitPart(s: string, d: string, n: number): string {
  if (d === '') return n === 1 || n === -1 ? s : '';
  let fields = 1;
  if (n < 0) {
    for (let at = s.indexOf(d); at >= 0; at = s.indexOf(d, at + d.length)) fields++;
    n = fields + n + 1;
    if (n < 1) return '';
  }
  let start = 0;
  for (let k = 1; k < n; k++) {
    const at = s.indexOf(d, start);
    if (at < 0) return '';
    start = at + d.length;
  }
  const end = s.indexOf(d, start);
  return s.slice(start, end < 0 ? s.length : end);
}

/** Texts joined with `separator`; the size is refused before they are joined. */
export function joinChecked(values: readonly string[], separator: string): string {
  let units = separator.length * Math.max(values.length - 1, 0);
  for (const v of values) units += v.length;
  checkTextBytes(units);
  return values.join(separator);
}

/** A function whose result is at least as long as its input (upper, lower, initcap, …): refused before it runs. */
export function notLongerThanLimit(s: string): string {
  if (s.length > SQL_TEXT_MAX_BYTES) throw textTooLong();
  return s;
}
