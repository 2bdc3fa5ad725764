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
