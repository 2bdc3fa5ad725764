import { describe, expect, it } from 'vitest';
import { formatTypedNumber, parseLocaleNumber } from '../../../src/renderer/src/format/parse-number';

const read = (text: string, locale: string, integer = false) => parseLocaleNumber(text, locale, { integer });
const number = (value: string) => ({ kind: 'number', value });

describe('numbers typed in the UI language (issue 22, item 1)', () => {
  it('reads Italian as Italian writes it', () => {
    expect(read('1,9', 'it')).toEqual(number('1.9'));
    expect(read('1.234,5', 'it')).toEqual(number('1234.5'));
    expect(read('12.345.678', 'it')).toEqual(number('12345678'));
    expect(read('-0,25', 'it')).toEqual(number('-0.25'));
    expect(read('−3', 'it')).toEqual(number('-3'));
    expect(read(' 2199,50 ', 'it')).toEqual(number('2199.50'));
    expect(read(',5', 'it')).toEqual(number('0.5'));
    expect(read('1,', 'it')).toEqual(number('1'));
    expect(read('007', 'it')).toEqual(number('7'));
    expect(read('-0', 'it')).toEqual(number('0'));
  });

  it('reads English as English writes it', () => {
    expect(read('1.9', 'en')).toEqual(number('1.9'));
    expect(read('1,234.5', 'en')).toEqual(number('1234.5'));
    expect(read('+12,345,678', 'en')).toEqual(number('12345678'));
    expect(read('0.000001', 'en')).toEqual(number('0.000001'));
    // digits beyond a double are kept as typed
    expect(read('9223372036854775807.25', 'en')).toEqual(number('9223372036854775807.25'));
  });

  it("refuses the other language's decimal sign, saying how to write the number", () => {
    expect(read('1.9', 'it')).toEqual({ kind: 'invalid', problem: 'decimal_sign', readings: ['1,9'] });
    expect(read('1,9', 'en')).toEqual({ kind: 'invalid', problem: 'decimal_sign', readings: ['1.9'] });
    expect(read('1,234.5', 'it')).toEqual({ kind: 'invalid', problem: 'decimal_sign', readings: ['1234,5'] });
    expect(read('1.234,5', 'en')).toEqual({ kind: 'invalid', problem: 'decimal_sign', readings: ['1234.5'] });
  });

  it('refuses a number that reads two ways (one separator, three digits after it)', () => {
    expect(read('1.234', 'it')).toEqual({ kind: 'invalid', problem: 'ambiguous', readings: ['1234', '1,234'] });
    expect(read('1,234', 'en')).toEqual({ kind: 'invalid', problem: 'ambiguous', readings: ['1234', '1.234'] });
    // two separators or decimals settle it
    expect(read('1.234.567', 'it')).toEqual(number('1234567'));
    expect(read('1,234,567', 'en')).toEqual(number('1234567'));
  });

  it('refuses what is no number at all, or misplaced separators', () => {
    for (const text of ['abc', '1,2,3', '12.34.5', '1e5', '--1', '1.2.3,4', ',', '1 2']) {
      expect(read(text, 'it').kind, text).toBe('invalid');
      expect(read(text, 'en').kind, text).toBe('invalid');
    }
    expect(read('', 'it')).toEqual({ kind: 'empty' });
    expect(read('   ', 'en')).toEqual({ kind: 'empty' });
  });

  it('whole numbers only where asked', () => {
    expect(read('12', 'it', true)).toEqual(number('12'));
    expect(read('1,5', 'it', true)).toEqual({ kind: 'invalid', problem: 'not_integer', readings: [] });
  });

  it("follows the locale's own data: space groups in French, other digits", () => {
    expect(read('1 234,5', 'fr')).toEqual(number('1234.5'));
    expect(read('1\u202f234,5', 'fr')).toEqual(number('1234.5'));
    expect(read('١٢٣٫٥', 'ar-EG')).toEqual(number('123.5'));
  });

  it("writes a number back as the field shows it (the language's decimal sign, no groups)", () => {
    expect(formatTypedNumber('1234.5', 'it')).toBe('1234,5');
    expect(formatTypedNumber('-0.25', 'en')).toBe('-0.25');
    for (const text of ['1,9', '-1234,75', '0,001']) {
      const r = read(text, 'it');
      expect(r.kind === 'number' && formatTypedNumber(r.value, 'it')).toBe(text);
    }
  });
});
