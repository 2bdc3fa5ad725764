// The read side shared by the immutable InvertedIndex and the MutableTextIndex: query
// evaluation and ranking only need the postings of a lexeme or of a lexeme prefix.

/** Rows containing one lexeme: ascending row ids and, aligned, the term frequency (<= 255). */
export interface PostingList {
  readonly rowIds: Uint32Array;
  readonly tfs: Uint8Array;
}

export interface TextIndexReader {
  /** Postings of exactly `lexeme` (empty lists when absent). Views: do not mutate. */
  lookup(lexeme: string): PostingList;
  /** One posting list per indexed lexeme starting with `prefix`. Views: do not mutate. */
  lookupPrefix(prefix: string): PostingList[];
  /**
   * Optional shortcut: the postings of every lexeme starting with `prefix` as ONE list (row ids
   * ascend only within each lexeme's run), or null when not available cheaply. A short prefix
   * can match hundreds of thousands of lexemes; one slice avoids as many list objects.
   */
  lookupPrefixSlice?(prefix: string): PostingList | null;
}

/** Which rows exist: only needed to answer NOT (a complement). */
export interface RowUniverse {
  /** All live row ids, ascending. */
  liveRowIds(): Uint32Array;
}

export const EMPTY_POSTINGS: PostingList = { rowIds: new Uint32Array(0), tfs: new Uint8Array(0) };

/** Union of two ascending posting lists; a row in both gets the sum of its frequencies. */
export function mergePostings(a: PostingList, b: PostingList): PostingList {
  if (a.rowIds.length === 0) return b;
  if (b.rowIds.length === 0) return a;
  const rowIds = new Uint32Array(a.rowIds.length + b.rowIds.length);
  const tfs = new Uint8Array(rowIds.length);
  let i = 0,
    j = 0,
    k = 0;
  while (i < a.rowIds.length || j < b.rowIds.length) {
    const x = i < a.rowIds.length ? a.rowIds[i]! : Infinity;
    const y = j < b.rowIds.length ? b.rowIds[j]! : Infinity;
    if (x === y) {
      rowIds[k] = x;
      tfs[k++] = Math.min(255, a.tfs[i++]! + b.tfs[j++]!);
    } else if (x < y) {
      rowIds[k] = x;
      tfs[k++] = a.tfs[i++]!;
    } else {
      rowIds[k] = y;
      tfs[k++] = b.tfs[j++]!;
    }
  }
  return { rowIds: rowIds.subarray(0, k), tfs: tfs.subarray(0, k) };
}
