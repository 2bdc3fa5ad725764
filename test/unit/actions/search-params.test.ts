import { describe, expect, it } from 'vitest';
import { searchLinks } from '../../../src/main/actions/datastore-search';
import { parseSearchParams, searchRequest } from '../../../src/main/params/search-params';
import { ValidationError } from '../../../src/main/errors';
import type { ActionContext } from '../../../src/main/actions/types';

const errorsOf = (params: Record<string, unknown>) => {
  try {
    parseSearchParams(params);
  } catch (err) {
    if (err instanceof ValidationError) return err.members;
    throw err;
  }
  throw new Error('expected a validation error');
};

describe('datastore_search parameters from strings and JSON (docs/ckan-contract.md §1.2, §3.1)', () => {
  it('converts integers and booleans as navl does', () => {
    const p = searchRequest({ resource_id: 'r', limit: '5', offset: 2.0, plain: 'False', distinct: 'yes', include_total: '0' });
    expect(p).toMatchObject({ limit: 5, offset: 2, plain: false, distinct: true, includeTotal: false });
    expect(searchRequest({ resource_id: 'r', limit: '' }).limit).toBe(100);
    expect(searchRequest({ resource_id: 'r', limit: 50000 }).limit).toBe(32000);
    expect(searchRequest({ resource_id: 'r', plain: 'foo' }).plain).toBe(false);
  });
  it('reports every schema error at once with CKAN wording', () => {
    // limit_to_configured_maximum runs too and cannot read '1.5' (seen on CKAN 2.10.10; 2.11 alike).
    expect(errorsOf({ limit: '1.5', offset: 'x', records_format: 'xml' })).toEqual({
      resource_id: ['Missing value'],
      limit: ['Invalid integer', 'Please enter an integer value'],
      offset: ['Invalid integer'],
      records_format: ["Value must be one of ['objects', 'lists', 'csv', 'tsv']"],
    });
    expect(errorsOf({ resource_id: 'r', limit: -1 })).toEqual({ limit: ['Must be a natural number'] });
    expect(errorsOf({ resource_id: 'r', limit: 1.5 })).toEqual({ limit: ['Invalid integer'] });
    expect(errorsOf({ resource_id: 'r', filters: '{bad' })).toEqual({ filters: ['Cannot parse JSON'] });
    expect(errorsOf({ resource_id: 'r', fields: [{ id: 'x' }] })).toEqual({
      __junk: ["The input field [('fields', 0, 'id')] was not expected."],
    });
    // As CKAN 2.10.10 answers (list_of_strings_or_string).
    expect(errorsOf({ resource_id: 'r', sort: 5 })).toEqual({ sort: ['Not a list'] });
    expect(errorsOf({ resource_id: 'r', fields: { a: 1 } })).toEqual({ fields: ['Not a list'] });
    expect(errorsOf({ resource_id: 'r', fields: [1] })).toEqual({ fields: ['Neither a string nor a list: 1'] });
    expect(errorsOf({ resource_id: 'r', fields: [true] })).toEqual({ fields: ['Neither a string nor a list: True'] });
  });
  it('decodes filters and object q from JSON strings, but never fields or sort', () => {
    const p = searchRequest({
      resource_id: 'r',
      filters: '{"a": [1, 2]}',
      q: '{"a": "x"}',
      fields: '["a"]',
      sort: 'a desc, "b c" asc',
    });
    expect(p.filters).toEqual({ a: [1, 2] });
    expect(p.q).toEqual({ a: 'x' });
    expect(p.fields).toEqual(['["a"]']);
    expect(p.sort).toEqual(['a desc', '"b c" asc']);
    expect(searchRequest({ resource_id: 'r', q: '4' }).q).toBe('4');
    expect(searchRequest({ resource_id: 'r', q: '"{}"' }).q).toBe('"{}"');
    expect(searchRequest({ resource_id: 'r', fields: 'dt, "num", txt' }).fields).toEqual(['dt', 'num', 'txt']);
  });
  it('keeps unknown parameters for the __extras check, `id` stands for resource_id', () => {
    expect(searchRequest({ id: 'r', _: '123', foo: 1 })).toMatchObject({ resourceId: 'r', extras: ['_', 'foo'] });
  });
});

describe('_links (docs/ckan-contract.md §3.7)', () => {
  const ctx = (path: string, rawQuery: string): ActionContext => ({
    authorized: false,
    locale: null,
    siteUrl: 'http://x',
    path,
    rawQuery,
    method: 'GET',
  });
  it("as Python's dict(parse_qsl()) and urlencode: blank values dropped, a repeated key in its first place with its last value, offset replaced in place, prev only past the first page", () => {
    expect(searchLinks(ctx('/api/3/action/datastore_search', ''), 0, 100)).toEqual({
      start: '/api/3/action/datastore_search',
      next: '/api/3/action/datastore_search?offset=100',
    });
    const links = searchLinks(ctx('/api/action/datastore_search', 'resource_id=r&q=a+b&offset=300&limit=100&q=c&x='), 300, 100);
    expect(links).toEqual({
      start: '/api/action/datastore_search?resource_id=r&q=c&limit=100',
      next: '/api/action/datastore_search?resource_id=r&q=c&offset=400&limit=100',
      prev: '/api/action/datastore_search?resource_id=r&q=c&offset=200&limit=100',
    });
    // Printed by Python 3.11's urlencode (quote_plus): `~` kept, `*` escaped.
    expect(searchLinks(ctx('/p', 'a=x~y*z+%C3%A9'), 0, 10).start).toBe('/p?a=x~y%2Az+%C3%A9');
    expect(searchLinks(ctx('/p', ''), 100, 100).prev).toBeUndefined();
  });
});

describe('what only the action reads stays out of the engine request', () => {
  it('total_estimation_threshold is read and checked, but not handed to the engine', () => {
    const parsed = parseSearchParams({ resource_id: 'r', total_estimation_threshold: '5' });
    expect(parsed.totalEstimationThreshold).toBe(5);
    expect(Object.keys(parsed.request)).not.toContain('totalEstimationThreshold');
    expect(parseSearchParams({ resource_id: 'r', total_estimation_threshold: null }).totalEstimationThreshold).toBeUndefined();
    expect(errorsOf({ resource_id: 'r', total_estimation_threshold: 'x' })).toEqual({ total_estimation_threshold: ['Invalid integer'] });
  });
});
