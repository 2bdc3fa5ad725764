import { describe, expect, it } from 'vitest';
import {
  actionUrl,
  ckanapiSnippet,
  curlSnippet,
  javascriptSnippet,
  pythonLiteral,
  pythonRequestsSnippet,
  shellQuote,
  str,
  type SnippetInput,
} from '../../../src/renderer/src/features/api-panel/snippets';
import { searchPairs } from '../../../src/renderer/src/features/table/view-state';

const shape = {
  resourceId: 'abc-123',
  view: {
    q: "Città Sant'Angelo",
    filters: { 'Denominazione Regione': ['Abruzzo'] },
    sort: [{ field: 'Denominazione in italiano', dir: 'asc' as const }],
    hidden: [],
  },
  allFields: ['_id', 'Denominazione in italiano', 'Denominazione Regione'],
};
const input: SnippetInput = {
  baseUrl: 'http://127.0.0.1:8765',
  action: 'datastore_search',
  pairs: searchPairs(shape, { limit: 100, offset: 0 }),
  token: 'tok-en',
};

describe('API snippets', () => {
  it("the URL carries the view: the search box's deskstore_q, filters, sort, paging", () => {
    const url = new URL(actionUrl(input));
    expect(url.pathname).toBe('/api/3/action/datastore_search');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      resource_id: 'abc-123',
      deskstore_q: "Città Sant'Angelo",
      filters: '{"Denominazione Regione":"Abruzzo"}',
      sort: '"Denominazione in italiano" asc',
      limit: '100',
      offset: '0',
    });
    // no raw single quote: the URL can be single-quoted in a shell
    expect(actionUrl(input)).not.toContain("'");
  });

  it('curl: the URL and the token header, shell-quoted', () => {
    expect(curlSnippet(input)).toBe(`curl \\\n  -H 'Authorization: tok-en' \\\n  '${actionUrl(input)}'`);
    expect(curlSnippet({ ...input, token: null })).toBe(`curl \\\n  '${actionUrl(input)}'`);
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });

  it('Python requests: params dict, filters through json.dumps, numbers as numbers', () => {
    const code = pythonRequestsSnippet(input);
    expect(code).toContain('import json\n\nimport requests');
    expect(code).toContain(`"deskstore_q": "Città Sant'Angelo",`);
    expect(code).toContain('"filters": json.dumps({"Denominazione Regione": "Abruzzo"}),');
    expect(code).toContain(`"sort": '"Denominazione in italiano" asc',`);
    expect(code).toContain('"limit": 100,');
    expect(code).toContain('    "http://127.0.0.1:8765/api/3/action/datastore_search",');
    expect(code).toContain('headers={"Authorization": "tok-en"},');
    expect(code).toContain('response.raise_for_status()');
  });

  it('ckanapi: keyword arguments with Python values', () => {
    const code = ckanapiSnippet(input);
    expect(code).toContain('ckan = RemoteCKAN("http://127.0.0.1:8765", apikey="tok-en")');
    expect(code).toContain('result = ckan.action.datastore_search(');
    expect(code).toContain(`    deskstore_q="Città Sant'Angelo",`);
    expect(code).toContain('    filters={"Denominazione Regione": "Abruzzo"},');
    expect(code).toContain('    limit=100,');
    expect(code).toContain(`    sort='"Denominazione in italiano" asc',`);
  });

  it('JavaScript fetch: URLSearchParams and the header', () => {
    const code = javascriptSnippet(input);
    expect(code).toContain('const params = new URLSearchParams({');
    expect(code).toContain(`  deskstore_q: "Città Sant'Angelo",`);
    expect(code).toContain('  `http://127.0.0.1:8765/api/3/action/datastore_search?${params}`,');
    expect(code).toContain('{ headers: { Authorization: "tok-en" } },');
  });

  it('repeated parameters (names with commas) become lists', () => {
    const pairs = searchPairs(
      { ...shape, view: { ...shape.view, hidden: ['Denominazione Regione'] }, allFields: ['_id', 'a, b', 'Denominazione Regione'] },
      { limit: 10, offset: 0 },
    );
    expect(pairs.filter(([k]) => k === 'fields')).toEqual([
      ['fields', '_id'],
      ['fields', 'a, b'],
    ]);
    const inputWithList = { ...input, pairs };
    expect(pythonRequestsSnippet(inputWithList)).toContain('"fields": ["_id", "a, b"],');
    expect(ckanapiSnippet(inputWithList)).toContain('fields=["_id", "a, b"],');
    expect(javascriptSnippet(inputWithList)).toContain('["fields", "a, b"],');
  });

  it('blank-cell filters travel as the deskstore_empty operator object', () => {
    const pairs = searchPairs(
      { ...shape, view: { ...shape.view, filters: { 'Denominazione Regione': ['Abruzzo', { deskstore_empty: true }] } } },
      { limit: 10, offset: 0 },
    );
    const withEmpty = { ...input, pairs };
    expect(ckanapiSnippet(withEmpty)).toContain('filters={"Denominazione Regione": ["Abruzzo", {"deskstore_empty": True}]},');
    expect(pythonRequestsSnippet(withEmpty)).toContain(
      '"filters": json.dumps({"Denominazione Regione": ["Abruzzo", {"deskstore_empty": True}]}),',
    );
  });

  it('literals', () => {
    expect(pythonLiteral({ a: [1, true, null, 'x"y'] })).toBe(`{"a": [1, True, None, 'x"y']}`);
    expect(str('plain')).toBe('"plain"');
    expect(str(`both ' and "`)).toBe(`"both ' and \\""`);
  });
});
