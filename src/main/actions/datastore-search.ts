import type { SearchRequest } from '../engine/engine-api';
import { parseSearchParams } from '../params/search-params';
import { RawJson } from '../util/raw-json';
import type { ActionDeps } from './action-deps';
import type { DatastoreSearchResult, SearchLinks } from '../../shared/wire/search';
import type { ActionContext, HandlersFor } from './types';

/**
 * `_links` (2.9–2.11, docs/ckan-contract.md §3.7): built from the request URL only; blank values dropped,
 * repeated keys collapse to the last one, `offset` moved to the end of `next`.
 */
export function searchLinks(ctx: ActionContext, offset: number, limit: number): SearchLinks {
  const query = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(ctx.rawQuery)) {
    if (k === 'offset') continue;
    query.delete(k);
    if (v !== '') query.set(k, v);
  }
  const base = new URLSearchParams([...query]).toString();
  const url = (extra: string) => `${ctx.path}?${base ? `${base}&` : ''}${extra}`;
  return {
    start: base ? `${ctx.path}?${base}` : ctx.path,
    next: url(`offset=${offset + limit}`),
    ...(offset - limit > 0 ? { prev: url(`offset=${offset - limit}`) } : {}),
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
      return {
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
    },
  };
}
