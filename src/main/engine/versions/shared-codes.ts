import type { Column } from '../column-store/column';
import type { StoredValue } from '../values/coerce';

/**
 * One column of two versions of a resource, its values renumbered into one code space: equal
 * values get the same code in both versions, different values different codes, NULL 0. Each
 * version's dictionary is walked once (not each row): a million rows then compare as integers.
 *
 * Equality is the stored value's: a numeric keeps its scale (`2.50` is text, `2.5` a number,
 * values/exact-number.ts), int8 past 2^53 its digits, timestamps and texts their exact text
 * (an accent is a different string), a number never equals a text, so what compares equal
 * here is what the API returns identically. A column missing from one version is NULL in
 * every row there.
 *
 * Dictionaries read from columns files are compared in their file form, without making a
 * million strings: text by its UTF-8 bytes, numbers by their doubles, each through a hash table
 * on typed arrays (a JavaScript Map of a million strings took seconds). Anything else (a
 * dictionary already decoded, JSON values, two versions stored in different forms) goes
 * through a Map of the values.
 */
export interface SharedCodes {
  /** Version code → shared code, for the older version ("before") and the newer ("after"). */
  readonly before: Uint32Array;
  readonly after: Uint32Array;
  /** Shared codes in use, NULL included: every shared code is below this. */
  readonly size: number;
}

export function sharedCodes(before: Column | undefined, after: Column | undefined): SharedCodes {
  if (!before || !after) {
    const only = before ?? after;
    const codes = only ? numbered(only) : new Uint32Array(1);
    return {
      before: before ? codes : new Uint32Array(1),
      after: after ? codes : new Uint32Array(1),
      size: only ? codes.length : 1,
    };
  }
  const a = before.fileDictionary;
  const b = after.fileDictionary;
  if (a && b) return byBytes(utf8Entries(a.entries()), utf8Entries(b.entries()));
  const x = numbersOf(before);
  const y = x && numbersOf(after);
  if (x && y) return byDoubles(x, y);
  return byValues(before.values, after.values);
}

/** The shared code of every row of a version (0 for rows that are not live or NULL). */
export function rowCodes(column: Column | undefined, shared: Uint32Array, maxRowId: number): Uint32Array {
  const out = new Uint32Array(maxRowId + 1);
  if (!column) return out;
  const codes = column.codes;
  for (let row = 1; row <= maxRowId; row++) out[row] = shared[codes[row]!]!;
  return out;
}

/** A column only one version has: its own codes, duplicates merged. */
function numbered(column: Column): Uint32Array {
  return byValues(column.values, [null]).before;
}

function byValues(before: readonly StoredValue[], after: readonly StoredValue[]): SharedCodes {
  const ids = new Map<StoredValue, number>();
  let next = 1;
  const renumber = (values: readonly StoredValue[]): Uint32Array => {
    const out = new Uint32Array(values.length);
    for (let code = 1; code < values.length; code++) {
      const value = values[code]!;
      let id = ids.get(value);
      if (id === undefined) {
        id = next++;
        ids.set(value, id);
      }
      out[code] = id;
    }
    return out;
  };
  const afterCodes = renumber(after);
  return { before: renumber(before), after: afterCodes, size: next };
}

/** A dictionary of doubles only (integer, float, bool columns, and numerics without exact text). */
function numbersOf(column: Column): Float64Array | null {
  if (column.fileDictionary) return null;
  const values = column.values;
  const out = new Float64Array(values.length);
  for (let code = 1; code < values.length; code++) {
    const v = values[code];
    if (typeof v !== 'number') return null;
    out[code] = v;
  }
  return out;
}

/**
 * Open addressing over typed arrays: `slots` holds shared code + 1 (0: empty); a shared code's
 * first holder (version and dictionary code) is what later entries are compared with. The
 * callers probe inline (no closure per entry: a million of them cost more than the probing).
 */
class CodeTable {
  readonly slots: Int32Array;
  readonly mask: number;
  readonly firstSide: Uint8Array;
  readonly firstCode: Uint32Array;
  size = 1;

  constructor(entries: number) {
    let capacity = 16;
    while (capacity < entries * 2) capacity *= 2;
    this.slots = new Int32Array(capacity);
    this.mask = capacity - 1;
    this.firstSide = new Uint8Array(entries + 1);
    this.firstCode = new Uint32Array(entries + 1);
  }

  /** A new shared code held by entry `code` of `side`, in the empty `slot`. */
  add(slot: number, side: number, code: number): number {
    const id = this.size++;
    this.slots[slot] = id + 1;
    this.firstSide[id] = side;
    this.firstCode[id] = code;
    return id;
  }
}

/** murmur3's finalizer: spreads every input bit over the hash. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

interface Utf8Entries {
  readonly count: number;
  readonly ends: Uint32Array;
  readonly text: Uint8Array;
  readonly numbers: Uint8Array | null;
}

function utf8Entries(e: { ends: Uint32Array; text: Uint8Array; numbers: Uint8Array | null }): Utf8Entries {
  return { count: e.ends.length, ...e };
}

function byBytes(before: Utf8Entries, after: Utf8Entries): SharedCodes {
  const sides = [before, after] as const;
  const table = new CodeTable(before.count + after.count);
  const { slots, mask, firstSide, firstCode } = table;
  const renumber = (side: 0 | 1): Uint32Array => {
    const d = sides[side];
    const { ends, text, numbers } = d;
    const out = new Uint32Array(d.count + 1);
    let from = 0;
    for (let code = 1; code <= d.count; code++) {
      const to = ends[code - 1]!;
      const length = to - from;
      const isNumber = numbers ? numbers[code - 1]! : 0;
      // FNV-1a over the bytes and the number flag.
      let hash = 0x811c9dc5 ^ isNumber;
      for (let i = from; i < to; i++) hash = Math.imul(hash ^ text[i]!, 0x01000193);
      let slot = mix(hash) & mask;
      for (;;) {
        const held = slots[slot]!;
        if (held === 0) {
          out[code] = table.add(slot, side, code);
          break;
        }
        const o = firstSide[held - 1] === 0 ? before : after;
        const other = firstCode[held - 1]!;
        const oFrom = other === 1 ? 0 : o.ends[other - 2]!;
        if (o.ends[other - 1]! - oFrom === length && (o.numbers ? o.numbers[other - 1]! : 0) === isNumber) {
          const oText = o.text;
          let i = 0;
          while (i < length && oText[oFrom + i] === text[from + i]) i++;
          if (i === length) {
            out[code] = held - 1;
            break;
          }
        }
        slot = (slot + 1) & mask;
      }
      from = to;
    }
    return out;
  };
  const afterCodes = renumber(1);
  return { before: renumber(0), after: afterCodes, size: table.size };
}

function byDoubles(before: Float64Array, after: Float64Array): SharedCodes {
  const sides = [before, after] as const;
  const table = new CodeTable(before.length + after.length);
  const { slots, mask, firstSide, firstCode } = table;
  const bits = new Uint32Array(2);
  const double = new Float64Array(bits.buffer);
  const renumber = (side: 0 | 1): Uint32Array => {
    const values = sides[side];
    const out = new Uint32Array(values.length);
    for (let code = 1; code < values.length; code++) {
      const v = values[code]!;
      double[0] = v === 0 ? 0 : v; // -0 hashes as 0: equal, as in byValues' Map
      let slot = mix(bits[0]! ^ Math.imul(bits[1]!, 0x9e3779b1)) & mask;
      for (;;) {
        const held = slots[slot]!;
        if (held === 0) {
          out[code] = table.add(slot, side, code);
          break;
        }
        const o = (firstSide[held - 1] === 0 ? before : after)[firstCode[held - 1]!]!;
        // NaN equals NaN, as in PostgreSQL's float ordering (and in a Map).
        if (o === v || (o !== o && v !== v)) {
          out[code] = held - 1;
          break;
        }
        slot = (slot + 1) & mask;
      }
    }
    return out;
  };
  const afterCodes = renumber(1);
  return { before: renumber(0), after: afterCodes, size: table.size };
}
