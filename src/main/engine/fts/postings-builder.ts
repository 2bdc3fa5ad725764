// Builds an InvertedIndex at import time. Rows arrive in increasing row-id order with the
// term ids of their lexemes; postings are appended to flat typed arrays (no per-posting
// objects) and finish() turns them into CSR form with one counting sort by term — rows come
// out ascending within each term for free because they were appended in row order.

import { InvertedIndex } from './inverted-index';
import { sortLexemeIndexes } from './lexeme-sort';
import { utf8Length } from './char-classes';

const MAX_TF = 255;

function grow32(a: Uint32Array<ArrayBuffer>, need: number): Uint32Array<ArrayBuffer> {
  if (need <= a.length) return a;
  const b = new Uint32Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}
function grow8(a: Uint8Array<ArrayBuffer>, need: number): Uint8Array<ArrayBuffer> {
  if (need <= a.length) return a;
  const b = new Uint8Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

export class PostingsBuilder {
  private readonly termIds = new Map<string, number>();
  private readonly lexemes: string[] = [];
  // Postings in arrival order: term id and frequency, grouped by row.
  private pTerm = new Uint32Array(1 << 16);
  private pTf = new Uint8Array(1 << 16);
  private nPostings = 0;
  // Rows with at least one lexeme and where their postings end.
  private rows = new Uint32Array(1 << 12);
  private rowEnd = new Uint32Array(1 << 12);
  private nRows = 0;
  private lastRowId = 0;
  // Per term: the row (1-based serial) it was last seen in and its posting slot there,
  // so repeated lexemes in a row bump tf instead of adding a posting.
  private seenIn = new Uint32Array(1 << 12);
  private slot = new Uint32Array(1 << 12);
  private finished = false;

  get termCount(): number {
    return this.lexemes.length;
  }

  get postingCount(): number {
    return this.nPostings;
  }

  /** Provisional id of a lexeme (ids are renumbered in sorted order by finish()). */
  internLexeme(lexeme: string): number {
    let id = this.termIds.get(lexeme);
    if (id === undefined) {
      this.assertOpen();
      id = this.lexemes.length;
      this.termIds.set(lexeme, id);
      this.lexemes.push(lexeme);
      if (id >= this.seenIn.length) {
        this.seenIn = grow32(this.seenIn, id + 1);
        this.slot = grow32(this.slot, id + 1);
      }
    }
    return id;
  }

  /** Adds a row; `termIds` may repeat (repetitions are the term frequency, capped at 255). */
  addRow(rowId: number, termIds: ArrayLike<number>): void {
    this.assertOpen();
    if (!Number.isInteger(rowId) || rowId <= this.lastRowId || rowId > 0xffffffff) {
      throw new RangeError(`rows must arrive with increasing positive integer ids (got ${rowId} after ${this.lastRowId})`);
    }
    this.lastRowId = rowId;
    const n = termIds.length;
    if (n === 0) return;
    this.pTerm = grow32(this.pTerm, this.nPostings + n);
    this.pTf = grow8(this.pTf, this.nPostings + n);
    const { pTerm, pTf, seenIn, slot } = this;
    const serial = this.nRows + 1;
    const termCount = this.lexemes.length;
    let k = this.nPostings;
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
    const termAt = new Uint32Array(nPostings); // pass-1 output: term of each posting
    for (let r = 0, k = 0; r < nRows; r++) {
      const row = rows[r]!;
      for (const end = rowEnd[r]!; k < end; k++) {
        const t = newId[pTerm[k]!]!;
        const b = t >>> shift;
        const d = bucketCursor[b]!;
        bucketCursor[b] = d + 1;
        rowIds[d] = row;
        tfs[d] = pTf[k]!;
        termAt[d] = t;
      }
    }
    let maxRegion = 0;
    for (let b = 0; b < buckets; b++) {
      const size = offsets[Math.min((b + 1) << shift, used)]! - offsets[b << shift]!;
      if (size > maxRegion) maxRegion = size;
    }
    const tmpRows = new Uint32Array(maxRegion);
    const tmpTfs = new Uint8Array(maxRegion);
    const tmpTerms = new Uint32Array(maxRegion);
    const cursor = offsets.slice(0, used);
    for (let b = 0; b < buckets; b++) {
      const lo = offsets[b << shift]!;
      const hi = offsets[Math.min((b + 1) << shift, used)]!;
      const n = hi - lo;
      tmpRows.set(rowIds.subarray(lo, hi));
      tmpTfs.set(tfs.subarray(lo, hi));
      tmpTerms.set(termAt.subarray(lo, hi));
      for (let i = 0; i < n; i++) {
        const t = tmpTerms[i]!;
        const d = cursor[t]!;
        cursor[t] = d + 1;
        rowIds[d] = tmpRows[i]!;
        tfs[d] = tmpTfs[i]!;
      }
    }
    return { rowIds, tfs };
  }

  private release(): void {
    this.termIds.clear();
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

