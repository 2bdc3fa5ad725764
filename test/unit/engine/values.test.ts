import { describe, expect, it } from 'vitest';
import { resolveFieldType } from '../../../src/main/engine/field-types';
import { CoercionError, coerceValue, pythonStyleJson } from '../../../src/main/engine/values/coerce';
import { delimitedCell, jsonCell } from '../../../src/main/engine/values/encode';

const type = (name: string) => resolveFieldType(name)!;
const coerce = (value: unknown, name: string) => coerceValue(value, type(name));
const fails = (value: unknown, name: string) => () => coerce(value, name);

describe('field types (docs/ckan-contract.md §9)', () => {
  it('reports PostgreSQL names for the aliases CKAN accepts', () => {
    expect(['int', 'integer', 'int4', 'INT'].map((t) => type(t).name)).toEqual(['int4', 'int4', 'int4', 'int4']);
    expect(type('bigint').name).toBe('int8');
    expect(type('double precision').name).toBe('float8');
    expect(type('float').name).toBe('float8');
    expect(type('boolean').name).toBe('bool');
    expect(type('text[]').name).toBe('_text');
    expect(type('int[2]').name).toBe('_int4');
    expect(type('_int4').nativeName).toBe('integer[]');
    expect(type('json').nativeName).toBe('nested');
    expect(resolveFieldType('int[')).toBeNull();
    expect(resolveFieldType('money!')).toBeNull();
  });
});

describe('coerceValue: request values into columns, with PostgreSQL wording', () => {
  it('integers: whole numbers and integer text, rounding numerics, ranges per width', () => {
    expect(coerce('42', 'int4')).toBe(42);
    expect(coerce(2.5, 'int4')).toBe(3);
    expect(coerce(-2.5, 'int4')).toBe(-3);
    expect(fails('1.5', 'int4')).toThrow('invalid input syntax for type integer: "1.5"');
    expect(fails(2147483648, 'int4')).toThrow('integer out of range');
    expect(coerce(2147483648, 'int8')).toBe(2147483648);
    expect(fails(40000, 'int2')).toThrow('smallint out of range');
    expect(fails(true, 'int4')).toThrow(CoercionError);
  });
  it('"" is NULL for every type but text (2.11+), null stays NULL', () => {
    expect(coerce('', 'int4')).toBeNull();
    expect(coerce('', 'date')).toBeNull();
    expect(coerce('', 'text')).toBe('');
    expect(coerce(null, 'text')).toBeNull();
  });
  it('numerics, booleans and text', () => {
    // numeric keeps its written scale (the text), or is the number when that says it exactly.
    expect(coerce('2.50', 'numeric')).toBe('2.50');
    expect(coerce(' +2.5 ', 'numeric')).toBe(2.5);
    expect(coerce('1e3', 'numeric')).toBe(1000);
    expect(coerce('1.50e1', 'numeric')).toBe('15.0');
    expect(coerce('-0.000100', 'numeric')).toBe('-0.000100');
    expect(coerce(2.5, 'numeric')).toBe(2.5);
    expect(coerce('123456789012345678901234567890.123456789', 'numeric')).toBe('123456789012345678901234567890.123456789');
    expect(fails('1,5', 'numeric')).toThrow('invalid input syntax for type numeric: "1,5"');
    // int8: every digit up to ±2^63−1.
    expect(coerce('9223372036854775807', 'int8')).toBe('9223372036854775807');
    expect(coerce('-9223372036854775808', 'int8')).toBe('-9223372036854775808');
    expect(coerce('9007199254740993', 'int8')).toBe('9007199254740993');
    expect(coerce(' 12 ', 'int8')).toBe(12);
    expect(fails('9223372036854775808', 'int8')).toThrow('bigint out of range');
    expect(fails('1.5', 'int8')).toThrow('invalid input syntax for type bigint: "1.5"');
    expect(coerce('1e3', 'float8')).toBe(1000);
    expect(fails('   ', 'numeric')).toThrow('invalid input syntax for type numeric: "   "');
    expect(['t', 'TRUE', 'yes', 'on', '1', true, 1].map((v) => coerce(v, 'bool'))).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(['f', 'no', 'off', '0', false].map((v) => coerce(v, 'bool'))).toEqual([0, 0, 0, 0, 0]);
    expect(fails('maybe', 'bool')).toThrow('invalid input syntax for type boolean: "maybe"');
    expect(coerce(25, 'text')).toBe('25');
    expect(fails({ a: 1 }, 'text')).toThrow(CoercionError);
  });
  it('dates and times as PostgreSQL reads them (month first for slashes)', () => {
    expect(coerce('2012-5-25', 'date')).toBe('2012-05-25');
    expect(coerce('2005-03-01T10:00:00', 'date')).toBe('2005-03-01');
    expect(coerce('03/01/2005', 'date')).toBe('2005-03-01');
    expect(fails('2020-02-30', 'date')).toThrow('invalid input syntax for type date');
    expect(coerce('12:42', 'time')).toBe('12:42:00');
    expect(coerce('2012-10-01T02:43Z', 'timestamp')).toBe('2012-10-01T02:43:00');
    expect(coerce('2020-02-02T12:34:56.789000', 'timestamp')).toBe('2020-02-02T12:34:56.789');
    expect(coerce('2005-03-01', 'timestamp')).toBe('2005-03-01T00:00:00');
    expect(coerce('2020-01-01T01:00:00+02:00', 'timestamptz')).toBe('2019-12-31T23:00:00+00:00');
  });
  it('json as Python json.dumps writes it, arrays element by element', () => {
    expect(coerce({ k: [1, 'two', null] }, 'json')).toBe('{"k": [1, "two", null]}');
    expect(pythonStyleJson(['a', { b: true }])).toBe('["a", {"b": true}]');
    expect(coerce(['a', 'b,c'], '_text')).toBe('["a","b,c"]');
    expect(coerce('{1,2,NULL}', '_int4')).toBe('[1,2,null]');
    expect(fails(['x'], '_int4')).toThrow('invalid input syntax for type integer: "x"');
    expect(fails('nope', '_text')).toThrow('malformed array literal');
  });
});

describe('record encoding (docs/ckan-contract.md §3.9, 2.11 shape)', () => {
  it('JSON cells', () => {
    expect(jsonCell(1, 'bool')).toBe('true');
    expect(jsonCell('2020-02-02T12:34:56.789', 'timestamp')).toBe('"2020-02-02T12:34:56"');
    expect(jsonCell('{"k": 1}', 'json')).toBe('{"k": 1}');
    expect(jsonCell(null, 'integer')).toBe('null');
  });
  it('csv/tsv cells as COPY ... csv writes them', () => {
    expect(delimitedCell('x, "quoted"\nline2', 'text', ',')).toBe('"x, ""quoted""\nline2"');
    expect(delimitedCell('', 'text', ',')).toBe('""');
    expect(delimitedCell(null, 'text', ',')).toBe('');
    expect(delimitedCell(null, 'json', ',')).toBe('null');
    expect(delimitedCell(0, 'bool', '\t')).toBe('f');
    expect(delimitedCell('a,b', 'text', '\t')).toBe('a,b');
    expect(delimitedCell('["a","b,c"]', 'array', ',')).toBe('"[""a"",""b,c""]"');
  });
});
