/**
 * What the table shows (search text, per-column value filters, sort, hidden columns), how it
 * is kept in the route's query (so it survives a reload and a language switch) and how it
 * becomes `datastore_search` parameters. The table, the API panel and the export all use
 * searchParams() (as pairs: searchPairs()), so they are the same query. Pure: no DOM.
 *
 * The search box sends `deskstore_q`, Deskstore's search as you type (docs/search.md): it finds
 * what `q` finds for the words typed, plus every word starting with them, accents optional.
 * A CKAN portal does not know it, so the portal's version of the query sends the words as `q`.
 */
import { paramPairs, type ParamPairs } from '../../api/urls';
import type { ActionParams, NameList, RowSelectionParams } from '../../../../shared/wire/actions';
import { isEmptyChoice, isFilterChoice, type FilterChoice } from './filter-choice';
import { DESKSTORE_ONLY, conditionsFromParam, conditionsToParam, mergeConditions, type Condition } from './conditions';

export type { FilterChoice, FilterValue } from './filter-choice';

export interface SortSpec {
  readonly field: string;
  readonly dir: 'asc' | 'desc';
}

export interface ViewState {
  readonly q: string;
  readonly filters: Readonly<Record<string, readonly FilterChoice[]>>;
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

export function viewFromQuery(query: URLSearchParams): ViewState {
  const filters: Record<string, FilterChoice[]> = {};
  const rawFilters = parseJson(query.get('filters'));
  if (rawFilters && typeof rawFilters === 'object' && !Array.isArray(rawFilters)) {
    for (const [field, values] of Object.entries(rawFilters)) {
      const list = (Array.isArray(values) ? values : [values]).filter(isFilterChoice);
      if (list.length) filters[field] = list;
    }
  }
  const rawSort = parseJson(query.get('sort'));
  const sort = Array.isArray(rawSort)
    ? rawSort
        .filter((s): s is [string, string] => Array.isArray(s) && typeof s[0] === 'string')
        .map(([field, dir]) => ({ field, dir: dir === 'desc' ? ('desc' as const) : ('asc' as const) }))
    : [];
  const rawHidden = parseJson(query.get('hidden'));
  const hidden = Array.isArray(rawHidden) ? rawHidden.filter((h): h is string => typeof h === 'string') : [];
  const conditions = conditionsFromParam(query.get('cond'));
  return { q: query.get('q') ?? '', filters, sort, hidden, ...(conditions.length ? { conditions } : {}) };
}

export function viewToQuery(view: ViewState, extra: Readonly<Record<string, string>> = {}): URLSearchParams {
  const query = new URLSearchParams();
  if (view.q) query.set('q', view.q);
  if (Object.keys(view.filters).length) query.set('filters', JSON.stringify(filtersParam(view.filters, false)));
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
function listParam(items: readonly string[]): NameList {
  return items.some((item) => item.includes(',')) ? [...items] : items.join(',');
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

/** `filters` as the API takes it: one choice as itself, several as a list; CKAN gets no blank choices. */
function filtersParam(filters: ViewState['filters'], forCkan: boolean, without?: string): Record<string, FilterChoice | FilterChoice[]> {
  const out: Record<string, FilterChoice | FilterChoice[]> = {};
  for (const [field, choices] of Object.entries(filters)) {
    const kept = forCkan ? choices.filter((c) => !isEmptyChoice(c)) : choices;
    if (field === without || kept.length === 0) continue;
    out[field] = kept.length === 1 ? kept[0]! : [...kept];
  }
  return out;
}

export interface QueryOptions {
  readonly withoutFilter?: string;
  readonly withFields?: boolean;
  readonly withSort?: boolean;
  /** For a CKAN portal: the search words as `q`, no Deskstore-only filter choices. */
  readonly forCkan?: boolean;
}

/** The rows a query selects, and (for datastore_search and the dump) its columns and order. */
export type QueryParams = Omit<RowSelectionParams, 'resource_id'> & { readonly fields?: NameList; readonly sort?: NameList };

/** The query part shared by datastore_search, the dump and the facets (no paging). */
export function queryParams(shape: SearchShape, options: QueryOptions = {}): QueryParams {
  const { view } = shape;
  const words = view.q.trim();
  const conditions = (view.conditions ?? []).filter((c) => !options.forCkan || !DESKSTORE_ONLY.has(c.op));
  const filters = mergeConditions(filtersParam(view.filters, options.forCkan ?? false, options.withoutFilter), conditions);
  const withFields = options.withFields !== false && view.hidden.length > 0;
  const withSort = options.withSort !== false && view.sort.length > 0;
  return {
    ...(words ? (options.forCkan ? { q: words } : { deskstore_q: words }) : {}),
    ...(Object.keys(filters).length ? { filters } : {}),
    ...(withFields ? { fields: listParam(visibleFieldIds(shape.allFields, view.hidden)) } : {}),
    ...(withSort ? { sort: listParam(view.sort.map((s) => `${quoteName(s.field)} ${s.dir}`)) } : {}),
  };
}

export function queryPairs(shape: SearchShape, options: QueryOptions = {}): [string, string][] {
  return paramPairs(queryParams(shape, options));
}

export function searchParams(
  shape: SearchShape,
  page: { limit: number; offset: number; includeTotal?: boolean },
  options: QueryOptions = {},
): ActionParams<'datastore_search'> {
  return {
    resource_id: shape.resourceId,
    ...queryParams(shape, options),
    limit: page.limit,
    offset: page.offset,
    ...(page.includeTotal === false ? { include_total: false } : {}),
  };
}

export function searchPairs(
  shape: SearchShape,
  page: { limit: number; offset: number; includeTotal?: boolean },
  options: QueryOptions = {},
): ParamPairs {
  return paramPairs(searchParams(shape, page, options));
}

export interface DumpOptions {
  readonly bom?: boolean;
  /** Deskstore's CSV flavour for Excel set to Italian: `;`, decimal comma, BOM, CRLF. */
  readonly dialect?: 'excel-it';
  /** The downloaded file's name (the server adds the extension and names it after the resource without one). */
  readonly fileName?: string;
}

/** The file's part of a dump URL: format, dialect or BOM, name (the table's and the Changes view's). */
export function fileOptionPairs(format: 'csv' | 'json', options: DumpOptions = {}): [string, string][] {
  const pairs: [string, string][] = [['format', format]];
  if (options.dialect) pairs.push(['deskstore_dialect', options.dialect]);
  else if (options.bom) pairs.push(['bom', 'true']);
  const fileName = options.fileName?.trim();
  if (fileName) pairs.push(['deskstore_filename', fileName]);
  return pairs;
}

export function dumpPairs(shape: SearchShape, format: 'csv' | 'json', options: DumpOptions = {}): ParamPairs {
  return [...fileOptionPairs(format, options), ...queryPairs(shape)];
}

export function facetParams(shape: SearchShape, field: string, contains: string, limit: number): ActionParams<'deskstore_facets'> {
  return {
    resource_id: shape.resourceId,
    field,
    ...queryParams(shape, { withoutFilter: field, withFields: false, withSort: false }),
    ...(contains.trim() ? { contains: contains.trim() } : {}),
    limit,
  };
}

export function facetPairs(shape: SearchShape, field: string, contains: string, limit: number): ParamPairs {
  return paramPairs(facetParams(shape, field, contains, limit));
}

const NEXT_DIR = { none: 'asc', asc: 'desc', desc: null } as const;

/**
 * Clicking a header cycles its column none → ascending → descending → none. A plain click
 * sorts by that column alone (starting ascending when the sort had several columns);
 * Shift-click adds it to the sort, or cycles it in place, a column already there keeping its
 * rank: rows are ordered by the first column, then by the next among equals.
 */
export function nextSort(sort: readonly SortSpec[], field: string, add = false): SortSpec[] {
  const current = sort.find((s) => s.field === field);
  const dir = NEXT_DIR[current?.dir ?? 'none'];
  if (!add) {
    if (!current || sort.length > 1) return [{ field, dir: 'asc' }];
    return dir ? [{ field, dir }] : [];
  }
  if (!current) return [...sort, { field, dir: 'asc' }];
  return dir ? sort.map((s) => (s.field === field ? { field, dir } : s)) : sort.filter((s) => s.field !== field);
}
