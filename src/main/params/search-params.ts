/**
 * datastore_search's parameter schema (docs/ckan-contract.md §3.2 step 1), shared by the
 * action, the dump (`/datastore/dump`) and a portal push, which pages through a table the
 * same way: CKAN's conversions and wording, defaults filled, `limit` capped.
 */
import { ValidationError } from '../errors';
import type { RecordsFormat, SearchRequest } from '../engine/engine-api';
import { ROWS_DEFAULT, ROWS_MAX } from '../../shared/wire/search';
import { optional } from '../../shared/optional';
import type { ActionParams } from './action-params';
import {
  SchemaErrors,
  isMissing,
  limitToConfiguredMaximum,
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

/**
 * datastore_search's parameters read: the engine's request, and what only the action's answer
 * uses (the engine never sees it).
 */
export interface SearchParams {
  readonly request: SearchRequest;
  /** `total_estimation_threshold` (docs/ckan-contract.md §3.10): decides `total_was_estimated`. */
  readonly totalEstimationThreshold?: number;
}

/** Contract §3.2 step 1: the schema. Errors for several parameters are reported together. */
export function parseSearchParams(params: ActionParams): SearchParams {
  const errors = new SchemaErrors();
  const p = { ...params };
  if (p.resource_id === undefined && p.id !== undefined) p.resource_id = p.id; // `id` is renamed before validation
  if (isMissing(p.resource_id)) errors.add('resource_id', 'Missing value');
  const limit = isMissing(p.limit) ? ROWS_DEFAULT : errors.take('limit', toNaturalNumber(p.limit));
  if (!isMissing(p.limit)) limitToConfiguredMaximum(errors, 'limit', p.limit, limit);
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
  const request: SearchRequest = {
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
    recordsFormat: format as RecordsFormat,
    includeNextPage: toBoolean(p.include_next_page ?? false),
    extras: Object.keys(params).filter((k) => !KNOWN.has(k)),
  };
  return { request, ...optional('totalEstimationThreshold', threshold) };
}

/** The engine's request alone, for callers that page through a table (the dump, a push). */
export function searchRequest(params: ActionParams): SearchRequest {
  return parseSearchParams(params).request;
}
