import type { SearchRequest } from '../engine/engine-api';
import { parseSearchParams } from '../params/search-params';
import { RawJson } from '../util/raw-json';
import type { ActionDeps } from './action-deps';
import type { DatastoreSearchResult, SearchLinks } from '../../shared/wire/search';
import type { ActionContext, HandlersFor } from './types';

/**
 * `_links` (2.9–2.11, docs/ckan-contract.md §3.7): built from the request URL only, as
 * `_insert_links` does with `dict(parse_qsl(query))` and `urlencode`: blank values dropped, a
 * repeated key keeps its first place and its last value, `offset` replaced where it stands (else
 * added at the end), spaces as `+` and `~` kept, `*` escaped (Python's quote_plus).
 */
export function searchLinks(ctx: ActionContext, offset: number, limit: number): SearchLinks {
  const query = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(ctx.rawQuery)) if (v !== '') query.set(k, v);
  const encoded = (pairs: Map<string, string>) => new URLSearchParams([...pairs]).toString().replaceAll('*', '%2A').replaceAll('%7E', '~');
  const url = (at: number) => `${ctx.path}?${encoded(new Map(query).set('offset', String(at)))}`;
  const start = new Map(query);
  start.delete('offset');
  return {
    start: start.size ? `${ctx.path}?${encoded(start)}` : ctx.path,
    next: url(offset + limit),
    ...(offset - limit > 0 ? { prev: url(offset - limit) } : {}),
  };
}

/** Filters, `q` or `full_text` that narrow the rows: CKAN's WHERE clause is not empty. */
function narrowsRows(req: SearchRequest): boolean {
  const filters = req.filters;
  const hasFilters =
    filters !== undefined &&
    filters !== null &&
    (Array.isArray(filters) ? filters.length > 0 : typeof filters !== 'object' || Object.keys(filters).length > 0);
  const q = req.q;
  const hasQ = typeof q === 'string' ? q !== '' : q !== undefined && Object.keys(q).length > 0;
  return hasFilters || hasQ || (req.fullText !== undefined && req.fullText !== '');
}

/**
 * `total_estimation_threshold` (2.9–2.11, docs/ckan-contract.md §3.10): with no WHERE clause and
 * no DISTINCT, CKAN takes PostgreSQL's estimate of the table's size and reports it as estimated
 * when it reaches the threshold. Deskstore always knows the exact count, which is what an
 * up-to-date estimate says: the total stays exact, the flag tells what CKAN would have done.
 */
function totalWasEstimated(req: SearchRequest, threshold: number | undefined, total: number): boolean {
  return threshold !== undefined && !req.distinct && !narrowsRows(req) && total >= threshold;
}

export function datastoreSearchAction(deps: ActionDeps): HandlersFor<'datastore_search'> {
  return {
    async datastore_search(params, ctx) {
      const { request: req, totalEstimationThreshold } = parseSearchParams(params);
      const out = await deps.engine.search(req);
      const given = (k: keyof typeof params) => params[k] !== undefined;
      const result = {
        include_total: req.includeTotal,
        resource_id: out.resourceId,
        fields: out.fields,
        records_format: req.recordsFormat,
        records: out.recordsAreText ? out.records : new RawJson(out.records),
        limit: req.limit,
        ...(given('offset') ? { offset: req.offset } : {}),
        _links: searchLinks(ctx, req.offset, req.limit),
        ...(req.includeTotal
          ? { total: out.total, total_was_estimated: totalWasEstimated(req, totalEstimationThreshold, out.total ?? 0) }
          : {}),
        total_estimation_threshold: totalEstimationThreshold ?? null,
        ...(given('q') ? { q: req.q } : {}),
        ...(given('filters') ? { filters: req.filters } : {}),
        ...(given('full_text') ? { full_text: req.fullText } : {}),
        ...(given('deskstore_q') ? { deskstore_q: req.deskstoreQ ?? '' } : {}),
        ...(given('sort') ? { sort: params.sort } : {}),
        ...(given('distinct') ? { distinct: req.distinct } : {}),
        ...(given('plain') ? { plain: req.plain } : {}),
        ...(given('language') ? { language: req.language } : {}),
        ...(given('include_next_page') ? { include_next_page: req.includeNextPage } : {}),
        ...(out.nextPage ? { next_page: out.nextPage } : {}),
      } satisfies DatastoreSearchResult<RawJson | string>;
      return inCkanOrder(result, given('fields'));
    },
  };
}

/** What CKAN adds to the validated request, in the order it adds them. */
const ADDED = ['records', 'fields', '_links', 'total', 'total_was_estimated', 'next_page'];

/**
 * CKAN's key order (seen on CKAN 2.10.10; 2.11.5's code is the same): the validated request,
 * whose keys navl's unflatten sorts, then what search_data adds — records, fields, _links, total,
 * total_was_estimated. A `fields` sent with the request keeps its sorted place, its value
 * replaced by the output fields (a Python dict keeps a key's first position).
 */
function inCkanOrder<T extends object>(result: T, fieldsGiven: boolean): T {
  const added = fieldsGiven ? ADDED.filter((k) => k !== 'fields') : ADDED;
  const keys = Object.keys(result);
  const validated = keys.filter((k) => !added.includes(k)).sort();
  const ordered = [...validated, ...added.filter((k) => keys.includes(k))];
  return Object.fromEntries(ordered.map((k) => [k, (result as Record<string, unknown>)[k]])) as T;
}
