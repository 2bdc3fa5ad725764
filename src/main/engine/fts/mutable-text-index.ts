// Full-text index that accepts writes after import: an immutable base InvertedIndex, a
// tombstone bitmap of base rows that were deleted or rewritten, and a small in-memory delta
// of added rows. Reads merge base (minus tombstones) with the delta; compact() folds
// everything into a new base in one pass over the postings, without re-tokenizing.

import { InvertedIndex } from './inverted-index';
import { lowerBound } from './lexeme-sort';
import { encodeTerms } from './postings-builder';
import { EMPTY_POSTINGS, mergePostings, type PostingList, type TextIndexReader } from './text-index-reader';

const MAX_TF = 255;

/** Delta postings of one lexeme; kept in arrival order and sorted lazily before reads. */
interface DeltaTerm {
  rows: number[];
  tfs: number[];
  sorted: boolean;
}

export class MutableTextIndex implements TextIndexReader {
  private loadedBase: InvertedIndex | null;
  /** Reads the base from its file on first use: a search without `q` never needs it. */
  private loadBase: (() => InvertedIndex) | null;
  private tombstones = new Uint32Array(0);
  private tombstoneCount = 0;
  private readonly deltaRows = new Map<number, string[]>(); // row -> its distinct lexemes
  private readonly deltaTerms = new Map<string, DeltaTerm>();
  private deltaPostings = 0;
  private sortedLexemes: string[] | null = null;
  private baseMaxRowId = -1; // computed lazily; rows above it cannot be in the base

  /**
   * `maxRowId`: no row of the base is above it (the table's highest `_id` when the base was
   * built), so that a first write need not read every posting to find the base's last row.
   */
  constructor(base: InvertedIndex | (() => InvertedIndex) = InvertedIndex.empty(), maxRowId?: number) {
    this.loadedBase = typeof base === 'function' ? null : base;
    this.loadBase = typeof base === 'function' ? base : null;
    if (maxRowId !== undefined) this.baseMaxRowId = maxRowId;
  }

  private get base(): InvertedIndex {
    if (!this.loadedBase) {
      this.loadedBase = this.loadBase!();
      this.loadBase = null;
    }
    return this.loadedBase;
  }

  private set base(index: InvertedIndex) {
    this.loadedBase = index;
    this.loadBase = null;
  }

  get baseIndex(): InvertedIndex {
    return this.base;
  }

  /** The base if it was read already (memory estimates must not read it). */
  get baseIndexIfLoaded(): InvertedIndex | null {
    return this.loadedBase;
  }

  /** Rows currently held in the delta (a hint for when to compact). */
  get deltaRowCount(): number {
    return this.deltaRows.size;
  }

  get deletedBaseRowCount(): number {
    return this.tombstoneCount;
  }

  /** Lexemes of rows written since the base was built, sorted (some may also be in the base). */
  get addedLexemes(): readonly string[] {
    return this.deltaLexemes();
  }

  /** Deletes a row (a no-op for unknown rows). */
  removeRow(rowId: number): void {
    const lexemes = this.deltaRows.get(rowId);
    if (lexemes) {
      for (const lexeme of lexemes) {
        const term = this.deltaTerms.get(lexeme)!;
        const at = term.rows.indexOf(rowId);
        term.rows.splice(at, 1);
        term.tfs.splice(at, 1);
        this.deltaPostings--;
        if (term.rows.length === 0) {
          this.deltaTerms.delete(lexeme);
          this.sortedLexemes = null;
        }
      }
      this.deltaRows.delete(rowId);
    }
    // Inserts of new rows (ids above every base row) must not cost a tombstone: any tombstone
    // makes reads filter the base postings.
    if (rowId <= this.maxBaseRowId()) this.setTombstone(rowId);
  }

  private maxBaseRowId(): number {
    if (this.baseMaxRowId < 0) {
      let max = 0;
      const rows = this.base.rowIds;
      for (let k = 0; k < rows.length; k++) if (rows[k]! > max) max = rows[k]!;
      this.baseMaxRowId = max;
    }
    return this.baseMaxRowId;
  }

  /** Adds a row, replacing any previous content of the same row id (update = remove + add).
   * `lexemes` as documentLexemes returns them: repeats count as term frequency. */
  addRow(rowId: number, lexemes: readonly string[]): void {
    if (!Number.isInteger(rowId) || rowId <= 0 || rowId > 0xffffffff) throw new RangeError(`bad row id ${rowId}`);
    this.removeRow(rowId);
    if (lexemes.length === 0) return;
    const tf = new Map<string, number>();
    for (const lexeme of lexemes) tf.set(lexeme, (tf.get(lexeme) ?? 0) + 1);
    for (const [lexeme, count] of tf) {
      let term = this.deltaTerms.get(lexeme);
      if (!term) {
        term = { rows: [], tfs: [], sorted: true };
        this.deltaTerms.set(lexeme, term);
        this.sortedLexemes = null;
      }
      if (term.rows.length > 0 && term.rows[term.rows.length - 1]! > rowId) term.sorted = false;
      term.rows.push(rowId);
      term.tfs.push(Math.min(count, MAX_TF));
      this.deltaPostings++;
    }
    this.deltaRows.set(rowId, [...tf.keys()]);
  }

  lookup(lexeme: string): PostingList {
    const i = this.base.termIndex(lexeme);
    const base = i < 0 ? EMPTY_POSTINGS : this.liveBase(this.base.postings(i));
    const delta = this.deltaTerms.get(lexeme);
    return delta ? mergePostings(base, this.sortedDelta(delta)) : base;
  }

  lookupPrefix(prefix: string): PostingList[] {
    const [lo, hi] = this.base.prefixRange(prefix);
    const lists = this.base.termsPostings(lo, hi); // read in one piece when they are in the file
    const lexemes = this.deltaLexemes();
    let j = lowerBound(lexemes, prefix);
    const res: PostingList[] = [];
    const push = (list: PostingList): void => {
      if (list.rowIds.length > 0) res.push(list);
    };
    for (let i = lo; i < hi; i++) {
      // Delta-only lexemes sorting before this base term come first.
      while (j < lexemes.length && lexemes[j]!.startsWith(prefix) && this.base.compareTerm(i, lexemes[j]!) > 0) {
        push(this.sortedDelta(this.deltaTerms.get(lexemes[j++]!)!));
      }
      const base = this.liveBase(lists[i - lo]!);
      if (j < lexemes.length && this.base.compareTerm(i, lexemes[j]!) === 0) {
        push(mergePostings(base, this.sortedDelta(this.deltaTerms.get(lexemes[j++]!)!)));
      } else {
        push(base);
      }
    }
    while (j < lexemes.length && lexemes[j]!.startsWith(prefix)) push(this.sortedDelta(this.deltaTerms.get(lexemes[j++]!)!));
    return res;
  }

  /** The base's contiguous prefix slice when nothing in the delta or tombstones affects it. */
  lookupPrefixSlice(prefix: string): PostingList | null {
    if (this.tombstoneCount > 0) return null;
    const lexemes = this.deltaLexemes();
    const j = lowerBound(lexemes, prefix);
    if (j < lexemes.length && lexemes[j]!.startsWith(prefix)) return null;
    return this.base.lookupPrefixSlice(prefix);
  }

  /** Merges base and delta into a new immutable index (O(total postings)) and continues with
   * it as the base: the delta and the tombstones are cleared. */
  compact(): InvertedIndex {
    const base = this.base;
    void base.rowIds; // every posting is copied: read them whole, not term by term
    const lexemes = this.deltaLexemes();
    const maxTerms = base.termCount + lexemes.length;
    const offsets = new Uint32Array(maxTerms + 1);
    const rowIds = new Uint32Array(base.postingCount + this.deltaPostings);
    const tfs = new Uint8Array(rowIds.length);
    // Term strings: base terms are copied as UTF-8 bytes, delta-only terms encoded afterwards.
    const source: number[] = []; // >= 0: base term index; < 0: -(delta index) - 1
    let n = 0;
    let p = 0;
    const emit = (list: PostingList, from: number): void => {
      if (list.rowIds.length === 0) return;
      rowIds.set(list.rowIds, p);
      tfs.set(list.tfs, p);
      p += list.rowIds.length;
      offsets[++n] = p;
      source.push(from);
    };
    let i = 0;
    let j = 0;
    while (i < base.termCount || j < lexemes.length) {
      const cmp = i >= base.termCount ? 1 : j >= lexemes.length ? -1 : base.compareTerm(i, lexemes[j]!);
      if (cmp < 0) {
        emit(this.liveBase(base.postings(i)), i);
        i++;
      } else if (cmp > 0) {
        emit(this.sortedDelta(this.deltaTerms.get(lexemes[j]!)!), -j - 1);
        j++;
      } else {
        emit(mergePostings(this.liveBase(base.postings(i)), this.sortedDelta(this.deltaTerms.get(lexemes[j]!)!)), i);
        i++;
        j++;
      }
    }
    const { termBytes, termOffsets } = this.buildTerms(source, lexemes);
    const compacted = new InvertedIndex(termBytes, termOffsets, offsets.slice(0, n + 1), rowIds.slice(0, p), tfs.slice(0, p));
    this.base = compacted;
    this.tombstones = new Uint32Array(0);
    this.tombstoneCount = 0;
    this.deltaRows.clear();
    this.deltaTerms.clear();
    this.deltaPostings = 0;
    this.sortedLexemes = null;
    this.baseMaxRowId = -1;
    return compacted;
  }

  private buildTerms(source: readonly number[], lexemes: readonly string[]): { termBytes: Uint8Array; termOffsets: Uint32Array } {
    const deltaOnly = source.filter((s) => s < 0).map((s) => -s - 1);
    const encoded = encodeTerms(lexemes, deltaOnly);
    const base = this.base;
    const termOffsets = new Uint32Array(source.length + 1);
    for (let k = 0, d = 0; k < source.length; k++) {
      const s = source[k]!;
      const len = s >= 0 ? base.termOffsets[s + 1]! - base.termOffsets[s]! : encoded.termOffsets[d + 1]! - encoded.termOffsets[d++]!;
      termOffsets[k + 1] = termOffsets[k]! + len;
    }
    const termBytes = new Uint8Array(termOffsets[source.length]!);
    for (let k = 0, d = 0; k < source.length; k++) {
      const s = source[k]!;
      const bytes =
        s >= 0
          ? base.termBytes.subarray(base.termOffsets[s], base.termOffsets[s + 1])
          : encoded.termBytes.subarray(encoded.termOffsets[d], encoded.termOffsets[++d]);
      termBytes.set(bytes, termOffsets[k]);
    }
    return { termBytes, termOffsets };
  }

  private setTombstone(rowId: number): void {
    const word = rowId >>> 5;
    if (word >= this.tombstones.length) {
      const grown = new Uint32Array(Math.max(word + 1, this.tombstones.length * 2));
      grown.set(this.tombstones);
      this.tombstones = grown;
    }
    const mask = 1 << (rowId & 31);
    if ((this.tombstones[word]! & mask) === 0) {
      this.tombstones[word] = this.tombstones[word]! | mask;
      this.tombstoneCount++;
    }
  }

  private isDead(rowId: number): boolean {
    const word = rowId >>> 5;
    return word < this.tombstones.length && (this.tombstones[word]! & (1 << (rowId & 31))) !== 0;
  }

  /** A base posting list without tombstoned rows (the list itself when none is dead). */
  private liveBase(list: PostingList): PostingList {
    if (this.tombstoneCount === 0) return list;
    const { rowIds, tfs } = list;
    let dead = 0;
    for (let k = 0; k < rowIds.length; k++) if (this.isDead(rowIds[k]!)) dead++;
    if (dead === 0) return list;
    const outRows = new Uint32Array(rowIds.length - dead);
    const outTfs = new Uint8Array(outRows.length);
    for (let k = 0, o = 0; k < rowIds.length; k++) {
      if (this.isDead(rowIds[k]!)) continue;
      outRows[o] = rowIds[k]!;
      outTfs[o++] = tfs[k]!;
    }
    return { rowIds: outRows, tfs: outTfs };
  }

  private sortedDelta(term: DeltaTerm): PostingList {
    if (!term.sorted) {
      const order = term.rows.map((_, k) => k).sort((a, b) => term.rows[a]! - term.rows[b]!);
      term.rows = order.map((k) => term.rows[k]!);
      term.tfs = order.map((k) => term.tfs[k]!);
      term.sorted = true;
    }
    return { rowIds: Uint32Array.from(term.rows), tfs: Uint8Array.from(term.tfs) };
  }

  private deltaLexemes(): string[] {
    if (this.sortedLexemes === null) this.sortedLexemes = [...this.deltaTerms.keys()].sort();
    return this.sortedLexemes;
  }
}
