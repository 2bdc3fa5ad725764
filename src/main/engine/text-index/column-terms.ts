import type { Column } from '../column-store/column';
import type { TableStore } from '../column-store/table-store';
import { documentLexemes, lowerBound, type PostingList, type TextSearchLanguage } from '../fts';
import { isNumericStorage } from '../field-types';
import type { StoredValue } from '../values/coerce';
import { documentText } from '../values/document-text';
import { canonicalDecimal, exactFromCanonical, exactText } from '../values/exact-number';
import { FoldedLexicon } from './folded-lexicon';
import type { StoredColumnTerms } from './stored-column-terms';

/**
 * Full text for columns whose values repeat (regions, categories, dates, codes) and for
 * numeric columns, answered from the column store instead of the row-level inverted index.
 * Each distinct value is tokenized once; a query lexeme maps to the codes whose value holds
 * it, and one scan of the column's codes turns those into rows. This keeps the inverted index
 * to mostly-unique text (descriptions, names), which is what makes an import fast: a region
 * column would otherwise add a million postings that the column store already encodes.
 */

/** Which codes of a column contain a lexeme, and how many times (tf), indexed by code. */
type CodeFrequencies = Uint8Array;

export interface ColumnTerms {
  exact(lexeme: string): CodeFrequencies | null;
  prefix(prefix: string): CodeFrequencies | null;
  /** prefix() plus the lexemes a folded prefix reaches through their accents or inner punctuation (folded-lexicon.ts). */
  foldedPrefix(foldedPrefix: string): CodeFrequencies | null;
  /** The lexemes with exactly this folded key (FoldedLexicon.exact). */
  foldedKey(folded: string): CodeFrequencies | null;
}

const NUMBER_LEXEME = /^-?(?:\d+(?:\.\d+)?|\.\d+)(?:e[+-]?\d+)?$/i;

/**
 * Numbers: a cell's text is its one lexeme (`2800000`, `53.56`, `-5`; numeric keeps its
 * scale, `2.50`, as PostgreSQL's to_tsvector sees it).
 */
class NumericTerms implements ColumnTerms {
  constructor(private readonly column: Column) {}

  exact(lexeme: string): CodeFrequencies | null {
    if (!NUMBER_LEXEME.test(lexeme)) return null;
    const stored = this.storedForm(lexeme);
    if (stored === null) return null;
    const codes = this.column.codesOf(stored);
    if (!codes.length) return null;
    const table = new Uint8Array(this.column.values.length);
    for (const code of codes) table[code] = 1;
    return table;
  }

  /** The stored value whose text is exactly `lexeme`, if a value can have that text. */
  private storedForm(lexeme: string): StoredValue {
    if (this.column.type.storage === 'exact') {
      const canonical = canonicalDecimal(lexeme);
      return canonical === lexeme ? exactFromCanonical(canonical) : null;
    }
    const value = Number(lexeme);
    return Number.isFinite(value) && String(value) === lexeme.toLowerCase() ? value : null;
  }

  prefix(prefix: string): CodeFrequencies | null {
    if (!/^-?[\d.]/.test(prefix)) return null;
    const table = this.column.truthTable((v) => cellText(v).startsWith(prefix));
    return table.includes(1) ? table : null;
  }

  foldedPrefix(foldedPrefix: string): CodeFrequencies | null {
    return this.prefix(foldedPrefix); // a number's text has no accents
  }

  foldedKey(): CodeFrequencies | null {
    return null; // nor letters after punctuation
  }
}

function cellText(value: StoredValue): string {
  if (value === null) return '';
  return typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : exactText(value);
}

/**
 * Other repeating columns: lexeme → codes. The codes the columns file's table covers
 * (stored-column-terms.ts, written at import) are looked up there; the others (all of them
 * for a file written before the tables, or codes a write added since) are tokenized here once
 * and extended as the dictionary grows. Entries are never removed or changed (column.ts), so
 * a code's lexemes stay true; a value no row holds any more matches no row in the scan.
 */
class DictionaryTerms implements ColumnTerms {
  private readonly byLexeme = new Map<string, number[]>(); // code, tf, code, tf, ...
  private sorted: string[] | null = null;
  private folded: FoldedLexicon | null = null;
  private storedFolded: FoldedLexicon | null = null;
  /** undefined until the first query opens it; null without a usable table. */
  private stored: StoredColumnTerms | null | undefined;
  private tokenizedUpTo = 1;

  constructor(
    private readonly column: Column,
    private readonly language: TextSearchLanguage,
    private readonly openStored?: () => StoredColumnTerms,
  ) {}

  /** Dictionary entries, NULL slot included, without decoding the dictionary. */
  private get entries(): number {
    return this.column.distinctCount + 1;
  }

  private storedTable(): StoredColumnTerms | null {
    if (this.stored === undefined) {
      const table = this.openStored?.() ?? null;
      // A table claiming more entries than the dictionary has is not this column's: tokenize.
      this.stored = table && table.entries >= 1 && table.entries <= this.entries ? table : null;
      this.tokenizedUpTo = this.stored?.entries ?? 1;
    }
    return this.stored;
  }

  private refresh(): void {
    this.storedTable();
    const end = this.entries;
    if (this.tokenizedUpTo === end) return;
    const values = this.column.values;
    for (let code = this.tokenizedUpTo; code < end; code++) {
      const lexemes = documentLexemes(documentText(values[code]!, this.column.type.storage), this.language);
      const counts = new Map<string, number>();
      for (const l of lexemes) counts.set(l, (counts.get(l) ?? 0) + 1);
      for (const [l, tf] of counts) {
        let list = this.byLexeme.get(l);
        if (!list) this.byLexeme.set(l, (list = []));
        list.push(code, Math.min(tf, 255));
      }
    }
    this.tokenizedUpTo = end;
    this.sorted = null;
    this.folded = null;
  }

  /** The codes of these lexemes: tokenized here (`memory`) and from the stored table. */
  private table(memory: readonly string[], stored: readonly PostingList[]): CodeFrequencies | null {
    const lists = memory.flatMap((l) => {
      const list = this.byLexeme.get(l);
      return list ? [list] : [];
    });
    const found = stored.filter((p) => p.rowIds.length > 0);
    if (!lists.length && !found.length) return null;
    const table = new Uint8Array(this.entries);
    for (const list of lists) for (let i = 0; i < list.length; i += 2) table[list[i]!] = Math.min(255, table[list[i]!]! + list[i + 1]!);
    for (const { rowIds: codes, tfs } of found) for (let i = 0; i < codes.length; i++) table[codes[i]!] = Math.min(255, table[codes[i]!]! + tfs[i]!);
    return table;
  }

  exact(lexeme: string): CodeFrequencies | null {
    this.refresh();
    const stored = this.stored?.index.lookup(lexeme);
    return this.table([lexeme], stored ? [stored] : []);
  }

  private memoryPrefix(prefix: string): string[] {
    this.refresh();
    this.sorted ??= [...this.byLexeme.keys()].sort();
    const found: string[] = [];
    for (let i = lowerBound(this.sorted, prefix); i < this.sorted.length && this.sorted[i]!.startsWith(prefix); i++) found.push(this.sorted[i]!);
    return found;
  }

  prefix(prefix: string): CodeFrequencies | null {
    const memory = this.memoryPrefix(prefix);
    return this.table(memory, this.stored?.index.lookupPrefix(prefix) ?? []);
  }

  foldedPrefix(foldedPrefix: string): CodeFrequencies | null {
    const memory = this.memoryPrefix(foldedPrefix);
    const stored = this.stored?.index.lookupPrefix(foldedPrefix) ?? [];
    const { memory: lexicon, stored: storedLexicon } = this.foldedLexicons();
    for (const lexeme of lexicon.matching(foldedPrefix)) if (!lexeme.startsWith(foldedPrefix)) memory.push(lexeme);
    for (const lexeme of storedLexicon.matching(foldedPrefix)) if (!lexeme.startsWith(foldedPrefix)) stored.push(this.stored!.index.lookup(lexeme));
    return this.table(memory, stored);
  }

  foldedKey(folded: string): CodeFrequencies | null {
    const { memory, stored } = this.foldedLexicons();
    return this.table(
      memory.exact(folded),
      stored.exact(folded).map((lexeme) => this.stored!.index.lookup(lexeme)),
    );
  }

  private foldedLexicons(): { memory: FoldedLexicon; stored: FoldedLexicon } {
    this.refresh();
    this.folded ??= FoldedLexicon.of(this.byLexeme.keys());
    const stored = this.stored;
    this.storedFolded ??= stored ? FoldedLexicon.ofIndex(stored.index) : FoldedLexicon.EMPTY;
    return { memory: this.folded, stored: this.storedFolded };
  }
}

/** A column's terms; `stored` opens its table from the columns file, when the file has one. */
export function columnTerms(column: Column, language: TextSearchLanguage, stored?: () => StoredColumnTerms): ColumnTerms {
  return isNumericStorage(column.type.storage) ? new NumericTerms(column) : new DictionaryTerms(column, language, stored);
}

/** Rows whose cells in the given columns hold the term: one pass over the codes. */
export function scanColumnTerms(store: TableStore, matches: readonly { column: Column; table: CodeFrequencies }[]): PostingList | null {
  if (!matches.length) return null;
  const rows: number[] = [];
  const tfs: number[] = [];
  const live = store.live;
  for (let r = 1; r <= store.maxRowId; r++) {
    if (!live[r]) continue;
    let tf = 0;
    for (const m of matches) tf += m.table[m.column.codes[r]!]!;
    if (tf) {
      rows.push(r);
      tfs.push(Math.min(tf, 255));
    }
  }
  return { rowIds: Uint32Array.from(rows), tfs: Uint8Array.from(tfs) };
}
