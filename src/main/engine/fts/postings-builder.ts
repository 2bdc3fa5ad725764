// Builds an InvertedIndex at import time. Rows arrive in increasing row-id order with the
// term ids of their lexemes; postings are appended to flat typed arrays (no per-posting
// objects) and finish() turns them into CSR form with one counting sort by term — rows come
// out ascending within each term for free because they were appended in row order.

import { rehashSlots } from './hash-slots';
import { fnvRange } from './token-term-table';
import { InvertedIndex } from './inverted-index';
import { sortLexemeIndexes } from './lexeme-sort';
import { utf8Length } from './char-classes';

const MAX_TF = 255;
/** Rows with at most this many lexemes find repeated terms by scanning their own postings. */
const SHORT_ROW = 24;

function grow32(a: Uint32Array<ArrayBuffer>, need: number, size = a.length * 2): Uint32Array<ArrayBuffer> {
  if (need <= a.length) return a;
  const b = new Uint32Array(Math.max(need, size));
  b.set(a);
  return b;
}
function grow8(a: Uint8Array<ArrayBuffer>, need: number, size = a.length * 2): Uint8Array<ArrayBuffer> {
  if (need <= a.length) return a;
  const b = new Uint8Array(Math.max(need, size));
  b.set(a);
  return b;
}

export interface PostingsBuilderOptions {
  /** Rows that will be added, if known: buffers are then sized up front (or from the postings
   * per row seen so far) instead of doubling, which saves copies and garbage. */
  readonly expectedRows?: number;
}

/** Hash of a whole string (FNV-1a + avalanche) for the builder's lexeme table. */
function stringHash(s: string): number {
  let h = fnvRange(s, 0, s.length);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return h;
}

export class PostingsBuilder {
  // Lexeme -> provisional id: an open-addressing table of slot pairs [id + 1 (0 = empty), hash]
  // keyed by the lexemes themselves; unlike a Map it holds no per-entry objects for the GC
  // to trace, and a lexeme seen for the first time costs one probe of one cache line.
  private termSlots = new Int32Array(1 << 14);
  private termMask = (1 << 13) - 1;
  private readonly lexemes: string[] = [];
  // Postings in arrival order: term id and frequency, grouped by row.
  private pTerm = new Uint32Array(1 << 16);
  private pTf = new Uint8Array(1 << 16);
  private nPostings = 0;
  // Rows with at least one lexeme and where their postings end.
  private rows: Uint32Array<ArrayBuffer>;
  private rowEnd: Uint32Array<ArrayBuffer>;
  private readonly expectedRows: number;
  private nRows = 0;
  private lastRowId = 0;
  // Per term: the row (1-based serial) it was last seen in and its posting slot there,
  // so repeated lexemes in a row bump tf instead of adding a posting.
  // Only rows longer than SHORT_ROW use them; they are allocated on the first such row.
  private seenIn = new Uint32Array(0);
  private slot = new Uint32Array(0);
  private finished = false;

  constructor(options?: PostingsBuilderOptions) {
    const expected = options?.expectedRows ?? 0;
    this.expectedRows = Number.isFinite(expected) && expected > 0 ? Math.floor(expected) : 0;
    const rowCapacity = Math.max(1 << 12, Math.min(this.expectedRows, 1 << 28));
    this.rows = new Uint32Array(rowCapacity);
    this.rowEnd = new Uint32Array(rowCapacity);
  }

  get termCount(): number {
    return this.lexemes.length;
  }

  get postingCount(): number {
    return this.nPostings;
  }

  /** Provisional id of a lexeme (ids are renumbered in sorted order by finish()). */
  internLexeme(lexeme: string): number {
    this.assertOpen();
    const hash = stringHash(lexeme);
    const { termSlots, termMask, lexemes } = this;
    let i = hash & termMask;
    for (;;) {
      const e = termSlots[2 * i]!;
      if (e === 0) break;
      if (termSlots[2 * i + 1] === hash && lexemes[e - 1] === lexeme) return e - 1;
      i = (i + 1) & termMask;
    }
    const id = lexemes.length;
    lexemes.push(lexeme);
    termSlots[2 * i] = id + 1;
    termSlots[2 * i + 1] = hash;
    if ((id + 1) * 3 > (termMask + 1) * 2) this.rehashTerms((termMask + 1) * 2); // load <= 2/3
    return id;
  }

  private rehashTerms(size: number): void {
    this.termSlots = rehashSlots(this.termSlots, size);
    this.termMask = size - 1;
  }

  /**
   * Adds a row; `termIds` may repeat (repetitions are the term frequency, capped at 255). Only
   * the first `count` ids are read (default: all), so a caller can reuse one scratch array.
   */
  addRow(rowId: number, termIds: ArrayLike<number>, count: number = termIds.length): void {
    this.assertOpen();
    if (!Number.isInteger(rowId) || rowId <= this.lastRowId || rowId > 0xffffffff) {
      throw new RangeError(`rows must arrive with increasing positive integer ids (got ${rowId} after ${this.lastRowId})`);
    }
    if (!(count >= 0 && count <= termIds.length && count === Math.floor(count))) throw new RangeError(`bad term count ${count}`);
    this.lastRowId = rowId;
    const n = count;
    if (n === 0) return;
    if (this.nPostings + n > this.pTerm.length) this.growPostings(this.nPostings + n);
    if (n > SHORT_ROW && this.seenIn.length < this.lexemes.length) {
      const size = Math.max(this.lexemes.length, this.seenIn.length * 2, 1 << 12);
      this.seenIn = grow32(this.seenIn, this.lexemes.length, size);
      this.slot = grow32(this.slot, this.lexemes.length, size);
    }
    const { pTerm, pTf, seenIn, slot } = this;
    const serial = this.nRows + 1;
    const termCount = this.lexemes.length;
    const first = this.nPostings;
    let k = first;
    if (n <= SHORT_ROW) {
      // Few terms: find repeats among the row's own postings (a few compares in one cache
      // line) instead of in the per-term arrays (a likely cache miss per rare term).
      for (let i = 0; i < n; i++) {
        const t = termIds[i]!;
        if (!(t >= 0 && t < termCount && t === Math.floor(t))) throw new RangeError(`unknown term id ${t}`);
        let s = first;
        while (s < k && pTerm[s] !== t) s++;
        if (s < k) {
          if (pTf[s]! < MAX_TF) pTf[s] = pTf[s]! + 1;
        } else {
          pTerm[k] = t;
          pTf[k] = 1;
          k++;
        }
      }
    } else
      for (let i = 0; i < n; i++) {
        const t = termIds[i]!;
        if (!(t >= 0 && t < termCount && t === Math.floor(t))) throw new RangeError(`unknown term id ${t}`);
        if (seenIn[t] === serial) {
          const s = slot[t]!;
          if (pTf[s]! < MAX_TF) pTf[s] = pTf[s]! + 1;
        } else {
          seenIn[t] = serial;
          slot[t] = k;
          pTerm[k] = t;
          pTf[k] = 1;
          k++;
        }
      }
    this.nPostings = k;
    this.rows = grow32(this.rows, serial);
    this.rowEnd = grow32(this.rowEnd, serial);
    this.rows[this.nRows] = rowId;
    this.rowEnd[this.nRows] = k;
    this.nRows = serial;
  }

  private growPostings(need: number): void {
    let size = this.pTerm.length * 2;
    if (this.expectedRows > 0 && this.nRows >= 1024) {
      // Extrapolate from the rows so far (+5%), growing by at least a quarter.
      const estimate = Math.ceil((this.nPostings / this.nRows) * Math.max(this.expectedRows, this.nRows + 1) * 1.05);
      size = Math.max(estimate, this.pTerm.length + (this.pTerm.length >>> 2));
    }
    this.pTerm = grow32(this.pTerm, need, size);
    this.pTf = grow8(this.pTf, need, size);
  }

  /** Convenience for callers holding lexeme strings (e.g. from documentLexemes). */
  addRowLexemes(rowId: number, lexemes: readonly string[]): void {
    const ids = new Uint32Array(lexemes.length);
    for (let i = 0; i < lexemes.length; i++) ids[i] = this.internLexeme(lexemes[i]!);
    this.addRow(rowId, ids);
  }

  /** Builds the index. The builder cannot be used afterwards (its buffers are released). */
  finish(): InvertedIndex {
    this.assertOpen();
    this.finished = true;
    const { lexemes, pTerm, nPostings } = this;
    const docFreq = new Uint32Array(lexemes.length);
    for (let k = 0; k < nPostings; k++) docFreq[pTerm[k]!] = docFreq[pTerm[k]!]! + 1;
    // Lexemes interned but never used in a row are dropped.
    let used = 0;
    for (let t = 0; t < lexemes.length; t++) if (docFreq[t]! > 0) used++;
    const usedIds = new Uint32Array(used);
    for (let t = 0, u = 0; t < lexemes.length; t++) if (docFreq[t]! > 0) usedIds[u++] = t;
    const order = sortLexemeIndexes(lexemes, usedIds);

    const newId = new Uint32Array(lexemes.length);
    const offsets = new Uint32Array(used + 1);
    for (let i = 0; i < used; i++) {
      const t = order[i]!;
      newId[t] = i;
      offsets[i + 1] = offsets[i]! + docFreq[t]!;
    }
    const { rowIds, tfs } = this.scatter(newId, offsets, used);
    const { termBytes, termOffsets } = encodeTerms(lexemes, order);
    this.release();
    return new InvertedIndex(termBytes, termOffsets, offsets, rowIds, tfs);
  }

  /**
   * Counting sort of the postings by (renumbered) term. Rows were appended in ascending
   * order and both passes are stable, so each term's rows come out ascending. A direct
   * scatter would write 20M postings to random places of a 100 MB array (cache misses
   * dominate); instead pass 1 scatters into ~1k buckets of consecutive terms, whose output
   * regions are contiguous, and pass 2 sorts each bucket inside its cache-sized region.
   */
  private scatter(newId: Uint32Array, offsets: Uint32Array, used: number): { rowIds: Uint32Array; tfs: Uint8Array } {
    const { pTerm, pTf, nPostings, rows, rowEnd, nRows } = this;
    const rowIds = new Uint32Array(nPostings);
    const tfs = new Uint8Array(nPostings);
    const lastTerm = Math.max(used, 1) - 1;
    let shift = 0;
    while (lastTerm >>> shift >= 256) shift++; // <= 256 buckets: few enough write streams for pass 1
    const buckets = (lastTerm >>> shift) + 1;
    const bucketCursor = new Uint32Array(buckets);
    for (let b = 0; b < buckets; b++) bucketCursor[b] = offsets[Math.min(b << shift, used)]!;
    if (shift === 0) {
      // Few terms: every bucket is one term, pass 1 is already the final order.
      for (let r = 0, k = 0; r < nRows; r++) {
        const row = rows[r]!;
        for (const end = rowEnd[r]!; k < end; k++) {
          const t = newId[pTerm[k]!]!;
          const d = bucketCursor[t]!;
          bucketCursor[t] = d + 1;
          rowIds[d] = row;
          tfs[d] = pTf[k]!;
        }
      }
      return { rowIds, tfs };
    }
    // Pass-1 output: each posting's term within its bucket (16 bits do up to 16M terms).
    const localMask = (1 << shift) - 1;
    const termAt = shift <= 16 ? new Uint16Array(nPostings) : new Uint32Array(nPostings);
    for (let r = 0, k = 0; r < nRows; r++) {
      const row = rows[r]!;
      for (const end = rowEnd[r]!; k < end; k++) {
        const t = newId[pTerm[k]!]!;
        const b = t >>> shift;
        const d = bucketCursor[b]!;
        bucketCursor[b] = d + 1;
        rowIds[d] = row;
        tfs[d] = pTf[k]!;
        termAt[d] = t & localMask;
      }
    }
    let maxRegion = 0;
    for (let b = 0; b < buckets; b++) {
      const size = offsets[Math.min((b + 1) << shift, used)]! - offsets[b << shift]!;
      if (size > maxRegion) maxRegion = size;
    }
    const tmpRows = new Uint32Array(maxRegion);
    const tmpTfs = new Uint8Array(maxRegion);
    const cursor = offsets.slice(0, used);
    for (let b = 0; b < buckets; b++) {
      const lo = offsets[b << shift]!;
      const hi = offsets[Math.min((b + 1) << shift, used)]!;
      const n = hi - lo;
      const base = b << shift;
      tmpRows.set(rowIds.subarray(lo, hi));
      tmpTfs.set(tfs.subarray(lo, hi));
      for (let i = 0; i < n; i++) {
        const t = base + termAt[lo + i]!;
        const d = cursor[t]!;
        cursor[t] = d + 1;
        rowIds[d] = tmpRows[i]!;
        tfs[d] = tmpTfs[i]!;
      }
    }
    return { rowIds, tfs };
  }

  private release(): void {
    this.termSlots = new Int32Array(2);
    this.termMask = 0;
    this.lexemes.length = 0;
    this.pTerm = new Uint32Array(0);
    this.pTf = new Uint8Array(0);
    this.rows = new Uint32Array(0);
    this.rowEnd = new Uint32Array(0);
    this.seenIn = new Uint32Array(0);
    this.slot = new Uint32Array(0);
  }

  private assertOpen(): void {
    if (this.finished) throw new Error('PostingsBuilder.finish() was already called');
  }
}

const encoder = new TextEncoder();

/** UTF-8 blob of the lexemes in `order`, encoded in large joined chunks (one encoder call per
 * ~64k lexemes instead of one per lexeme); per-lexeme byte lengths are only computed for
 * chunks that are not pure ASCII. */
export function encodeTerms(lexemes: readonly string[], order: ArrayLike<number>): { termBytes: Uint8Array; termOffsets: Uint32Array } {
  const n = order.length;
  const termOffsets = new Uint32Array(n + 1);
  const chunks: Uint8Array[] = [];
  const CHUNK = 65536;
  for (let start = 0; start < n; start += CHUNK) {
    const end = Math.min(n, start + CHUNK);
    const parts: string[] = new Array<string>(end - start);
    for (let i = start; i < end; i++) parts[i - start] = lexemes[order[i]!]!;
    const joined = parts.join('');
    const bytes = encoder.encode(joined);
    const ascii = bytes.length === joined.length;
    for (let i = start; i < end; i++) {
      const s = parts[i - start]!;
      termOffsets[i + 1] = termOffsets[i]! + (ascii ? s.length : utf8Length(s, 0, s.length));
    }
    if (termOffsets[end]! - termOffsets[start]! !== bytes.length) throw new Error('lexeme encoding length mismatch');
    chunks.push(bytes);
  }
  const termBytes = new Uint8Array(termOffsets[n]!);
  let at = 0;
  for (const chunk of chunks) {
    termBytes.set(chunk, at);
    at += chunk.length;
  }
  return { termBytes, termOffsets };
}
