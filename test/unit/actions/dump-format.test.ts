import { describe, expect, it } from 'vitest';
import { pythonCsvRow } from '../../../src/main/actions/dump/dump-writers';
import { contentDisposition, dumpFileName } from '../../../src/main/actions/dump/file-name';
import { JsonNumber, JsonObject, parseOrderedJson } from '../../../src/main/actions/dump/ordered-json';
import { pythonJson } from '../../../src/main/actions/dump/python-values';
import { pythonAsciiJsonString, pythonFloatRepr } from '../../../src/main/util/python-text';
import { pythonStyleJson } from '../../../src/main/engine/values/coerce';

/** The pieces of the dump that must write what CKAN's Python writes (docs/ckan-contract.md §11). */
describe('Python number and string text', () => {
  it('prints floats as repr() does (values checked with CPython 3.11)', () => {
    const cases: [number, string][] = [
      [1e16, '1e+16'],
      [1e15, '1000000000000000.0'],
      [0.0001, '0.0001'],
      [0.00001, '1e-05'],
      [2.5, '2.5'],
      [-0, '-0.0'],
      [1.5e300, '1.5e+300'],
      [1.2345678901234568e17, '1.2345678901234568e+17'],
      [0.1 + 0.2, '0.30000000000000004'],
      [100, '100.0'],
      [-2.25e-7, '-2.25e-07'],
      [Infinity, 'Infinity'],
      [NaN, 'NaN'],
      [123.456, '123.456'],
      [-0.5, '-0.5'],
    ];
    expect(cases.map(([v]) => pythonFloatRepr(v))).toEqual(cases.map(([, text]) => text));
  });

  it('escapes strings as json.dumps does by default (ensure_ascii)', () => {
    expect(pythonAsciiJsonString('è€😀\u007f"\\\n')).toBe('"\\u00e8\\u20ac\\ud83d\\ude00\\u007f\\"\\\\\\n"');
    expect(pythonStyleJson({ città: ['è', 2.5, 3, null, true] })).toBe('{"citt\\u00e0": ["\\u00e8", 2.5, 3, null, true]}');
  });
});

describe('ordered JSON', () => {
  it('keeps numbers as written and object keys in their order', () => {
    const value = parseOrderedJson('{"b": 1, "2014": [2.50, -0, 9007199254740993], "a": {"x": null}}');
    expect(value).toBeInstanceOf(JsonObject);
    expect((value as JsonObject).entries.map(([k]) => k)).toEqual(['b', '2014', 'a']);
    expect(pythonJson(value)).toBe('{"b":1,"2014":[2.5,0,9007199254740993],"a":{"x":null}}');
    expect(new JsonNumber('1e3').isInteger).toBe(false);
  });

  it('refuses text that is not JSON', () => {
    for (const bad of ['[1,]', '{"a" 1}', '01', '"\u0001"', '[1] x']) expect(() => parseOrderedJson(bad), bad).toThrow(SyntaxError);
  });
});

describe('CSV header rows', () => {
  it('quote as Python csv QUOTE_MINIMAL and end in CRLF', () => {
    expect(pythonCsvRow(['a,b', 'c"d', 'e\rf', 'g\nh', ' i', 'j;k'], ',')).toBe('"a,b","c""d","e\rf","g\nh", i,j;k\r\n');
    expect(pythonCsvRow(['a,b', 'c\td'], '\t')).toBe('a,b\t"c\td"\r\n');
    expect(pythonCsvRow([''], ',')).toBe('""\r\n');
  });
});

describe('dump file names', () => {
  const base = { requested: null, resourceName: 'Elenco comuni', resourceId: 'r1', search: {}, extension: 'csv' };

  it('name the file after the resource, the filter and the search', () => {
    expect(dumpFileName(base)).toBe('Elenco comuni.csv');
    expect(dumpFileName({ ...base, search: { filters: '{"Sigla":["GO","TS"]}', q: 'gorizia:* & friuli:*' } })).toBe(
      'Elenco comuni (Sigla=GO+TS, gorizia friuli).csv',
    );
    expect(dumpFileName({ ...base, resourceName: '' })).toBe('r1.csv');
  });

  it('clean a requested name and add the extension', () => {
    expect(dumpFileName({ ...base, requested: '../../etc/passwd' })).toBe('etc passwd.csv');
    expect(dumpFileName({ ...base, requested: 'Comuni.CSV' })).toBe('Comuni.CSV');
    expect(dumpFileName({ ...base, requested: ' \u0000 ' })).toBe('Elenco comuni.csv');
    expect([...dumpFileName({ ...base, requested: 'x'.repeat(500) })].length).toBe(124);
  });

  it('send any name as a header value Node accepts, with the UTF-8 name in filename*', () => {
    const header = contentDisposition('Città 城市 "q"\r\n.csv');
    expect(header).toMatch(/^[\x20-\x7e]+$/);
    expect(header).toBe(
      'attachment; filename="Citta __ _q___.csv"; filename*=UTF-8\'\'Citt%C3%A0%20%E5%9F%8E%E5%B8%82%20%22q%22%0D%0A.csv',
    );
  });
});
