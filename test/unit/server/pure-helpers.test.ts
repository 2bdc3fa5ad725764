import { describe, expect, it } from 'vitest';
import { pythonRepr } from '../../../src/main/util/python-repr';
import { canonicalPath, parseTarget } from '../../../src/main/server/routes';
import { checkHost, createTokenMatcher } from '../../../src/main/server/request-guards';

describe('pythonRepr', () => {
  it.each([
    [[1, 2], '[1, 2]'],
    ['x', "'x'"],
    ["it's", '"it\'s"'],
    ['both \' and "', "'both \\' and \"'"],
    ['a\nb\\c\u0001', "'a\\nb\\\\c\\x01'"],
    ['caffè', "'caffè'"],
    [null, 'None'],
    [true, 'True'],
    [false, 'False'],
    [1.5, '1.5'],
    [1e-7, '1e-07'],
    [{ a: [null] }, "{'a': [None]}"],
    [[], '[]'],
  ])('%j → %s', (value, repr) => {
    expect(pythonRepr(value)).toBe(repr);
  });
});

describe('parseTarget', () => {
  it('strips an offered locale only', () => {
    expect(parseTarget('/it/api/3/action/x?a=1')).toEqual({
      rawPath: '/it/api/3/action/x',
      path: '/api/3/action/x',
      rawQuery: 'a=1',
      locale: 'it',
    });
    expect(parseTarget('/fr/api/3/action/x')).toMatchObject({ path: '/fr/api/3/action/x', locale: null });
    expect(parseTarget('/en')).toMatchObject({ path: '/', locale: 'en' });
    expect(parseTarget('/api?')).toMatchObject({ path: '/api', rawQuery: '' });
  });

  it('refuses non-origin-form targets', () => {
    expect(parseTarget('http://evil.com/api')).toBeNull();
    expect(parseTarget('*')).toBeNull();
  });
});

describe('canonicalPath', () => {
  it('decodes and re-quotes each segment like Python quote', () => {
    expect(canonicalPath('/api/3/action/%64atastore_search')).toBe('/api/3/action/datastore_search');
    expect(canonicalPath("/a b/ü/(x)!'*~")).toBe('/a%20b/%C3%BC/%28x%29%21%27%2A~');
    expect(canonicalPath('/bad%zz')).toBe('/bad%25zz');
  });
});

describe('checkHost', () => {
  it('accepts loopback names with the port only', () => {
    expect(checkHost('127.0.0.1:8080', 8080)).toBeNull();
    expect(checkHost('[::1]:8080', 8080)).toBeNull();
    expect(checkHost('localhost:8080', 8080)).toBeNull();
    expect(checkHost('localhost:8081', 8080)).not.toBeNull();
    expect(checkHost('localhost.evil.com:8080', 8080)).not.toBeNull();
    expect(checkHost(undefined, 8080)).toBe('missing Host header');
  });
});

describe('createTokenMatcher', () => {
  it('matches the exact token only', () => {
    const matches = createTokenMatcher('abc');
    expect(matches('abc')).toBe(true);
    expect(matches('abcd')).toBe(false);
    expect(matches('')).toBe(false);
    expect(matches(undefined)).toBe(false);
    expect(() => createTokenMatcher('')).toThrow();
  });
});
