import { describe, expect, it } from 'vitest';
import { SearchQueryError, ValidationError } from '../../../src/main/errors';
import { parsePackageSearch } from '../../../src/main/params/catalogue-params';

/** package_search's parameter errors as a real CKAN 2.10.10 words them (issue 23; 2.11.5's schema and view are the same). */
const errorsOf = (params: Record<string, unknown>) => {
  try {
    parsePackageSearch(params);
    return null;
  } catch (err) {
    if (err instanceof ValidationError) return err.members;
    if (err instanceof SearchQueryError) return err.message;
    throw err;
  }
};

describe('package_search parameters', () => {
  it('gives both of CKAN’s messages where its validators both run', () => {
    expect(errorsOf({ 'facet.field': 'notjson' })).toEqual({ 'facet.field': ['Could not parse as valid JSON', 'Not a list'] });
    expect(errorsOf({ 'facet.field': '[1]' })).toEqual({ 'facet.field': ['Not a string: 1'] });
    expect(errorsOf({ 'facet.field': '"x"' })).toEqual({ 'facet.field': ['Not a list'] });
    expect(errorsOf({ rows: 'x' })).toEqual({ rows: ['Invalid integer', 'Please enter an integer value'] });
    expect(errorsOf({ rows: -1 })).toEqual({ rows: ['Must be a natural number'] });
  });

  it('words a refused parameter as CKAN’s view does: the repr of its message, not of a tuple', () => {
    expect(errorsOf({ foo: 'bar' })).toBe(`Search Query is invalid: "Invalid search parameters: ['foo']"`);
  });
});
