/**
 * What the table shows (search text, per-column value filters, sort, hidden columns), how it
 * is kept in the route's query (so it survives a reload and a language switch) and how it
 * becomes `datastore_search` parameters. The table, the API panel and the export all use
 * searchPairs(), so they are the same query. Pure: no DOM.
 */
import { prefixTsQuery } from '../../api/tsquery';
import type { ParamPairs } from '../../api/urls';
import { conditionsFromParam, conditionsToParam, mergeConditions, type Condition } from './conditions';

export type FilterValue = string | number | boolean;

export interface SortSpec {
  readonly field: string;
  readonly dir: 'asc' | 'desc';
}

export interface ViewState {
  readonly q: string;
  readonly filters: Readonly<Record<string, readonly FilterValue[]>>;
  readonly sort: readonly SortSpec[];
  readonly hidden: readonly string[];
  /** Conditions by operator (conditions.ts), next to the value filters; none when absent. */
  readonly conditions?: readonly Condition[];
}

export const EMPTY_VIEW: ViewState = { q: '', filters: {}, sort: [], hidden: [] };

function parseJson(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

const isFilterValue = (v: unknown): v is FilterValue => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

export function viewFromQuery(query: URLSearchParams): ViewState {
  const filters: Record<string, FilterValue[]> = {};
  const rawFilters = parseJson(query.get('filters'));
  if (rawFilters && typeof rawFilters === 'object' && !Array.isArray(rawFilters)) {
    for (const [field, values] of Object.entries(rawFilters)) {
      const list = (Array.isArray(values) ? values : [values]).filter(isFilterValue);
      if (list.length) filters[field] = list;
    }
  }
  const rawSort = parseJson(query.get('sort'));
  const sort = Array.isArray(rawSort)
    ? rawSort.filter((s): s is [string, string] => Array.isArray(s) && typeof s[0] === 'string')
      .map(([field, dir]) => ({ field, dir: dir === 'desc' ? 'desc' as const : 'asc' as const }))
    : [];
  const rawHidden = parseJson(query.get('hidden'));
  const hidden = Array.isArray(rawHidden) ? rawHidden.filter((h): h is string => typeof h === 'string') : [];
  const conditions = conditionsFromParam(query.get('cond'));
  return { q: query.get('q') ?? '', filters, sort, hidden, ...(conditions.length ? { conditions } : {}) };
}

export function viewToQuery(view: ViewState, extra: Readonly<Record<string, string>> = {}): URLSearchParams {
  const query = new URLSearchParams();
  if (view.q) query.set('q', view.q);
  if (Object.keys(view.filters).length) query.set('filters', JSON.stringify(view.filters));
  if (view.sort.length) query.set('sort', JSON.stringify(view.sort.map((s) => [s.field, s.dir])));
  if (view.hidden.length) query.set('hidden', JSON.stringify(view.hidden));
  if (view.conditions?.length) query.set('cond', conditionsToParam(view.conditions));
  for (const [k, v] of Object.entries(extra)) if (v) query.set(k, v);
  return query;
}

/** A column name as a sort/field item: double-quoted (CKAN unquotes), inner quotes doubled. */
export function quoteName(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * The fields to request: all (no parameter) unless some are hidden; `_id` always first so a
 * row keeps its number. Names with a comma cannot travel in a comma string, so the
 * parameter is repeated instead (CKAN reads repeats as a list).
 */
function listPairs(name: string, items: readonly string[]): [string, string][] {
  if (items.some((item) => item.includes(','))) return items.map((item) => [name, item]);
  return [[name, items.join(',')]];
}

export function visibleFieldIds(allIds: readonly string[], hidden: readonly string[]): string[] {
  const hide = new Set(hidden);
  return allIds.filter((id) => id === '_id' || !hide.has(id));
}

export interface SearchShape {
  readonly resourceId: string;
  readonly view: ViewState;
  /** Every column id of the resource, `_id` first (to resolve hidden columns). */
  readonly allFields: readonly string[];
}

/** The query part shared by datastore_search, the dump and the facets (no paging). */
export function queryPairs(shape: SearchShape, options: { withoutFilter?: string; withFields?: boolean; withSort?: boolean } = {}): [string, string][] {
  const { view } = shape;
  const pairs: [string, string][] = [];
  const tsquery = prefixTsQuery(view.q);
  if (tsquery) pairs.push(['q', tsquery], ['plain', 'false'], ['language', 'simple']);
  const filters = mergeConditions(Object.fromEntries(Object.entries(view.filters).filter(([field, values]) => field !== options.withoutFilter && values.length > 0)
    .map(([field, values]) => [field, values.length === 1 ? values[0] : values])), view.conditions ?? []);
  if (Object.keys(filters).length) pairs.push(['filters', JSON.stringify(filters)]);
  if (options.withFields !== false && view.hidden.length) pairs.push(...listPairs('fields', visibleFieldIds(shape.allFields, view.hidden)));
  if (options.withSort !== false && view.sort.length) {
    const clauses = view.sort.map((s) => `${quoteName(s.field)} ${s.dir}`);
    pairs.push(...listPairs('sort', clauses));
  }
  return pairs;
}

export function searchPairs(shape: SearchShape, page: { limit: number; offset: number; includeTotal?: boolean }): ParamPairs {
  const pairs: [string, string][] = [['resource_id', shape.resourceId], ...queryPairs(shape)];
  pairs.push(['limit', String(page.limit)], ['offset', String(page.offset)]);
  if (page.includeTotal === false) pairs.push(['include_total', 'false']);
  return pairs;
}

export function dumpPairs(shape: SearchShape, format: 'csv' | 'json', bom: boolean): ParamPairs {
  return [['format', format], ...(bom ? [['bom', 'true'] as [string, string]] : []), ...queryPairs(shape)];
}

export function facetPairs(shape: SearchShape, field: string, contains: string, limit: number): ParamPairs {
  return [
    ['resource_id', shape.resourceId], ['field', field],
    ...queryPairs(shape, { withoutFilter: field, withFields: false, withSort: false }),
    ...(contains.trim() ? [['contains', contains.trim()] as [string, string]] : []),
    ['limit', String(limit)],
  ];
}

/** Clicking a header: none → ascending → descending → none (one sort column at a time). */
export function nextSort(sort: readonly SortSpec[], field: string): SortSpec[] {
  const current = sort.find((s) => s.field === field);
  if (!current) return [{ field, dir: 'asc' }];
  if (current.dir === 'asc') return [{ field, dir: 'desc' }];
  return [];
}
