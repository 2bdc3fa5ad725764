import type { TableStore } from '../column-store/table-store';
import { rowsInOrder, UnsortableTypeError } from '../column-store/sort-order';
import type { FieldType } from '../field-types';
import type { TextSearchLanguage } from '../fts';
import { andPredicates, compileFilter, MATCH_ALL, type RowPredicate } from './column-predicates';
import { columnTextQuery, type ResourceTextIndex, rowTextQuery } from './full-text';
import { invalidQuery } from './invalid-query';
import { matchRows } from './match-rows';
import { intersect } from '../fts/posting-ops';
import type { CachedOrder, SearchCache } from './search-cache';
import type { OutputField, SearchOutcome, SearchRequest } from './search-request';
import { columnKey, idKey, scoreKeyDescending, sortByKeys, type RowKey } from './sort-rows';
import { topByScore } from './top-scores';
import { matchTypeahead } from './typeahead';
import { type ResolvedSearch, type SchemaColumn, resolveSearch, type SortClause } from './validate-search';
import { type OutputColumn, writeRecords } from './write-records';
import type { CodeArray, Column } from '../column-store/column';

/** What a search needs of an open resource. */
export interface SearchableResource {
  readonly id: string;
  readonly fields: readonly { id: string; type: FieldType; info?: Record<string, unknown> }[];
  readonly store: TableStore;
  readonly text: ResourceTextIndex;
  readonly ftsLanguage: TextSearchLanguage;
  readonly searchCache?: SearchCache;
}

type ScoreOf = (rowId: number) => number;

/**
 * datastore_search over the column store: validate against the columns, find the matching
 * rows (full-text postings and/or a column scan), count, order, page, write the records.
 * The matching-and-ordering part is cached per resource version (search-cache.ts).
 */
export function executeSearch(req: SearchRequest, resource: SearchableResource): SearchOutcome {
  const { store } = resource;
  const schema: SchemaColumn[] = resource.fields.map((f) => ({ id: f.id, isArray: f.type.storage === 'array' }));
  const plan = resolveSearch(req, schema, resource.ftsLanguage);
  const needed = req.offset + req.limit;
  const key = JSON.stringify([
    req.filters ?? null,
    plan.rowQuery,
    plan.columnQueries,
    req.plain,
    plan.language,
    req.distinct,
    req.distinct ? plan.outputFields : null,
    plan.sort,
    req.deskstoreQ ?? null,
  ]);
  let order = resource.searchCache?.get(key, store.version, needed) ?? null;
  if (!order) {
    order = matchAndOrder(plan, req, resource, needed);
    resource.searchCache?.put(key, store.version, order);
  }

  const columns = outputColumns(plan.outputFields, resource, order.scores);
  const page = order.ordered.subarray(Math.min(req.offset, order.ordered.length), Math.min(needed, order.ordered.length));
  const fields: OutputField[] = columns.map((c) => ({ id: c.id, type: c.typeName, ...(c.info ? { info: c.info } : {}) }));
  const sortedById =
    plan.sort === null
      ? plan.rowQuery === null && !plan.columnQueries.length && !req.distinct
      : plan.sort.length === 1 && plan.sort[0]!.field === '_id';
  const descending = plan.sort?.[0]?.descending ?? false;
  return {
    resourceId: resource.id,
    fields,
    records: writeRecords(page, columns, req.recordsFormat, req.writeValues ?? false),
    recordsAreText: req.recordsFormat === 'csv' || req.recordsFormat === 'tsv',
    recordCount: page.length,
    ...(req.includeTotal ? { total: order.total } : {}),
    ...(req.includeNextPage && sortedById && page.length
      ? { nextPage: { _id: { [descending ? 'lt' : 'gt']: page[page.length - 1]! } } }
      : {}),
  };
}

/** Binary search: the position of `rowId` in the ascending `rows`. */
function positionOf(rows: Uint32Array, rowId: number): number {
  let lo = 0;
  let hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = rows[mid]!;
    if (v === rowId) return mid;
    if (v < rowId) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

function matchAndOrder(plan: ResolvedSearch, req: SearchRequest, resource: SearchableResource, needed: number): CachedOrder {
  const { store } = resource;
  let predicate: RowPredicate = plan.filter ? compileFilter(plan.filter, store) : MATCH_ALL;
  let candidates: Uint32Array | null = null;
  const rowQuery = plan.rowQuery !== null ? rowTextQuery(plan.rowQuery, req.plain, plan.language) : null;
  if (rowQuery) candidates = resource.text.match(rowQuery);
  // Search as you type stems with the language the index was built in, whatever `language` says.
  // It narrows the rows like a filter and does not rank them (docs/search.md): ranking the
  // hundreds of thousands of rows a short prefix reaches cost several times the search itself.
  const typeahead = req.deskstoreQ ? matchTypeahead(req.deskstoreQ, resource.ftsLanguage, resource.text) : null;
  if (typeahead) candidates = candidates ? intersect(candidates, typeahead) : typeahead;
  const perCode: { name: string; codes: CodeArray; scoreByCode: Float64Array }[] = [];
  for (const { column, text } of plan.columnQueries) {
    const cq = columnTextQuery(store.column(column)!, text, req.plain, plan.language);
    predicate = andPredicates(predicate, { kind: 'tests', tests: [cq.test] });
    perCode.push({ name: `rank ${column}`, codes: cq.test.column.codes, scoreByCode: cq.scoreByCode });
  }
  const matched = matchRows(predicate, store, candidates);

  // Rank scores aligned with `matched` (ascending `_id`), readable by `_id` for the output.
  const aligned = new Map<string, Float64Array>();
  if (rowQuery) aligned.set('rank', resource.text.rank(rowQuery, matched));
  for (const { name, codes, scoreByCode } of perCode) {
    const values = new Float64Array(matched.length);
    for (let i = 0; i < matched.length; i++) values[i] = scoreByCode[codes[matched[i]!]!]!;
    aligned.set(name, values);
  }
  const scores = new Map<string, ScoreOf>();
  for (const [name, values] of aligned) scores.set(name, (rowId) => values[positionOf(matched, rowId)] ?? 0);

  let rows = matched;
  if (req.distinct) rows = distinctRows(matched, outputColumns(plan.outputFields, resource, scores));
  const rankOrder = plan.rowQuery !== null ? ['rank'] : plan.columnQueries.map((c) => `rank ${c.column}`);
  let ordered = rows;
  let complete = true;
  if (plan.sort) {
    const byColumn = plan.sort.length === 1 ? inColumnOrder(rows, store, plan.sort[0]!) : null;
    ordered =
      byColumn ??
      sortByKeys(
        rows,
        plan.sort.map((clause) => sortKey(rows, store, clause)),
      );
  } else if (rankOrder.length && !req.distinct) {
    // CKAN orders by rank with no tie-breaker; Deskstore keeps `_id` order among equals.
    // Only the first pages are ever shown: pick them (with room to page on) instead of sorting all.
    const pick = Math.max(needed * 2, 1000);
    if (rankOrder.length === 1 && pick < rows.length / 4) {
      ordered = topByScore(rows, aligned.get(rankOrder[0]!)!, pick);
      complete = false;
    } else {
      ordered = sortByKeys(
        rows,
        rankOrder.map((name) => scoreKeyDescending(aligned.get(name)!)),
      );
    }
  }
  // DISTINCT without a sort has no ORDER BY in CKAN; first-seen order stands in for it.
  return { ordered, complete, total: rows.length, scores, weight: ordered.length + matched.length * (1 + aligned.size * 2) };
}

function sortKey(rows: Uint32Array, store: TableStore, clause: SortClause): RowKey {
  if (clause.field === '_id') return idKey(rows, clause.descending);
  const column = store.column(clause.field)!;
  return columnKey(rows, column.codes, sortRanksFor(column, clause), clause.descending, clause.nullsFirst);
}

function sortRanksFor(column: Column, clause: SortClause): Uint32Array {
  try {
    return column.sortRanks();
  } catch (err) {
    if (err instanceof UnsortableTypeError) throw invalidQuery(err.message, `ORDER BY "${clause.field}"`);
    throw err;
  }
}

/**
 * A sort by one column of a quarter of the table or more (the whole table, a broad filter):
 * the rows picked from the column's row order in one pass, the order built at the first such
 * sort and kept until a write (column-store/sort-order.ts). A counting sort of a million keys
 * per query was most of such a query; smaller sets sort their own keys, unless the order is
 * already built. Null when the sort is by `_id` or the set is small.
 */
function inColumnOrder(rows: Uint32Array, store: TableStore, clause: SortClause): Uint32Array | null {
  if (clause.field === '_id' || rows.length < 2) return null;
  const column = store.column(clause.field)!;
  if (!store.hasRowOrder(column) && rows.length < store.rowCount / 4) return null;
  sortRanksFor(column, clause); // an unsortable type fails here, with the query's error
  const order = store.rowOrder(column);
  let member = store.live;
  if (rows.length !== store.rowCount) {
    member = new Uint8Array(store.maxRowId + 1);
    for (let i = 0; i < rows.length; i++) member[rows[i]!] = 1;
  }
  return rowsInOrder(order, member, rows.length, clause.descending, clause.nullsFirst);
}

function outputColumns(ids: readonly string[], resource: SearchableResource, scores: ReadonlyMap<string, ScoreOf>): OutputColumn[] {
  return ids.map((id): OutputColumn => {
    if (id === '_id') return { id, typeName: 'int', kind: 'id' };
    const score = scores.get(id);
    if (score && id.startsWith('rank')) return { id, typeName: 'float', kind: 'score', score };
    const field = resource.fields.find((f) => f.id === id)!;
    return {
      id,
      typeName: field.type.name,
      kind: 'column',
      column: resource.store.column(id)!,
      ...(field.info ? { info: field.info } : {}),
    };
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
    const key = columns
      .map((c, k) => (c.kind === 'column' ? canonical[k]![c.column.codes[r]!] : c.kind === 'score' ? c.score(r) : r))
      .join('\u0001');
    if (!seen.has(key)) {
      seen.add(key);
      keep.push(r);
    }
  }
  return Uint32Array.from(keep);
}
