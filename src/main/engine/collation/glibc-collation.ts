import { brotliDecompressSync } from 'node:zlib';
import { GLIBC_TABLE_BASE64 } from './glibc-table';

/**
 * Text order as PostgreSQL gives it on a database created with glibc's `en_US.UTF-8` locale,
 * which is what CKAN sites run: PostgreSQL compares text with glibc's strcoll(), and breaks a
 * tie between different strings with strcmp() (varstr_cmp). This module reproduces strcoll()
 * from glibc's own table (glibc-table.ts, built by scripts/collation/build-glibc-collation.mjs
 * from the locale sources of glibc 2.28+, which all share ISO 14651_t1) as a **sort key**: a
 * string whose plain code-unit order is that order. A key and not a comparator, because the
 * column store ranks a dictionary once per key, SQLite (sql.js has no collation hook) sorts by
 * a function's result, and Intl.Collator (ICU) is a different algorithm with no keys (measured
 * in docs/sql-and-values.md, "Text order").
 *
 * What strcoll() does, and the key with it, level by level (docs/sql-and-values.md):
 * 1. base letters (`a` = `á` = `A`; `æ` = `ae`, `ß` = `ss`, `ø` = `o`, `ł` = `l`); spaces and
 *    punctuation are ignored here and at the next two levels;
 * 2. accents (`ábc` before `àbc`); in the first section of the table (digits, symbols,
 *    punctuation, and characters the table does not define) this level runs backward, with
 *    glibc's own way of walking such runs (get_next_seq, reproduced below: it skips an element
 *    of a run of two or more that is followed by a forward one);
 * 3. case and variants (`abc` before `Abc` before `ABC`);
 * 4. every character itself, in table order, each with its position among ignored ones
 *    (`forward,position`): here punctuation finally counts.
 * Characters the table does not define (Hangul, CJK extensions, unassigned code points) are
 * ignored but for level 4, where each of their UTF-8 bytes counts as U+0001 (see UNDEFINED_AS).
 * Then PostgreSQL's strcmp() tie-break, needed only when a string holds such a character (they
 * are all equal to strcoll) or one of the few elements that share all four levels with another
 * (`l·` and `ŀ`).
 *
 * Key layout: per level the codes of the weights (rank + 2, one UTF-16 unit each, all below the
 * surrogates so SQLite's byte order and JavaScript's unit order agree), then LEVEL_END. At the
 * fourth level each element also says how many ignored elements precede it (SKIP codes, which
 * sort above every weight: further along = greater, as strcoll's `val`) and marks every weight
 * after its first with MORE (above SKIP: an element with more weights is greater).
 */

const LEVELS = 4;
const LEVEL_END = 1;
const POSITION_LEVEL = 3;
const CODE_BASE = 2;
const SKIP = 0xb001;
const MORE = 0xb002;
const TIE_BREAK_BASE = 3;
const NONE = -1;
/**
 * A character the table does not define is read one UTF-8 byte at a time, and each byte gets
 * the weights stored first in glibc's compiled table, which are U+0001's (ld-collate's
 * `output_weight` writes nothing for UNDEFINED and answers offset 0; the ruleset is "the
 * first", <SPECIAL>'s): ignored at levels 1-3, U+0001's place at level 4.
 */
const UNDEFINED_AS = 0x0001;

interface CollationTable {
  /** BMP code point → entry of that single character, or NONE. */
  readonly bmp: Int32Array;
  readonly astral: Map<number, number>;
  /** first code point → contractions starting with it, longest first. */
  readonly contractions: Map<number, { readonly rest: readonly number[]; readonly entry: number }[]>;
  readonly startsContraction: Uint8Array;
  /** per entry: backward bits per level (bit n = level n+1), and whether it needs the tie-break. */
  readonly backward: Uint8Array;
  /** per entry: bit n set when it is forward at level n+1 and has no weight there. */
  readonly forwardIgnored: Uint8Array;
  readonly tieBreak: Uint8Array;
  /** per entry and level: where its weights start in `weights`, and how many. */
  readonly start: Uint32Array;
  readonly count: Uint8Array;
  /** per entry and level: the one weight's code when there is exactly one, 0 for none, -1 for several. */
  readonly single: Int32Array;
  readonly weights: Uint32Array;
  /** The entry every byte of an undefined character reads as. */
  readonly undefinedEntry: number;
}

let table: CollationTable | null = null;

/**
 * The table's format (varints; zig-zag where a number may step down): version, level count,
 * per level the number of ranks, the ruleset count and each ruleset's backward bits, the entry
 * count, then per entry (sorted by first code point): code point count, first code point minus
 * the previous entry's, the other code points, flags (ruleset | 0x10 for the tie-break), and per
 * level the weight count and each weight as a zig-zag step from the previous one.
 */
function loadTable(): CollationTable {
  const bytes = brotliDecompressSync(Buffer.from(GLIBC_TABLE_BASE64, 'base64'));
  let at = 0;
  const varint = (): number => {
    let n = 0;
    let scale = 1;
    for (;;) {
      const b = bytes[at++]!;
      n += (b & 0x7f) * scale;
      if (b < 0x80) return n;
      scale *= 128;
    }
  };
  const zigzag = (): number => {
    const z = varint();
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  };
  if (varint() !== 1 || varint() !== LEVELS) throw new Error('collation table: unknown format');
  for (let level = 0; level < LEVELS; level++) varint(); // ranks per level: informative
  const rulesets = Array.from({ length: varint() }, varint);
  // collationPrimaryKey reads level 1 forward; glibc's table never runs it backward.
  if (rulesets.some((bits) => bits & 1)) throw new Error('collation table: level 1 runs backward');
  const entries = varint();
  const bmp = new Int32Array(0x10000).fill(NONE);
  const astral = new Map<number, number>();
  const contractions = new Map<number, { rest: number[]; entry: number }[]>();
  const backward = new Uint8Array(entries);
  const forwardIgnored = new Uint8Array(entries);
  const tieBreak = new Uint8Array(entries);
  const start = new Uint32Array(entries * LEVELS);
  const count = new Uint8Array(entries * LEVELS);
  const single = new Int32Array(entries * LEVELS);
  const weights: number[] = [];
  let first = 0;
  for (let e = 0; e < entries; e++) {
    const length = varint();
    first += varint();
    const rest = Array.from({ length: length - 1 }, varint);
    const flags = varint();
    backward[e] = rulesets[flags & 0x0f]!;
    tieBreak[e] = flags & 0x10 ? 1 : 0;
    for (let level = 0; level < LEVELS; level++) {
      const n = varint();
      start[e * LEVELS + level] = weights.length;
      count[e * LEVELS + level] = n;
      let previous = 0;
      for (let i = 0; i < n; i++) weights.push((previous += zigzag()));
      single[e * LEVELS + level] = n === 0 ? 0 : n === 1 ? previous + CODE_BASE : -1;
      if (n === 0 && !(backward[e]! & (1 << level))) forwardIgnored[e] = forwardIgnored[e]! | (1 << level);
    }
    if (rest.length > 0) {
      const list = contractions.get(first) ?? [];
      list.push({ rest, entry: e });
      contractions.set(first, list);
    } else if (first < 0x10000) bmp[first] = e;
    else astral.set(first, e);
  }
  const startsContraction = new Uint8Array(0x10000);
  for (const [first, list] of contractions) {
    list.sort((a, b) => b.rest.length - a.rest.length);
    if (first < 0x10000) startsContraction[first] = 1;
  }
  return {
    bmp,
    astral,
    contractions,
    startsContraction,
    backward,
    forwardIgnored,
    tieBreak,
    start,
    count,
    single,
    weights: Uint32Array.from(weights),
    undefinedEntry: bmp[UNDEFINED_AS]!,
  };
}

const utf8Length = (cp: number): number => (cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4);

/** Per-call scratch space (keys are built one at a time, synchronously). */
let elements = new Int32Array(256);
let count = 0;
let needsTieBreak = false;
/** OR of the backward bits of the string's elements: a level no element runs backward at takes the plain path. */
let backwardLevels = 0;
/** Levels at which some forward element of the string has no weight (the Han range at levels 2-4). */
let forwardIgnoredLevels = 0;
/** The key's UTF-16 units (a plain array: String.fromCharCode.apply reads it fastest). */
const out: number[] = [];

function pushElement(entry: number, t: CollationTable): void {
  if (count === elements.length) {
    const grown = new Int32Array(elements.length * 2);
    grown.set(elements);
    elements = grown;
  }
  elements[count++] = entry;
  backwardLevels |= t.backward[entry]!;
  forwardIgnoredLevels |= t.forwardIgnored[entry]!;
}

function emit(code: number): void {
  out.push(code);
}

/** The string as glibc's collation elements (entry numbers), longest contraction first. */
function readElements(t: CollationTable, text: string): void {
  count = 0;
  needsTieBreak = false;
  backwardLevels = 0;
  forwardIgnoredLevels = 0;
  for (let i = 0; i < text.length;) {
    let cp = text.charCodeAt(i);
    let width = 1;
    if (cp >= 0xd800 && cp <= 0xdfff) {
      const full = text.codePointAt(i)!;
      if (full > 0xffff) {
        cp = full;
        width = 2;
      } else cp = 0xfffd; // a lone surrogate: PostgreSQL would not hold it
    }
    let entry = NONE;
    if (cp < 0x10000 ? t.startsContraction[cp] : t.contractions.has(cp)) {
      for (const c of t.contractions.get(cp)!) {
        let j = i + width;
        let k = 0;
        for (; k < c.rest.length; k++) {
          const next = text.codePointAt(j);
          if (next === undefined || next !== c.rest[k]) break;
          j += next > 0xffff ? 2 : 1;
        }
        if (k === c.rest.length) {
          entry = c.entry;
          width = j - i;
          break;
        }
      }
    }
    if (entry === NONE) entry = cp < 0x10000 ? t.bmp[cp]! : (t.astral.get(cp) ?? NONE);
    if (entry === NONE) {
      for (let b = utf8Length(cp); b > 0; b--) pushElement(t.undefinedEntry, t);
      needsTieBreak = true;
    } else {
      pushElement(entry, t);
      if (t.tieBreak[entry] || entry === t.undefinedEntry) needsTieBreak = true;
    }
    i += width;
  }
}

/** An element's weights at a level; at the position level with its SKIPs before and MOREs between. */
function emitElement(t: CollationTable, element: number, level: number, val: number): void {
  const slot = element * LEVELS + level;
  const one = t.single[slot]!;
  if (one > 0 && val === 1) {
    out.push(one);
    return;
  }
  const from = t.start[slot]!;
  const n = t.count[slot]!;
  if (level === POSITION_LEVEL) {
    for (let i = 1; i < val; i++) emit(SKIP);
    for (let i = 0; i < n; i++) {
      if (i > 0) emit(MORE);
      emit(t.weights[from + i]! + CODE_BASE);
    }
  } else for (let i = 0; i < n; i++) emit(t.weights[from + i]! + CODE_BASE);
}

/** A level where no element runs backward: every element in order, counting the ignored ones. */
function emitForward(t: CollationTable, level: number): void {
  const single = t.single;
  let val = 0;
  for (let i = 0; i < count; i++) {
    const element = elements[i]!;
    const one = single[element * LEVELS + level]!;
    val++;
    if (one === 0) continue;
    if (one > 0 && val === 1) out.push(one);
    else emitElement(t, element, level, val);
    val = 0;
  }
}

/**
 * A level where some elements run backward and every forward one has weights, as glibc's
 * get_next_seq() (below) visits it, which comes down to: each maximal run of backward elements
 * in reverse, except that of a run of two or more followed by a forward element the element
 * before the last is never visited (`11a` sorts before `1-1a` on PostgreSQL); then that forward
 * element. `val` does not matter: this is never the position level.
 */
function emitRuns(t: CollationTable, level: number): void {
  const bit = 1 << level;
  for (let i = 0; i < count;) {
    if ((t.backward[elements[i]!]! & bit) === 0) {
      emitElement(t, elements[i]!, level, 1);
      i++;
      continue;
    }
    let end = i;
    while (end < count && t.backward[elements[end]!]! & bit) end++;
    const skipped = end < count ? end - 2 : NONE;
    for (let r = end - 1; r >= i; r--) if (r !== skipped) emitElement(t, elements[r]!, level, 1);
    i = end;
  }
}

/**
 * A level where some elements run backward, in the order glibc's strcoll() visits it:
 * get_next_seq() of string/strcoll_l.c, transcribed with its state (the run of backward
 * elements is re-read from `back_us`, which is where the call began; idxmax only grows), so
 * its quirks come along: of a run of two or more backward elements followed by a forward one,
 * the element before the last is never visited (`11a` sorts before `1-1a`, as on PostgreSQL).
 * `val` counts the elements since the previous one with weights, ignored ones included.
 */
function emitWalked(t: CollationTable, level: number): void {
  const bit = 1 << level;
  let seqUs = 0;
  let us: number;
  let backUs = 0;
  let idxmax = 0;
  let idxcnt = 0;
  let backw = NONE;
  let backwStop = NONE;
  let idx = NONE;
  let saveIdx = NONE;
  for (;;) {
    let val = 0;
    let len = 0;
    us = seqUs;
    while (len === 0) {
      val++;
      if (backwStop !== NONE) {
        if (backw === backwStop) {
          if (idxcnt < idxmax) {
            idx = saveIdx;
            backwStop = NONE;
          } else return;
        } else {
          let i = backwStop;
          let u = backUs;
          while (i < backw) {
            idx = u++;
            i++;
          }
          backw--;
          us = seqUs;
        }
      } else {
        backwStop = idxmax;
        let prevIdx = idx;
        while (us < count) {
          const at = us++;
          prevIdx = idx;
          idx = at;
          idxcnt = idxmax++;
          if ((t.backward[elements[at]!]! & bit) === 0) break;
          ++idxcnt;
        }
        if (backwStop >= idxcnt) {
          if (idxcnt === idxmax || backwStop > idxcnt) return;
          backwStop = NONE;
        } else {
          backUs = seqUs;
          seqUs = us;
          backw = idxcnt;
          if (idxmax > idxcnt) {
            backw--;
            saveIdx = idx;
            idx = prevIdx;
          }
          if (backw > backwStop) backw--;
        }
      }
      len = idx === NONE ? 0 : t.count[elements[idx]! * LEVELS + level]!;
    }
    seqUs = us;
    emitElement(t, elements[idx]!, level, val);
  }
}

/** A code point as one or two units, in code point order (UTF-8's strcmp), none a surrogate. */
function emitCodePoint(cp: number): void {
  const v = cp + TIE_BREAK_BASE;
  if (v < 0xc000) emit(v);
  else {
    emit(0xc000 + ((v - 0xc000) >> 12));
    emit(0x1000 + ((v - 0xc000) & 0xfff));
  }
}

function keyText(): string {
  if (out.length <= 4096) return String.fromCharCode.apply(null, out);
  let text = '';
  for (let from = 0; from < out.length; from += 4096) text += String.fromCharCode.apply(null, out.slice(from, from + 4096));
  return text;
}

/** The sort key of `text`: keys compare (as plain strings) as PostgreSQL orders the texts. */
export function collationKey(text: string): string {
  const t = (table ??= loadTable());
  readElements(t, text);
  out.length = 0;
  for (let level = 0; level < LEVELS; level++) {
    if (!(backwardLevels & (1 << level))) emitForward(t, level);
    else if (level === POSITION_LEVEL || forwardIgnoredLevels & (1 << level)) emitWalked(t, level);
    else emitRuns(t, level);
    emit(LEVEL_END);
  }
  if (needsTieBreak)
    for (let i = 0; i < text.length;) {
      const cp = text.codePointAt(i)!;
      emitCodePoint(cp);
      i += cp > 0xffff ? 2 : 1;
    }
  return keyText();
}

/**
 * The first level of the key alone: base letters, without accents, case or punctuation. Equal
 * primary keys may still differ; different ones compare as the full keys do (a full key starts
 * with this), so a sort by primary keys needs full keys only to order a run of equal ones.
 */
export function collationPrimaryKey(text: string): string {
  const t = (table ??= loadTable());
  readElements(t, text);
  out.length = 0;
  emitForward(t, 0);
  return keyText();
}

/** Compares two texts as PostgreSQL does (en_US.UTF-8). Prefer keys when sorting many. */
export function compareCollated(a: string, b: string): number {
  if (a === b) return 0;
  const x = collationKey(a);
  const y = collationKey(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
