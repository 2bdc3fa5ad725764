import { ValidationError } from '../errors';
import type { SearchRequest, RecordsFormat } from '../engine/search/search-request';
import { ROWS_DEFAULT, ROWS_MAX } from '../engine/search/search-request';
import { RawJson } from '../util/raw-json';
import { optional } from '../../shared/optional';
import type { ActionDeps } from './action-deps';
import type { DatastoreSearchResult, SearchLinks } from '../../shared/wire/search';
import type { ActionContext, ActionParams, HandlersFor } from './types';
import {
  SchemaErrors,
  isMissing,
  toBoolean,
  toInteger,
  toJsonValue,
  toNaturalNumber,
  toStringList,
  toTextOrObject,
  unquoteName,
} from './validators';

const FORMATS: readonly RecordsFormat[] = ['objects', 'lists', 'csv', 'tsv'];
const KNOWN = new Set([
  'resource_id',
  'id',
  'filters',
  'q',
  'full_text',
  'plain',
  'language',
  'distinct',
  'limit',
  'offset',
  'fields',
  'sort',
  'include_total',
  'total_estimation_threshold',
  'records_format',
  'include_next_page',
  'deskstore_q',
]);

/** Contract §3.2 step 1: the schema. Errors for several parameters are reported together. */
export function parseSearchParams(params: ActionParams): SearchRequest {
  const errors = new SchemaErrors();
  const p = { ...params };
  if (p.resource_id === undefined && p.id !== undefined) p.resource_id = p.id; // `id` is renamed before validation
  if (isMissing(p.resource_id)) errors.add('resource_id', 'Missing value');
  const limit = isMissing(p.limit) ? ROWS_DEFAULT : errors.take('limit', toNaturalNumber(p.limit));
  const offset = isMissing(p.offset) ? 0 : errors.take('offset', toInteger(p.offset));
  const filters = p.filters === undefined ? undefined : errors.take('filters', toJsonValue(p.filters));
  const fields = p.fields === undefined ? undefined : errors.take('fields', toStringList(p.fields, 'fields'));
  const sort = p.sort === undefined ? undefined : errors.take('sort', toStringList(p.sort, 'sort'));
  const format = p.records_format === undefined ? 'objects' : String(p.records_format);
  if (!FORMATS.includes(format as RecordsFormat)) {
    errors.add('records_format', "Value must be one of ['objects', 'lists', 'csv', 'tsv']");
  }
  const threshold =
    p.total_estimation_threshold === undefined || p.total_estimation_threshold === null
      ? undefined
      : errors.take('total_estimation_threshold', toInteger(p.total_estimation_threshold));
  if (errors.any) throw new ValidationError(errors.members);
  return {
    resourceId: String(p.resource_id),
    ...(filters !== undefined ? { filters } : {}),
    ...(p.q !== undefined ? { q: toTextOrObject(p.q) } : {}),
    ...(p.full_text !== undefined ? { fullText: String(p.full_text) } : {}),
    ...(isMissing(p.deskstore_q) ? {} : { deskstoreQ: String(p.deskstore_q) }),
    plain: p.plain === undefined ? true : toBoolean(p.plain),
    ...(isMissing(p.language) ? {} : { language: String(p.language) }),
    distinct: toBoolean(p.distinct ?? false),
    limit: Math.min(limit!, ROWS_MAX),
    offset: offset!,
    ...(fields ? { fields: fields.map(unquoteName) } : {}),
    ...(sort ? { sort } : {}),
    includeTotal: p.include_total === undefined ? true : toBoolean(p.include_total),
    ...optional('totalEstimationThreshold', threshold),
    recordsFormat: format as RecordsFormat,
    includeNextPage: toBoolean(p.include_next_page ?? false),
    extras: Object.keys(params).filter((k) => !KNOWN.has(k)),
  };
}

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
function totalWasEstimated(req: SearchRequest, total: number): boolean {
  const threshold = req.totalEstimationThreshold;
  return threshold !== undefined && !req.distinct && !narrowsRows(req) && total >= threshold;
}

export function datastoreSearchAction(deps: ActionDeps): HandlersFor<'datastore_search'> {
  return {
    async datastore_search(params, ctx) {
      const req = parseSearchParams(params);
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
        ...(req.includeTotal ? { total: out.total, total_was_estimated: totalWasEstimated(req, out.total ?? 0) } : {}),
        total_estimation_threshold: req.totalEstimationThreshold ?? null,
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
