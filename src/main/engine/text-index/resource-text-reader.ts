import type { Column } from '../column-store/column';
import type { TableStore } from '../column-store/table-store';
import {
  mergePostings,
  type InvertedIndex,
  type MutableTextIndex,
  type PostingList,
  type TextIndexReader,
  type TextSearchLanguage,
} from '../fts';
import { columnTerms, scanColumnTerms, type ColumnTerms } from './column-terms';
import { FoldedLexicon } from './folded-lexicon';
import { distinctSorted, unionMany } from '../fts/posting-ops';
import type { StoredColumnTerms } from './stored-column-terms';

/** Folded keys of an immutable index, built once per index (one pass over its term bytes). */
const baseLexicons = new WeakMap<InvertedIndex, FoldedLexicon>();

/**
 * What query evaluation and ranking read: the inverted index for the indexed columns, plus
 * the other columns' dictionaries (column-terms.ts). Dictionary lookups are remembered until
 * the next write, since evaluation and ranking ask for the same lexeme twice.
 */
export class ResourceTextReader implements TextIndexReader {
  private readonly cache = new Map<string, PostingList | null>();
  private cachedVersion = -1;
  private readonly terms = new Map<Column, ColumnTerms>();
  private addedLexicon: { version: number; lexicon: FoldedLexicon } | null = null;

  constructor(
    private readonly index: MutableTextIndex,
    private readonly store: TableStore,
    private readonly language: TextSearchLanguage,
    private readonly indexed: ReadonlySet<string>,
    /** Tables written at import (stored-column-terms.ts), by column id; a column without one is tokenized. */
    private readonly stored: ReadonlyMap<string, () => StoredColumnTerms> = new Map(),
  ) {}

  private dictionaryColumns(): { column: Column; terms: ColumnTerms }[] {
    return this.store.columns
      .filter((c) => !this.indexed.has(c.id))
      .map((column) => {
        let terms = this.terms.get(column);
        if (!terms) this.terms.set(column, (terms = columnTerms(column, this.language, this.stored.get(column.id))));
        return { column, terms };
      });
  }

  private scan(find: (terms: ColumnTerms) => Uint8Array | null): PostingList | null {
    const matches: { column: Column; table: Uint8Array }[] = [];
    for (const { column, terms } of this.dictionaryColumns()) {
      const table = find(terms);
      if (table) matches.push({ column, table });
    }
    return scanColumnTerms(this.store, matches);
  }

  private remembered(key: string, compute: () => PostingList | null): PostingList | null {
    if (this.cachedVersion !== this.store.version) {
      this.cache.clear();
      this.cachedVersion = this.store.version;
    }
    if (!this.cache.has(key)) {
      if (this.cache.size > 64) this.cache.clear();
      this.cache.set(key, compute());
    }
    return this.cache.get(key)!;
  }

  /**
   * A word's postings from the index, remembered until the current task ends: a q's evaluation
   * and its ranking read the same words one after the other, and a common word's list can be
   * larger than the index's postings cache (16 MB; 5 million rows of `servizio` at 10M rows),
   * so it was read from the file and checked twice. Nothing is kept past the task, so this
   * holds no memory between requests.
   */
  private readonly thisTask = new Map<string, PostingList>();

  private indexLookup(lexeme: string): PostingList {
    if (this.thisTask.size === 0) setImmediate(() => this.thisTask.clear());
    const key = `${this.store.version}\u0000${lexeme}`;
    let list = this.thisTask.get(key);
    if (!list) this.thisTask.set(key, (list = this.index.lookup(lexeme)));
    return list;
  }

  lookup(lexeme: string): PostingList {
    const words = this.indexLookup(lexeme);
    const fromDictionaries = this.remembered(`=${lexeme}`, () => this.scan((t) => t.exact(lexeme)));
    return fromDictionaries ? mergePostings(words, fromDictionaries) : words;
  }

  lookupPrefix(prefix: string): PostingList[] {
    const fromDictionaries = this.remembered(`*${prefix}`, () => this.scan((t) => t.prefix(prefix)));
    const words = this.index.lookupPrefix(prefix);
    return fromDictionaries ? [...words, fromDictionaries] : words;
  }

  /**
   * Rows (ascending) holding a lexeme a folded prefix reaches (search as you type): the literal
   * prefix lookup plus the lexemes whose accent-folded form, or a word inside them after
   * punctuation, starts with it (folded-lexicon.ts), in the index and in the dictionary-searched
   * columns.
   */
  foldedPrefixRows(foldedPrefix: string): Uint32Array {
    const slice = this.index.lookupPrefixSlice(foldedPrefix);
    const lists = slice ? [distinctSorted(slice.rowIds)] : this.index.lookupPrefix(foldedPrefix).map((p) => p.rowIds);
    for (const lexeme of this.indexLexicons().flatMap((l) => l.matching(foldedPrefix))) {
      if (!lexeme.startsWith(foldedPrefix)) lists.push(this.index.lookup(lexeme).rowIds);
    }
    const fromDictionaries = this.remembered(`~${foldedPrefix}`, () => this.scan((t) => t.foldedPrefix(foldedPrefix)));
    if (fromDictionaries) lists.push(fromDictionaries.rowIds);
    return unionMany(lists);
  }

  /** Rows (ascending) holding a lexeme with exactly this folded key (FoldedLexicon.exact). */
  foldedKeyRows(folded: string): Uint32Array {
    const lists = [...new Set(this.indexLexicons().flatMap((l) => l.exact(folded)))].map((lexeme) => this.index.lookup(lexeme).rowIds);
    const fromDictionaries = this.remembered(`^${folded}`, () => this.scan((t) => t.foldedKey(folded)));
    if (fromDictionaries) lists.push(fromDictionaries.rowIds);
    return unionMany(lists);
  }

  /** The folded keys of the index: its base (built once per base) and the rows written since. */
  private indexLexicons(): FoldedLexicon[] {
    const base = this.index.baseIndex;
    let baseLexicon = baseLexicons.get(base);
    if (!baseLexicon) baseLexicons.set(base, (baseLexicon = FoldedLexicon.ofIndex(base)));
    if (this.addedLexicon?.version !== this.store.version) {
      this.addedLexicon = { version: this.store.version, lexicon: FoldedLexicon.of(this.index.addedLexemes) };
    }
    return [baseLexicon, this.addedLexicon.lexicon];
  }

  lookupPrefixSlice(prefix: string): PostingList | null {
    // The index's contiguous slice holds only the indexed columns; use it when the others have nothing.
    const fromDictionaries = this.remembered(`*${prefix}`, () => this.scan((t) => t.prefix(prefix)));
    return fromDictionaries ? null : this.index.lookupPrefixSlice(prefix);
  }
}
