// Immutable full-text index in CSR form: lexemes sorted in JS string order (UTF-16 code units)
// and stored as one UTF-8 blob, each with a slice of row ids (ascending) and term frequencies.
// Lookups binary-search the blob directly, comparing UTF-8 bytes against the JS string code
// unit by code unit, so loading an index never builds a Map of millions of strings and the
// arrays can be views on the bytes of a sidecar file.

import { EMPTY_POSTINGS, type PostingList, type TextIndexReader } from './text-index-reader';

const decoder = new TextDecoder();

/**
 * Where an index's postings are when they are not in memory: the columns file, read a term's
 * (or a prefix's) range at a time (index-codec.ts `openIndex`).
 */
export interface PostingSource {
  readonly count: number;
  /** Postings [a, b), which are those of terms [firstTerm, endTerm). */
  read(a: number, b: number, firstTerm: number, endTerm: number): PostingList;
  /** Every posting, for whole-index work (compaction). */
  whole(): { rowIds: Uint32Array; tfs: Uint8Array };
}

export class InvertedIndex implements TextIndexReader {
  readonly termCount: number;
  private rowArray: Uint32Array | null;
  private tfArray: Uint8Array | null;

  /**
   * @param termBytes   UTF-8 of all lexemes, concatenated in sorted order
   * @param termOffsets termCount + 1 byte offsets into termBytes
   * @param offsets     termCount + 1 offsets into rowIds / tfs
   * @param rowIds      row ids per lexeme, ascending within a lexeme (or where to read them)
   * @param tfs         term frequency of the lexeme in that row, capped at 255
   */
  constructor(
    readonly termBytes: Uint8Array,
    readonly termOffsets: Uint32Array,
    readonly offsets: Uint32Array,
    rowIds: Uint32Array | PostingSource,
    tfs?: Uint8Array,
  ) {
    this.termCount = termOffsets.length - 1;
    if (rowIds instanceof Uint32Array) {
      this.rowArray = rowIds;
      this.tfArray = tfs ?? new Uint8Array(0);
      this.source = null;
    } else {
      this.rowArray = null;
      this.tfArray = null;
      this.source = rowIds;
    }
    if (this.termCount < 0 || offsets.length !== termOffsets.length) throw new Error('inverted index: offset tables disagree');
    if (termOffsets[this.termCount] !== termBytes.length) throw new Error('inverted index: term table does not cover the term bytes');
    if (offsets[this.termCount] !== this.postingCount || (this.tfArray && this.tfArray.length !== this.rowArray!.length))
      throw new Error('inverted index: postings do not match offsets');
  }

  private readonly source: PostingSource | null;

  static empty(): InvertedIndex {
    return new InvertedIndex(new Uint8Array(0), new Uint32Array(1), new Uint32Array(1), new Uint32Array(0), new Uint8Array(0));
  }

  get postingCount(): number {
    return this.rowArray ? this.rowArray.length : this.source!.count;
  }

  /** Every row id, term by term (read whole from the file when the postings were not in memory). */
  get rowIds(): Uint32Array {
    this.loadPostings();
    return this.rowArray!;
  }

  get tfs(): Uint8Array {
    this.loadPostings();
    return this.tfArray!;
  }

  /** Bytes held in memory (postings read on demand are not). */
  get residentBytes(): number {
    const postings = this.rowArray ? this.rowArray.byteLength + this.tfArray!.byteLength : 0;
    return this.termBytes.byteLength + this.termOffsets.byteLength + this.offsets.byteLength + postings;
  }

  private loadPostings(): void {
    if (this.rowArray) return;
    const { rowIds, tfs } = this.source!.whole();
    this.rowArray = rowIds;
    this.tfArray = tfs;
  }

  /** Postings [a, b) of terms [firstTerm, endTerm). */
  private range(a: number, b: number, firstTerm: number, endTerm: number): PostingList {
    if (this.rowArray) return { rowIds: this.rowArray.subarray(a, b), tfs: this.tfArray!.subarray(a, b) };
    if (a === b) return { rowIds: new Uint32Array(0), tfs: new Uint8Array(0) };
    return this.source!.read(a, b, firstTerm, endTerm);
  }

  /** Sign of (term i) - s in JS string order. */
  compareTerm(i: number, s: string): number {
    const bytes = this.termBytes;
    let p = this.termOffsets[i]!;
    const end = this.termOffsets[i + 1]!;
    const n = s.length;
    let j = 0;
    while (p < end) {
      const b = bytes[p]!;
      if (b < 0x80) {
        if (j >= n) return 1;
        const c = s.charCodeAt(j++);
        if (b !== c) return b < c ? -1 : 1;
        p++;
        continue;
      }
      let cp: number;
      if (b < 0xe0) {
        cp = ((b & 0x1f) << 6) | (bytes[p + 1]! & 0x3f);
        p += 2;
      } else if (b < 0xf0) {
        cp = ((b & 0x0f) << 12) | ((bytes[p + 1]! & 0x3f) << 6) | (bytes[p + 2]! & 0x3f);
        p += 3;
      } else {
        cp = ((b & 0x07) << 18) | ((bytes[p + 1]! & 0x3f) << 12) | ((bytes[p + 2]! & 0x3f) << 6) | (bytes[p + 3]! & 0x3f);
        p += 4;
      }
      if (cp < 0x10000) {
        if (j >= n) return 1;
        const c = s.charCodeAt(j++);
        if (cp !== c) return cp < c ? -1 : 1;
      } else {
        // Astral characters compare as their surrogate pair, like JS strings do.
        const hi = 0xd800 + ((cp - 0x10000) >> 10);
        const lo = 0xdc00 + ((cp - 0x10000) & 0x3ff);
        if (j >= n) return 1;
        let c = s.charCodeAt(j++);
        if (hi !== c) return hi < c ? -1 : 1;
        if (j >= n) return 1;
        c = s.charCodeAt(j++);
        if (lo !== c) return lo < c ? -1 : 1;
      }
    }
    return j < n ? -1 : 0;
  }

  /** First term index whose lexeme is >= s. */
  lowerBound(s: string): number {
    let lo = 0;
    let hi = this.termCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compareTerm(mid, s) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Index of `lexeme`, or -1. */
  termIndex(lexeme: string): number {
    const i = this.lowerBound(lexeme);
    return i < this.termCount && this.compareTerm(i, lexeme) === 0 ? i : -1;
  }

  /** Only called ~log2(termCount) times per prefix lookup, so decoding the term is fine. */
  termStartsWith(i: number, prefix: string): boolean {
    return this.term(i).startsWith(prefix);
  }

  /** [lo, hi): the term indexes whose lexeme starts with `prefix` (a contiguous range). */
  prefixRange(prefix: string): [number, number] {
    const lo = this.lowerBound(prefix);
    let a = lo;
    let b = this.termCount;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (this.termStartsWith(mid, prefix)) a = mid + 1;
      else b = mid;
    }
    return [lo, a];
  }

  term(i: number): string {
    return decoder.decode(this.termBytes.subarray(this.termOffsets[i], this.termOffsets[i + 1]));
  }

  postings(i: number): PostingList {
    return this.range(this.offsets[i]!, this.offsets[i + 1]!, i, i + 1);
  }

  lookup(lexeme: string): PostingList {
    const i = this.termIndex(lexeme);
    return i < 0 ? EMPTY_POSTINGS : this.postings(i);
  }

  /** Postings of all lexemes with the prefix: in CSR they are one contiguous slice. */
  lookupPrefixSlice(prefix: string): PostingList {
    const [lo, hi] = this.prefixRange(prefix);
    return this.range(this.offsets[lo]!, this.offsets[hi]!, lo, hi);
  }

  lookupPrefix(prefix: string): PostingList[] {
    const [lo, hi] = this.prefixRange(prefix);
    return this.termsPostings(lo, hi);
  }

  /** Each term's postings for terms [lo, hi), read in one piece. */
  termsPostings(lo: number, hi: number): PostingList[] {
    const start = this.offsets[lo]!;
    const all = this.range(start, this.offsets[hi]!, lo, hi);
    const res: PostingList[] = [];
    for (let i = lo; i < hi; i++) {
      const a = this.offsets[i]! - start;
      const b = this.offsets[i + 1]! - start;
      res.push({ rowIds: all.rowIds.subarray(a, b), tfs: all.tfs.subarray(a, b) });
    }
    return res;
  }
}
