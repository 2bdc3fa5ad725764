import { describe, expect, it } from 'vitest';
import {
  EMPTY_VIEW,
  dumpPairs,
  facetPairs,
  nextSort,
  quoteName,
  searchPairs,
  viewFromQuery,
  viewToQuery,
  visibleFieldIds,
} from '../../../src/renderer/src/features/table/view-state';

const allFields = ['_id', 'Codice Regione', 'Denominazione in italiano', 'Denominazione Regione'];

describe('table view state', () => {
  it('round-trips through the route query', () => {
    const view = {
      q: 'città',
      filters: { 'Denominazione Regione': ['Umbria', 'Lazio'], 'Codice Regione': [7001] },
      sort: [{ field: 'Denominazione in italiano', dir: 'desc' as const }],
      hidden: ['Codice Regione'],
    };
    expect(viewFromQuery(viewToQuery(view))).toEqual(view);
    expect(viewFromQuery(new URLSearchParams())).toEqual(EMPTY_VIEW);
    expect(viewFromQuery(new URLSearchParams('filters=nonsense&sort={}&hidden=3'))).toEqual(EMPTY_VIEW);
  });

  it('builds datastore_search parameters: no q/filters/sort/fields when unused', () => {
    expect(searchPairs({ resourceId: 'r', view: EMPTY_VIEW, allFields }, { limit: 200, offset: 400 })).toEqual([
      ['resource_id', 'r'],
      ['limit', '200'],
      ['offset', '400'],
    ]);
  });

  it('one value filters as a scalar, several as a list; hidden columns leave fields with _id first', () => {
    const view = {
      q: 'san',
      filters: { 'Denominazione Regione': ['Umbria'], 'Codice Regione': ['10', '12'] },
      sort: [],
      hidden: ['Codice Regione'],
    };
    expect(searchPairs({ resourceId: 'r', view, allFields }, { limit: 1, offset: 0, includeTotal: false })).toEqual([
      ['resource_id', 'r'],
      ['deskstore_q', 'san'],
      ['filters', '{"Denominazione Regione":"Umbria","Codice Regione":["10","12"]}'],
      ['fields', '_id,Denominazione in italiano,Denominazione Regione'],
      ['limit', '1'],
      ['offset', '0'],
      ['include_total', 'false'],
    ]);
  });

  it("facets leave out the column's own filter, and fields and sort", () => {
    const view = {
      q: '',
      filters: { 'Denominazione Regione': ['Umbria'], 'Codice Regione': ['10'] },
      sort: [{ field: 'Codice Regione', dir: 'asc' as const }],
      hidden: ['Codice Regione'],
    };
    expect(facetPairs({ resourceId: 'r', view, allFields }, 'Denominazione Regione', ' um ', 50)).toEqual([
      ['resource_id', 'r'],
      ['field', 'Denominazione Regione'],
      ['filters', '{"Codice Regione":"10"}'],
      ['contains', 'um'],
      ['limit', '50'],
    ]);
  });

  it('the dump gets the same query with format and BOM, or the Italian-Excel flavour, and the file name', () => {
    const view = { q: 'x', filters: {}, sort: [{ field: 'a"b', dir: 'asc' as const }], hidden: [] };
    const shape = { resourceId: 'r', view, allFields };
    expect(dumpPairs(shape, 'csv', { bom: true })).toEqual([
      ['format', 'csv'],
      ['bom', 'true'],
      ['deskstore_q', 'x'],
      ['sort', '"a""b" asc'],
    ]);
    expect(dumpPairs(shape, 'csv', { bom: true, dialect: 'excel-it', fileName: ' Comuni (x) ' })).toEqual([
      ['format', 'csv'],
      ['deskstore_dialect', 'excel-it'],
      ['deskstore_filename', 'Comuni (x)'],
      ['deskstore_q', 'x'],
      ['sort', '"a""b" asc'],
    ]);
  });

  it('blank choices round-trip in the route as the API writes them, and are left out for a CKAN portal', () => {
    const view = {
      q: ' Città  ',
      filters: { 'Denominazione Regione': ['Umbria', { deskstore_empty: true }], 'Codice Regione': [{ deskstore_empty: false }] },
      sort: [],
      hidden: [],
    };
    const query = viewToQuery(view);
    expect(JSON.parse(query.get('filters')!)).toEqual({
      'Denominazione Regione': ['Umbria', { deskstore_empty: true }],
      'Codice Regione': { deskstore_empty: false },
    });
    expect(viewFromQuery(query)).toEqual(view);
    // anything else in the route is dropped, not sent
    expect(viewFromQuery(new URLSearchParams('filters={"a":[{"x":1},"y",{"deskstore_empty":"no"}]}')).filters).toEqual({ a: ['y'] });
    expect(searchPairs({ resourceId: 'r', view, allFields }, { limit: 1, offset: 0 }, { forCkan: true })).toEqual([
      ['resource_id', 'r'],
      ['q', 'Città'],
      ['filters', '{"Denominazione Regione":"Umbria"}'],
      ['limit', '1'],
      ['offset', '0'],
    ]);
  });

  it('sorts by several columns: Shift adds a column, a plain click sorts by one', () => {
    const a = { field: 'a', dir: 'asc' as const };
    expect(nextSort([a], 'b', true)).toEqual([a, { field: 'b', dir: 'asc' }]);
    expect(nextSort([a, { field: 'b', dir: 'asc' }], 'b', true)).toEqual([a, { field: 'b', dir: 'desc' }]);
    expect(nextSort([a, { field: 'b', dir: 'desc' }], 'b', true)).toEqual([a]);
    expect(nextSort([a, { field: 'b', dir: 'asc' }], 'a', true)).toEqual([
      { field: 'a', dir: 'desc' },
      { field: 'b', dir: 'asc' },
    ]);
    expect(nextSort([a, { field: 'b', dir: 'desc' }], 'b')).toEqual([{ field: 'b', dir: 'asc' }]);
    expect(nextSort([], 'a', true)).toEqual([a]);
  });

  it('quotes names and cycles sort: none → asc → desc → none', () => {
    expect(quoteName('Codice Regione')).toBe('"Codice Regione"');
    expect(nextSort([], 'a')).toEqual([{ field: 'a', dir: 'asc' }]);
    expect(nextSort([{ field: 'a', dir: 'asc' }], 'a')).toEqual([{ field: 'a', dir: 'desc' }]);
    expect(nextSort([{ field: 'a', dir: 'desc' }], 'a')).toEqual([]);
    expect(nextSort([{ field: 'a', dir: 'desc' }], 'b')).toEqual([{ field: 'b', dir: 'asc' }]);
    expect(visibleFieldIds(allFields, ['_id', 'Codice Regione'])).toEqual(['_id', 'Denominazione in italiano', 'Denominazione Regione']);
  });
});
