import type { TableStore } from '../column-store/table-store';
import { UnsortableTypeError } from '../column-store/sort-order';
import type { FieldType } from '../field-types';
import { andPredicates, compileFilter, MATCH_ALL, type RowPredicate } from './column-predicates';
import { columnTextQuery, type ResourceTextIndex, rowTextQuery } from './full-text';
import { invalidQuery } from './invalid-query';
import { matchRows } from './match-rows';
import type { OutputField, SearchOutcome, SearchRequest } from './search-request';
import { columnKey, idKey, scoreKeyDescending, sortByKeys, type RowKey } from './sort-rows';
import { type SchemaColumn, resolveSearch, type SortClause } from './validate-search';
import { type OutputColumn, writeRecords } from './write-records';
import type { TextSearchLanguage } from '../fts';

/** What a search needs of an open resource. */
export interface SearchableResource {
  readonly id: string;
  readonly fields: readonly { id: string; type: FieldType; info?: Record<string, unknown> }[];
  readonly store: TableStore;
  readonly text: ResourceTextIndex;
  readonly ftsLanguage: TextSearchLanguage;
}

/** Scores per matched row, by `_id`, for rank output columns and rank ordering. */
type ScoreOf = (rowId: number) => number;

/**
 * datastore_search over the column store: validate against the columns, find the matching
 * rows (full-text postings and/or a column scan), count, order, page, write the records.
 */
export function executeSearch(req: SearchRequest, resource: SearchableResource): SearchOutcome {
  const { store } = resource;
  const schema: SchemaColumn[] = resource.fields.map((f) => ({ id: f.id, isArray: f.type.storage === 'array' }));
  const plan = resolveSearch(req, schema, resource.ftsLanguage);

  let predicate: RowPredicate = plan.filter ? compileFilter(plan.filter, store) : MATCH_ALL;
  const scores = new Map<string, ScoreOf>();
  let candidates: Uint32Array | null = null;
  let rowQuery: ReturnType<typeof rowTextQuery> | null = null;
  if (plan.rowQuery !== null) {
    rowQuery = rowTextQuery(plan.rowQuery, req.plain, plan.language);
    candidates = resource.text.match(rowQuery);
  }
  for (const { column, text } of plan.columnQueries) {
    const cq = columnTextQuery(store.column(column)!, text, req.plain, plan.language);
    predicate = andPredicates(predicate, { kind: 'tests', tests: [cq.test] });
    scores.set(`rank ${column}`, (rowId) => cq.scoreByCode[cq.test.column.codes[rowId]!]!);
  }

  let matched = matchRows(predicate, store, candidates);
  if (rowQuery) {
    const rowScores = resource.text.rank(rowQuery, matched);
    const byRow = new Map<number, number>();
    for (let i = 0; i < matched.length; i++) byRow.set(matched[i]!, rowScores[i]!);
    scores.set('rank', (rowId) => byRow.get(rowId) ?? 0);
  }

  const columns = outputColumns(plan.outputFields, resource, scores);
  if (req.distinct) matched = distinctRows(matched, columns);
  const total = matched.length;

  const rankOrder = plan.rowQuery !== null ? ['rank'] : plan.columnQueries.map((c) => `rank ${c.column}`);
  // DISTINCT without a sort has no ORDER BY in CKAN; first-seen order stands in for it.
  const ordered = orderRows(matched, store, plan.sort, req.distinct ? [] : rankOrder, scores);
  const page = ordered.subarray(Math.min(req.offset, ordered.length), Math.min(req.offset + req.limit, ordered.length));

  const fields: OutputField[] = columns.map((c) => ({ id: c.id, type: c.typeName, ...(c.info ? { info: c.info } : {}) }));
  const written = writeRecords(page, columns, req.recordsFormat);
  const sortedById = plan.sort === null ? plan.rowQuery === null && !plan.columnQueries.length && !req.distinct
    : plan.sort.length === 1 && plan.sort[0]!.field === '_id';
  const descending = plan.sort?.[0]?.descending ?? false;
  return {
    resourceId: resource.id,
    fields,
    records: written,
    recordsAreText: req.recordsFormat === 'csv' || req.recordsFormat === 'tsv',
    recordCount: page.length,
    ...(req.includeTotal ? { total } : {}),
    ...(req.includeNextPage && sortedById && page.length
      ? { nextPage: { _id: { [descending ? 'lt' : 'gt']: page[page.length - 1]! } } } : {}),
  };
}

function outputColumns(ids: readonly string[], resource: SearchableResource, scores: Map<string, ScoreOf>): OutputColumn[] {
  return ids.map((id): OutputColumn => {
    if (id === '_id') return { id, typeName: 'int', kind: 'id' };
    const score = scores.get(id);
    if (score && id.startsWith('rank')) return { id, typeName: 'float', kind: 'score', score };
    const field = resource.fields.find((f) => f.id === id)!;
    return { id, typeName: field.type.name, kind: 'column', column: resource.store.column(id)!, info: field.info };
  });
}

/** SELECT DISTINCT over the output columns; keeps the first row of each distinct tuple. */
function distinctRows(rows: Uint32Array, columns: readonly OutputColumn[]): Uint32Array {
  if (columns.some((c) => c.kind === 'id')) return rows;
  const canonical = columns.map((c) => (c.kind === 'column' ? c.column.canonicalCodes() : null));
  const seen = new Set<string>();
  const keep: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const key = columns.map((c, k) => (c.kind === 'column' ? canonical[k]![c.column.codes[r]!] : c.kind === 'score' ? c.score(r) : r)).join('\u0001');
    if (!seen.has(key)) {
      seen.add(key);
      keep.push(r);
    }
  }
  return Uint32Array.from(keep);
}

function orderRows(
  rows: Uint32Array, store: TableStore, sort: readonly SortClause[] | null, rankOrder: readonly string[],
  scores: Map<string, ScoreOf>,
): Uint32Array {
  if (sort) {
    const keys: RowKey[] = sort.map((clause) => {
      if (clause.field === '_id') return idKey(rows, clause.descending);
      const column = store.column(clause.field)!;
      let ranks: Uint32Array;
      try {
        ranks = column.sortRanks();
      } catch (err) {
        if (err instanceof UnsortableTypeError) throw invalidQuery(err.message, `ORDER BY "${clause.field}"`);
        throw err;
      }
      return columnKey(rows, column.codes, ranks, clause.descending, clause.nullsFirst);
    });
    return sortByKeys(rows, keys);
  }
  if (rankOrder.length) {
    // Rank descending; CKAN adds no tie-breaker, Deskstore keeps `_id` order among equals.
    return sortByKeys(rows, rankOrder.map((name) => {
      const score = scores.get(name)!;
      const values = new Float64Array(rows.length);
      for (let i = 0; i < rows.length; i++) values[i] = score(rows[i]!);
      return scoreKeyDescending(values);
    }));
  }
  return rows;
}
