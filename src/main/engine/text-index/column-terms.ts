import type { Column } from '../column-store/column';
import type { TableStore } from '../column-store/table-store';
import { documentLexemes, lowerBound, type PostingList, type TextSearchLanguage } from '../fts';
import { isNumericStorage } from '../field-types';
import type { StoredValue } from '../values/coerce';
import { documentText } from '../values/document-text';
import { canonicalDecimal, exactFromCanonical, exactText } from '../values/exact-number';
import { FoldedLexicon } from './folded-lexicon';

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

/** Other repeating columns: lexeme → codes, built from the dictionary and extended as it grows. */
class DictionaryTerms implements ColumnTerms {
  private readonly byLexeme = new Map<string, number[]>(); // code, tf, code, tf, ...
  private sorted: string[] | null = null;
  private folded: FoldedLexicon | null = null;
  private tokenizedUpTo = 1;

  constructor(
    private readonly column: Column,
    private readonly language: TextSearchLanguage,
  ) {}

  private refresh(): void {
    const values = this.column.values;
    if (this.tokenizedUpTo === values.length) return;
    for (let code = this.tokenizedUpTo; code < values.length; code++) {
      const lexemes = documentLexemes(documentText(values[code]!, this.column.type.storage), this.language);
      const counts = new Map<string, number>();
      for (const l of lexemes) counts.set(l, (counts.get(l) ?? 0) + 1);
      for (const [l, tf] of counts) {
        let list = this.byLexeme.get(l);
        if (!list) this.byLexeme.set(l, (list = []));
        list.push(code, Math.min(tf, 255));
      }
    }
    this.tokenizedUpTo = values.length;
    this.sorted = null;
    this.folded = null;
  }

  private table(lists: number[][]): CodeFrequencies | null {
    if (!lists.length) return null;
    const table = new Uint8Array(this.column.values.length);
    for (const list of lists) for (let i = 0; i < list.length; i += 2) table[list[i]!] = Math.min(255, table[list[i]!]! + list[i + 1]!);
    return table;
  }

  exact(lexeme: string): CodeFrequencies | null {
    this.refresh();
    const list = this.byLexeme.get(lexeme);
    return list ? this.table([list]) : null;
  }

  private prefixLists(prefix: string): number[][] {
    this.refresh();
    this.sorted ??= [...this.byLexeme.keys()].sort();
    const lists: number[][] = [];
    for (let i = lowerBound(this.sorted, prefix); i < this.sorted.length && this.sorted[i]!.startsWith(prefix); i++)
      lists.push(this.byLexeme.get(this.sorted[i]!)!);
    return lists;
  }

  prefix(prefix: string): CodeFrequencies | null {
    return this.table(this.prefixLists(prefix));
  }

  foldedPrefix(foldedPrefix: string): CodeFrequencies | null {
    const lists = this.prefixLists(foldedPrefix);
    for (const lexeme of this.foldedLexicon().matching(foldedPrefix)) {
      if (!lexeme.startsWith(foldedPrefix)) lists.push(this.byLexeme.get(lexeme)!);
    }
    return this.table(lists);
  }

  foldedKey(folded: string): CodeFrequencies | null {
    return this.table(
      this.foldedLexicon()
        .exact(folded)
        .map((lexeme) => this.byLexeme.get(lexeme)!),
    );
  }

  private foldedLexicon(): FoldedLexicon {
    this.refresh();
    this.folded ??= FoldedLexicon.of(this.byLexeme.keys());
    return this.folded;
  }
}

export function columnTerms(column: Column, language: TextSearchLanguage): ColumnTerms {
  return isNumericStorage(column.type.storage) ? new NumericTerms(column) : new DictionaryTerms(column, language);
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
