// Merging the indexes of two consecutive row ranges (built in parallel, e.g. rows 1..m in one
// worker and m+1..n in another) into the index of all rows, without re-tokenizing: the term
// lists are merged like two sorted runs, and since every row of the first index precedes
// every row of the second, a shared term's postings are simply the first's then the second's.
// One pass over terms and postings, typed-array copies only.

import { InvertedIndex } from './inverted-index';

/**
 * The index of the rows of `a` and `b` together. Every row id of `a` must be smaller than
 * every row id of `b` (throws RangeError otherwise). O(total terms + total postings).
 */
export function mergeDisjointIndexes(a: InvertedIndex, b: InvertedIndex): InvertedIndex {
  if (a.termCount === 0) return b;
  if (b.termCount === 0) return a;
  assertOrdered(a.rowIds, b.rowIds);

  const na = a.termCount;
  const nb = b.termCount;
  const aBytes = a.termBytes,
    aTermOff = a.termOffsets;
  const bBytes = b.termBytes,
    bTermOff = b.termOffsets;

  // Pass 1: the merged term order (-1 = the term is absent from that side).
  const fromA = new Int32Array(na + nb);
  const fromB = new Int32Array(na + nb);
  let n = 0;
  let termBytesTotal = 0;
  for (let i = 0, j = 0; i < na || j < nb; n++) {
    const c = i >= na ? 1 : j >= nb ? -1 : compareUtf8(aBytes, aTermOff[i]!, aTermOff[i + 1]!, bBytes, bTermOff[j]!, bTermOff[j + 1]!);
    if (c <= 0) {
      fromA[n] = i;
      termBytesTotal += aTermOff[i + 1]! - aTermOff[i]!;
      i++;
    } else {
      fromA[n] = -1;
      termBytesTotal += bTermOff[j + 1]! - bTermOff[j]!;
    }
    if (c >= 0) fromB[n] = j++;
    else fromB[n] = -1;
  }

  // Pass 2: copy term bytes and postings.
  const aOff = a.offsets,
    aRows = a.rowIds,
    aTfs = a.tfs;
  const bOff = b.offsets,
    bRows = b.rowIds,
    bTfs = b.tfs;
  const termBytes = new Uint8Array(termBytesTotal);
  const termOffsets = new Uint32Array(n + 1);
  const offsets = new Uint32Array(n + 1);
  const rowIds = new Uint32Array(aRows.length + bRows.length);
  const tfs = new Uint8Array(rowIds.length);
  let tb = 0;
  let p = 0;
  for (let t = 0; t < n; t++) {
    const i = fromA[t]!;
    const j = fromB[t]!;
    if (i >= 0) {
      for (let s = aTermOff[i]!, e = aTermOff[i + 1]!; s < e; s++) termBytes[tb++] = aBytes[s]!;
      p = copyPostings(aRows, aTfs, aOff[i]!, aOff[i + 1]!, rowIds, tfs, p);
    } else {
      for (let s = bTermOff[j]!, e = bTermOff[j + 1]!; s < e; s++) termBytes[tb++] = bBytes[s]!;
    }
    if (j >= 0) p = copyPostings(bRows, bTfs, bOff[j]!, bOff[j + 1]!, rowIds, tfs, p);
    termOffsets[t + 1] = tb;
    offsets[t + 1] = p;
  }
  return new InvertedIndex(termBytes, termOffsets, offsets, rowIds, tfs);
}

/** Copies postings [s, e) to position p; returns the position after them. */
function copyPostings(
  rows: Uint32Array,
  tfs: Uint8Array,
  s: number,
  e: number,
  outRows: Uint32Array,
  outTfs: Uint8Array,
  p: number,
): number {
  if (e - s > 64) {
    // Long lists (frequent words): native copies; short ones are not worth two subarrays.
    outRows.set(rows.subarray(s, e), p);
    outTfs.set(tfs.subarray(s, e), p);
    return p + e - s;
  }
  for (let k = s; k < e; k++) {
    outRows[p] = rows[k]!;
    outTfs[p++] = tfs[k]!;
  }
  return p;
}

function assertOrdered(aRows: Uint32Array, bRows: Uint32Array): void {
  if (aRows.length === 0 || bRows.length === 0) return;
  let maxA = 0;
  for (let k = 0; k < aRows.length; k++) if (aRows[k]! > maxA) maxA = aRows[k]!;
  let minB = 0xffffffff;
  for (let k = 0; k < bRows.length; k++) if (bRows[k]! < minB) minB = bRows[k]!;
  if (maxA >= minB) {
    throw new RangeError(`mergeDisjointIndexes: rows of the first index (up to ${maxA}) must precede those of the second (from ${minB})`);
  }
}

/**
 * Sign of x - y for two UTF-8 strings, in JS string order (UTF-16 code units), which is the
 * order of InvertedIndex terms. Byte order equals code point order; the two differ only
 * between astral characters (surrogate pairs, 0xD800..) and BMP characters from 0xE000 up.
 */
export function compareUtf8(x: Uint8Array, xs: number, xe: number, y: Uint8Array, ys: number, ye: number): number {
  let i = xs;
  let j = ys;
  while (i < xe && j < ye) {
    const p = x[i]!;
    const q = y[j]!;
    if (p !== q) {
      if (p < 0x80 && q < 0x80) return p < q ? -1 : 1;
      // Same bytes so far, hence same character boundaries: back up to the character start.
      let k = i - xs;
      while (k > 0 && (x[xs + k]! & 0xc0) === 0x80) k--;
      return utf16Key(x, xs + k) < utf16Key(y, ys + k) ? -1 : 1;
    }
    i++;
    j++;
  }
  return i < xe ? 1 : j < ye ? -1 : 0;
}

/** The UTF-16 code units of the character at `p` as one comparable number (hi * 65536 + lo). */
function utf16Key(bytes: Uint8Array, p: number): number {
  const b = bytes[p]!;
  let cp: number;
  if (b < 0x80) cp = b;
  else if (b < 0xe0) cp = ((b & 0x1f) << 6) | (bytes[p + 1]! & 0x3f);
  else if (b < 0xf0) cp = ((b & 0x0f) << 12) | ((bytes[p + 1]! & 0x3f) << 6) | (bytes[p + 2]! & 0x3f);
  else {
    cp = ((b & 0x07) << 18) | ((bytes[p + 1]! & 0x3f) << 12) | ((bytes[p + 2]! & 0x3f) << 6) | (bytes[p + 3]! & 0x3f);
    return (0xd800 + ((cp - 0x10000) >> 10)) * 65536 + 0xdc00 + ((cp - 0x10000) & 0x3ff);
  }
  return cp * 65536;
}
