/**
 * The catalogue's search parameters read as CKAN reads them (docs/ckan-contract.md §10):
 * package_search's Solr parameters, organization_list / group_list's paging and sort.
 */
import { SearchQueryError, ValidationError } from '../errors';
import type { GroupListRequest, PackageSearchRequest } from '../engine/engine-api';
import { pythonRepr } from '../util/python-repr';
import type { ActionParams } from './action-params';
import { SchemaErrors, isMissing, limitToConfiguredMaximum, toBoolean, toInteger, toJsonValue, toNaturalNumber } from './validators';

/** CKAN's package_search order when none (or `rank`) is asked for. */
export const DEFAULT_PACKAGE_SORT = 'score desc, metadata_modified desc';

/** What package_search passes to Solr (query.py VALID_SOLR_PARAMETERS) and pops before it. */
const SOLR_PARAMS = new Set([
  'q',
  'fl',
  'fq',
  'rows',
  'sort',
  'start',
  'wt',
  'qf',
  'bf',
  'boost',
  'facet',
  'facet.mincount',
  'facet.limit',
  'facet.field',
  'extras',
  'fq_list',
  'tie',
  'defType',
  'mm',
  'df',
]);
const POPPED_PARAMS = new Set(['include_private', 'include_drafts', 'include_deleted', 'use_default_schema']);

export const text = (v: unknown): string => (isMissing(v) ? '' : String(v));

/**
 * `facet.field`: a JSON list in a string, or a list; CKAN's convert_to_json_if_string, then
 * list_of_strings, both run (navl keeps going): text that is not JSON gets both messages.
 */
function facetFields(errors: SchemaErrors, value: unknown): string[] {
  if (isMissing(value)) return [];
  let list = value;
  if (typeof value === 'string') {
    const decoded = toJsonValue(value);
    if (decoded.ok) list = decoded.value;
    else errors.add('facet.field', 'Could not parse as valid JSON');
  }
  if (!Array.isArray(list)) {
    errors.add('facet.field', 'Not a list');
    return [];
  }
  const bad: unknown = list.find((v) => typeof v !== 'string');
  if (bad !== undefined) {
    errors.add('facet.field', `Not a string: ${bad === null ? 'None' : pythonRepr(bad)}`);
    return [];
  }
  return list as string[];
}

export function parsePackageSearch(params: ActionParams): PackageSearchRequest {
  const errors = new SchemaErrors();
  const rows = isMissing(params.rows) ? 10 : errors.take('rows', toNaturalNumber(params.rows));
  if (!isMissing(params.rows)) limitToConfiguredMaximum(errors, 'rows', params.rows, rows);
  const start = isMissing(params.start) ? 0 : errors.take('start', toNaturalNumber(params.start));
  const facetLimit = isMissing(params['facet.limit']) ? 50 : errors.take('facet.limit', toInteger(params['facet.limit']));
  const facetMin = isMissing(params['facet.mincount']) ? 1 : errors.take('facet.mincount', toNaturalNumber(params['facet.mincount']));
  const fields = facetFields(errors, params['facet.field']);
  if (errors.any) throw new ValidationError(errors.members);
  // Solr gets what is left after CKAN moved `ext_*` away: anything else it does not know is refused.
  const unknown = Object.keys(params).filter((k) => !SOLR_PARAMS.has(k) && !POPPED_PARAMS.has(k) && !k.startsWith('ext_'));
  if (unknown.length) throw new SearchQueryError(`Invalid search parameters: ${pythonRepr(unknown)}`);
  const fqList = Array.isArray(params.fq_list) ? params.fq_list.map(String) : [];
  const sort = text(params.sort);
  const fl = isMissing(params.fl)
    ? null
    : (Array.isArray(params.fl) ? params.fl.map(String) : String(params.fl).split(/[\s,]+/)).filter(Boolean);
  return {
    q: text(params.q),
    fq: [...(isMissing(params.fq) ? [] : [String(params.fq)]), ...fqList],
    rows: Math.min(rows ?? 10, 1000),
    start: start ?? 0,
    sort: sort === '' || sort === 'rank' ? DEFAULT_PACKAGE_SORT : sort,
    facet: params.facet === undefined || toBoolean(params.facet),
    facetFields: fields,
    facetLimit: facetLimit ?? 50,
    facetMinCount: facetMin ?? 1,
    fl: fl && fl.length ? fl : null,
    defType: isMissing(params.defType) ? null : String(params.defType),
  };
}

/** organization_list / group_list parameters (get.py _group_or_org_list). */
export function parseGroupList(params: ActionParams, isOrganization: boolean): GroupListRequest {
  const errors = new SchemaErrors();
  const limit = isMissing(params.limit) ? null : errors.take('limit', toNaturalNumber(params.limit));
  const offset = isMissing(params.offset) ? 0 : errors.take('offset', toNaturalNumber(params.offset));
  if (errors.any) throw new ValidationError(errors.members);
  let sortText = text(params.sort) || text(params.order_by) || 'title';
  if (['packages', 'package_count'].includes(sortText.trim())) sortText = 'package_count desc';
  const m = /^\s*(name|title|packages|package_count)(?:\s+(asc|desc))?\s*$/i.exec(sortText);
  if (!m) throw new ValidationError({ sort: [`Cannot sort by field \`${sortText.trim().split(/\s+/)[0] ?? ''}\``] });
  const field = m[1]!.toLowerCase() === 'packages' ? 'package_count' : (m[1]!.toLowerCase() as GroupListRequest['sort']['field']);
  // organization_list reads `organizations` and never `groups` (get.py: data_dict['groups'] =
  // data_dict.pop('organizations', [])); group_list reads `groups`.
  const given = isOrganization ? params.organizations : params.groups;
  const names = isMissing(given)
    ? null
    : Array.isArray(given)
      ? given.map(String)
      : String(given)
          .split(',')
          .map((g) => g.trim());
  return {
    isOrganization,
    allFields: toBoolean(params.all_fields ?? false),
    sort: { field, descending: (m[2] ?? 'asc').toLowerCase() === 'desc' },
    limit: limit ?? null,
    offset: offset ?? 0,
    names,
    q: text(params.q).trim(),
  };
}
