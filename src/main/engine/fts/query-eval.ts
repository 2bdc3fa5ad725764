// Evaluates a tsquery over the inverted index: sorted posting lists combined with galloping
// intersections (AND), merges (OR) and complements against the live rows (NOT).
//
// Phrases need word positions, which the index does not keep. A phrase is therefore answered
// with a superset (the rows having every non-negated operand) and marked for verification.
// To keep NOT correct around such approximations every node yields two sets, sure ⊆ maybe:
// rows that certainly match and rows that may match; NOT swaps them (sure(!x) = all - maybe(x)).
// Without phrases both sets are the same array and nothing needs verification.

import { EMPTY_ROWS, difference, distinctSorted, intersectMany, unionMany } from './posting-ops';
import type { RowUniverse, TextIndexReader } from './text-index-reader';
import type { TsQuery } from './tsquery';

export interface QueryEvaluation {
  /** Ascending row ids that may match; exact when `verify` is empty. */
  candidates: Uint32Array;
  /** Ascending subset of `candidates` to confirm with matchesPhrase(query, lexemes, positions). */
  verify: Uint32Array;
}

interface Sets {
  sure: Uint32Array;
  maybe: Uint32Array; // === sure when exact
}

class Evaluator {
  private live: Uint32Array | null = null;

  constructor(
    private readonly source: TextIndexReader,
    private readonly universe: RowUniverse,
  ) {}

  all(): Uint32Array {
    if (this.live === null) this.live = this.universe.liveRowIds();
    return this.live;
  }

  termRows(lexeme: string, prefix: boolean): Uint32Array {
    if (!prefix) return this.source.lookup(lexeme).rowIds;
    const slice = this.source.lookupPrefixSlice?.(lexeme);
    if (slice) return distinctSorted(slice.rowIds);
    return unionMany(this.source.lookupPrefix(lexeme).map((p) => p.rowIds));
  }

  eval(q: TsQuery): Sets {
    switch (q.type) {
      case 'empty':
        return { sure: EMPTY_ROWS, maybe: EMPTY_ROWS };
      case 'term': {
        const rows = this.termRows(q.lexeme, q.prefix);
        return { sure: rows, maybe: rows };
      }
      case 'not': {
        const inner = this.eval(q.item);
        const sure = difference(this.all(), inner.maybe);
        return { sure, maybe: inner.sure === inner.maybe ? sure : difference(this.all(), inner.sure) };
      }
      case 'and':
        return this.evalAnd(q.items);
      case 'or': {
        const parts = q.items.map((item) => this.eval(item));
        const sure = unionMany(parts.map((p) => p.sure));
        const exact = parts.every((p) => p.sure === p.maybe);
        return { sure, maybe: exact ? sure : unionMany(parts.map((p) => p.maybe)) };
      }
      case 'phrase': {
        const superset = this.phraseSuperset(q);
        return { sure: EMPTY_ROWS, maybe: superset ?? this.all() };
      }
    }
  }

  /** AND: intersect the positive operands, subtract the negated ones (no complement needed). */
  private evalAnd(items: readonly TsQuery[]): Sets {
    const positive: Sets[] = [];
    const negative: Sets[] = [];
    for (const item of items) {
      if (item.type === 'not') negative.push(this.eval(item.item));
      else positive.push(this.eval(item));
    }
    let sure: Uint32Array;
    let maybe: Uint32Array;
    if (positive.length === 0) {
      sure = maybe = this.all();
    } else {
      sure = intersectMany(positive.map((p) => p.sure));
      maybe = positive.every((p) => p.sure === p.maybe) ? sure : intersectMany(positive.map((p) => p.maybe));
    }
    for (const neg of negative) {
      const exact = sure === maybe && neg.sure === neg.maybe;
      sure = difference(sure, neg.maybe);
      maybe = exact ? sure : difference(maybe, neg.sure);
    }
    return { sure, maybe };
  }

  /** Rows that can possibly satisfy a phrase subtree; null means "any row" (e.g. `!a <-> !b`). */
  private phraseSuperset(q: TsQuery): Uint32Array | null {
    switch (q.type) {
      case 'empty':
        return EMPTY_ROWS;
      case 'term':
        return this.termRows(q.lexeme, q.prefix);
      case 'not':
        return null; // a negated operand can match where its operand is absent
      case 'or': {
        const parts: Uint32Array[] = [];
        for (const item of q.items) {
          const part = this.phraseSuperset(item);
          if (part === null) return null;
          parts.push(part);
        }
        return unionMany(parts);
      }
      case 'and':
      case 'phrase': {
        const parts = q.items.map((item) => this.phraseSuperset(item)).filter((p): p is Uint32Array => p !== null);
        return parts.length === 0 ? null : intersectMany(parts);
      }
    }
  }
}

/** Candidate rows plus the subset whose match depends on word positions. */
export function evaluateQuery(query: TsQuery, source: TextIndexReader, universe: RowUniverse): QueryEvaluation {
  const { sure, maybe } = new Evaluator(source, universe).eval(query);
  // Results may be views into the index: hand out copies the caller can keep or modify.
  const candidates = maybe.slice();
  const verify = sure === maybe ? EMPTY_ROWS.slice() : difference(maybe, sure).slice();
  return { candidates, verify };
}

/** Ascending matching row ids; a superset when the query has phrases (see evaluateQuery). */
export function evaluate(query: TsQuery, source: TextIndexReader, universe: RowUniverse): Uint32Array {
  return evaluateQuery(query, source, universe).candidates;
}
