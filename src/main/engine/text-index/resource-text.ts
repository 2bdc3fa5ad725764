import type { TableStore } from '../column-store/table-store';
import {
  evaluateQuery,
  matchesPhrase,
  rankRows,
  tokenizeDocument,
  type MutableTextIndex,
  type TextSearchLanguage,
  type TsQuery,
} from '../fts';
import type { ResourceTextIndex } from '../search/full-text';
import { rowDocumentText } from './build-text-index';
import { ResourceTextReader } from './resource-text-reader';
import type { StoredColumnTerms } from './stored-column-terms';

/**
 * A resource's full-text index as searches use it. The index keeps no word positions, so
 * phrase queries (`a <-> b`) come back as candidates, confirmed here by tokenizing the
 * candidate rows' text (all columns, as PostgreSQL's document) with positions.
 */
export class ResourceText implements ResourceTextIndex {
  private readonly reader: ResourceTextReader;

  constructor(
    index: MutableTextIndex,
    private readonly store: TableStore,
    private readonly language: TextSearchLanguage,
    indexed: ReadonlySet<string>,
    dictionaryTerms: ReadonlyMap<string, () => StoredColumnTerms> = new Map(),
  ) {
    this.reader = new ResourceTextReader(index, store, language, indexed, dictionaryTerms);
  }

  match(query: TsQuery): Uint32Array {
    const { candidates, verify } = evaluateQuery(query, this.reader, this.store);
    if (verify.length === 0) return candidates;
    const rejected = new Set<number>();
    for (const rowId of verify) {
      const doc = tokenizeDocument(this.documentText(rowId), this.language);
      if (!matchesPhrase(query, doc.lexemes, doc.positions)) rejected.add(rowId);
    }
    return rejected.size ? candidates.filter((r) => !rejected.has(r)) : candidates;
  }

  rank(query: TsQuery, rowIds: Uint32Array): Float64Array {
    return rankRows(query, this.reader, rowIds);
  }

  matchFoldedPrefix(foldedPrefix: string): Uint32Array {
    return this.reader.foldedPrefixRows(foldedPrefix);
  }

  matchFoldedKey(folded: string): Uint32Array {
    return this.reader.foldedKeyRows(folded);
  }

  documentText(rowId: number): string {
    return rowDocumentText(this.store, rowId);
  }
}
