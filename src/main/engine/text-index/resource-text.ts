import type { TableStore } from '../column-store/table-store';
import { evaluateQuery, matchesPhrase, rankRows, type MutableTextIndex, type TextSearchLanguage, type TsQuery } from '../fts';
import type { ResourceTextIndex } from '../search/full-text';
import { rowDocumentLexemes } from './build-text-index';

/**
 * A resource's full-text index as searches use it. The index keeps no word positions, so
 * phrase queries (`a <-> b`) come back as candidates, confirmed here by re-reading the
 * candidate rows' text from the column store.
 */
export class ResourceText implements ResourceTextIndex {
  constructor(
    private readonly index: MutableTextIndex,
    private readonly store: TableStore,
    private readonly language: TextSearchLanguage,
  ) {}

  match(query: TsQuery): Uint32Array {
    const { candidates, verify } = evaluateQuery(query, this.index, this.store);
    if (verify.length === 0) return candidates;
    const rejected = new Set<number>();
    for (const rowId of verify) {
      if (!matchesPhrase(query, rowDocumentLexemes(this.store, rowId, this.language))) rejected.add(rowId);
    }
    return rejected.size ? candidates.filter((r) => !rejected.has(r)) : candidates;
  }

  rank(query: TsQuery, rowIds: Uint32Array): Float64Array {
    return rankRows(query, this.index, rowIds);
  }
}
