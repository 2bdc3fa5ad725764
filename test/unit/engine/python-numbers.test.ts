import { describe, expect, it } from 'vitest';
import { guessType } from '../../../src/main/engine/datastore/field-validation';
import { fieldTypeOf } from '../../../src/main/engine/field-types';
import { coerceValue } from '../../../src/main/engine/values/coerce';
import { exactText, type ExactNumber } from '../../../src/main/engine/values/exact-number';
import { parseJsonExact, unboxPythonFloats } from '../../../src/main/util/exact-json';
import { jsonBody } from '../../../src/main/util/raw-json';

/**
 * A JSON number written to a column means what it means to CKAN (issue 23): Python's json
 * gives an int for `310` and a float for `310.0`, psycopg2 passes a float on as its repr, and
 * PostgreSQL makes of that constant what the column needs. Every expectation below is what a
 * real CKAN 2.10.10 stored for the same `datastore_create` body (records read back with
 * datastore_search, 2026-11-27).
 */
const record = (json: string) => parseJsonExact(json) as Record<string, unknown>;
const stored = (json: string, type: string) => {
  const value = coerceValue(record(`{"v": ${json}}`).v, fieldTypeOf(type));
  return type === 'numeric' || type === 'int8' ? exactText(value as ExactNumber) : value;
};

describe('JSON numbers in records, as CKAN stores them', () => {
  it('a numeric column keeps a float’s repr scale and an int’s digits', () => {
    expect(stored('310.0', 'numeric')).toBe('310.0');
    expect(stored('310', 'numeric')).toBe('310');
    expect(stored('2.5e-7', 'numeric')).toBe('0.00000025');
    expect(stored('1e16', 'numeric')).toBe('10000000000000000');
    expect(stored('1e-5', 'numeric')).toBe('0.00001');
    expect(stored('0.1', 'numeric')).toBe('0.1');
    expect(stored('"310.00"', 'numeric')).toBe('310.00');
    expect(stored('123456789012345678901234567890', 'numeric')).toBe('123456789012345678901234567890');
  });

  it('a text column gets the number as PostgreSQL prints that constant', () => {
    expect(stored('2.5e-7', 'text')).toBe('0.00000025');
    expect(stored('310.0', 'text')).toBe('310.0');
    expect(stored('1e300', 'text')).toBe(`1${'0'.repeat(300)}`);
    expect(stored('12345678901234567890', 'text')).toBe('12345678901234567890');
    expect(stored('true', 'text')).toBe('true');
  });

  it('integers round a float; int8 keeps every digit; float8 the double', () => {
    expect(stored('2.0', 'int4')).toBe(2);
    expect(stored('2.5', 'int4')).toBe(3);
    expect(stored('9223372036854775807', 'int8')).toBe('9223372036854775807');
    expect(stored('310.0', 'float8')).toBe(310);
  });

  it('a json column keeps floats as floats, big integers whole, and "" as a JSON string', () => {
    expect(stored('{"a": 100.0, "b": 1e-7, "c": 1E3, "d": 12345678901234567890, "e": ""}', 'json')).toBe(
      '{"a": 100.0, "b": 1e-07, "c": 1000.0, "d": 12345678901234567890, "e": ""}',
    );
    expect(stored('""', 'json')).toBe('""');
    expect(stored('[1.0, 2.50]', 'json')).toBe('[1.0, 2.5]');
    expect(stored('1.0', 'json')).toBe('1.0');
    expect(stored('""', 'int4')).toBeNull();
  });

  it('datastore_create guesses float for a whole float, int for an int', () => {
    expect(guessType(record('{"v": 310.0}').v)).toBe('float');
    expect(guessType(record('{"v": 310}').v)).toBe('int');
    expect(guessType(record('{"v": 2.5}').v)).toBe('float');
    expect(guessType(record('{"v": 92233720368547758070}').v)).toBe('int');
  });

  it('echoes a whole float as CKAN does, and gives other parameters plain values', () => {
    expect(jsonBody(record('{"records": [{"a": 310.0, "b": 1E2, "c": 12345678901234567890, "d": 2.5}]}'))).toBe(
      '{"records": [{"a": 310.0, "b": 100.0, "c": 12345678901234567890, "d": 2.5}]}',
    );
    const params = unboxPythonFloats(record('{"limit": 10.0, "filters": {"big": 9007199254740993, "__proto__": 1.0}}')) as any;
    expect(params.limit).toBe(10);
    expect(params.filters.big).toBe('9007199254740993');
    expect(Object.getOwnPropertyDescriptor(params.filters, '__proto__')?.value).toBe(1);
  });
});

describe("datastore_search_sql's numerics, as CKAN 2.11 writes them (str(Decimal))", () => {
  it('matches Python 3.11 on every shape', async () => {
    const { pythonDecimalText } = await import('../../../src/main/util/python-text');
    // Pairs printed by `str(decimal.Decimal(text))` in CPython 3.11.
    const pairs: [string, string][] = [
      ['310.00', '310.00'],
      ['-0.000100', '-0.000100'],
      ['0.0000001', '1E-7'],
      ['0.00000025', '2.5E-7'],
      ['0.00000000', '0E-8'],
      ['0', '0'],
      ['-0.0000001', '-1E-7'],
      ['0.000001', '0.000001'],
      ['0.0000010', '0.0000010'],
      ['123456789012345678901234567890.123456789', '123456789012345678901234567890.123456789'],
      ['-0.00000012345', '-1.2345E-7'],
    ];
    for (const [canonical, python] of pairs) expect(pythonDecimalText(canonical), canonical).toBe(python);
  });
});
