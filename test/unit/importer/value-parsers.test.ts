import { describe, expect, it } from 'vitest';
import { parseDateValue, parseTimestampValue } from '../../../src/main/importer/date-values';
import { classifyByPatterns, classifyValue, parseAs, parserFor, trimCell, ValueParseError, type ValueKind } from '../../../src/main/importer/value-parsers';
import { lcg } from '../../helpers/random';

const kind = (v: string): ValueKind => classifyValue(v).kind;

describe('trimCell', () => {
  it('removes only spaces and tabs', () => {
    expect(trimCell(' 001 ')).toBe('001');
    expect(trimCell('\t12\t ')).toBe('12');
    expect(trimCell('\u00a012\u00a0')).toBe('\u00a012\u00a0');
    expect(trimCell('\u200b')).toBe('\u200b');
    expect(trimCell('   ')).toBe('');
  });
});

describe('classifyValue', () => {
  it('integers, int4/int8 boundaries, beyond int8', () => {
    expect(kind('0')).toBe('int4');
    expect(kind('-5')).toBe('int4');
    expect(kind('2147483647')).toBe('int4');
    expect(kind('2147483648')).toBe('int8');
    expect(kind('-2147483648')).toBe('int4');
    expect(kind('-2147483649')).toBe('int8');
    expect(kind('9007199254740991')).toBe('int8');
    expect(kind('-9007199254740991')).toBe('int8');
    expect(kind('9007199254740993')).toBe('int8');
    expect(kind('9223372036854775807')).toBe('int8');
    expect(kind('-9223372036854775808')).toBe('int8');
    expect(kind('9223372036854775808')).toBe('huge-integer');
    expect(kind('12345678901234567890')).toBe('huge-integer');
  });
  it('leading zeros are codes; 0, 0.5, -0.5 are numbers', () => {
    for (const v of ['001', '066', '0010', '00', '-01', '00.5', '01,5']) expect(kind(v)).toBe('leading-zero');
    expect(kind('0.5')).toBe('dot-decimal');
    expect(kind('-0.5')).toBe('dot-decimal');
    expect(kind('0,5')).toBe('italian-decimal');
  });
  it('decimal separators', () => {
    expect(kind('1.644')).toBe('ambiguous-thousands');
    expect(kind('1.6440')).toBe('dot-decimal');
    expect(kind('15.643452700000001')).toBe('dot-decimal');
    expect(kind('.5')).toBe('dot-decimal');
    expect(kind('1e-05')).toBe('dot-decimal');
    expect(kind('1.5E+3')).toBe('dot-decimal');
    expect(kind('1e400')).toBe('text'); // Infinity is not a number we can store
    expect(kind('1.234,56')).toBe('italian-decimal');
    expect(kind('1234,5')).toBe('italian-decimal');
    expect(kind('1.234.567')).toBe('italian-integer');
    expect(kind('1.234.567.890.123.456.789')).toBe('italian-integer'); // within int8
    expect(kind('12.345.678.901.234.567.890')).toBe('huge-integer');
    for (const v of ['+5', '1,234.5', '1 234', '1\u00a0234', '12.34.56', '1.', '5%', '€5', '1-684', '0x1F', 'Infinity', 'NaN']) {
      expect([v, kind(v)]).toEqual([v, 'text']);
    }
  });
  it('booleans (any case), but not y/n or 0/1', () => {
    for (const v of ['true', 'TRUE', 't', 'Yes', 'sì', 'SÌ', 'si', 'Vero']) expect(classifyValue(v)).toEqual({ kind: 'bool', bool: true });
    for (const v of ['false', 'F', 'no', 'NO', 'falso']) expect(classifyValue(v)).toEqual({ kind: 'bool', bool: false });
    expect(classifyValue('si\u0300')).toEqual({ kind: 'bool', bool: true }); // decomposed ì
    expect(kind('y')).toBe('text');
    expect(kind('1')).toBe('int4');
    expect(kind('NA')).toBe('text');
  });
  it('dates and timestamps', () => {
    expect(kind('2020-02-24')).toBe('date-iso');
    expect(kind('24/02/2020')).toBe('date-dmy');
    expect(kind('4/2/2020')).toBe('date-dmy');
    expect(kind('24-02-2020')).toBe('date-dmy');
    expect(kind('24.02.2020')).toBe('date-dmy');
    expect(kind('2020-02-24T18:00:00')).toBe('timestamp-iso');
    expect(kind('2020-02-24 18:00')).toBe('timestamp-iso');
    expect(kind('2020-02-24T18:00:00Z')).toBe('timestamp-iso-tz');
    expect(kind('22/03/2022 17:18:54')).toBe('timestamp-dmy');
    for (const v of ['31/02/2020', '2020-02-30', '2019-02-29', '12/31/2020', '24/02/20', '2020-2-4', '24/02-2020', '0000-01-01']) {
      expect([v, kind(v)]).toEqual([v, 'text']);
    }
  });
  it('does not try patterns on long values', () => {
    expect(kind('1'.repeat(65))).toBe('text');
    expect(kind('1'.repeat(1_000_000))).toBe('text');
  });
});

describe('dates and timestamps', () => {
  it('validates calendar dates', () => {
    expect(parseDateValue('29/02/2020')).toEqual({ value: '2020-02-29', order: 'dmy' });
    expect(parseDateValue('29/02/2019')).toBeNull();
    expect(parseDateValue('31/02/2020')).toBeNull();
    expect(parseDateValue('31/04/2020')).toBeNull();
    expect(parseDateValue('29/02/1900')).toBeNull();
    expect(parseDateValue('29/02/2000')).toEqual({ value: '2000-02-29', order: 'dmy' });
    expect(parseDateValue('2020-13-01')).toBeNull();
    expect(parseDateValue('1/2/2020')).toEqual({ value: '2020-02-01', order: 'dmy' });
    expect(parseDateValue('0050-01-01')).toEqual({ value: '0050-01-01', order: 'iso' });
  });
  it('normalises timestamps: T separator, seconds, microseconds, no trailing zeros', () => {
    const v = (t: string): string | undefined => parseTimestampValue(t)?.value;
    expect(v('22/03/2022 17:18:54')).toBe('2022-03-22T17:18:54');
    expect(v('2/3/2022 7:05')).toBe('2022-03-02T07:05:00');
    expect(v('2020-02-24 18:00')).toBe('2020-02-24T18:00:00');
    expect(v('2020-02-24T18:00:00.500')).toBe('2020-02-24T18:00:00.5');
    expect(v('2020-02-24T18:00:00.1234567')).toBe('2020-02-24T18:00:00.123456');
    expect(v('2020-02-24T18:00:00.000')).toBe('2020-02-24T18:00:00');
    expect(v('2020-02-24T24:00:00')).toBeUndefined();
    expect(v('2020-02-24T18:60:00')).toBeUndefined();
    expect(v('2020-02-24T18:00:60')).toBeUndefined();
    expect(v('2020-02-24')).toBeUndefined(); // a date alone is not a timestamp value
  });
  it('converts zoned values to UTC', () => {
    expect(parseTimestampValue('2020-01-01T00:30:00+01:00')).toEqual({ value: '2019-12-31T23:30:00', order: 'iso', zoned: true });
    expect(parseTimestampValue('2020-03-29T03:00:00+0200')?.value).toBe('2020-03-29T01:00:00');
    expect(parseTimestampValue('2020-06-30T22:00:00-05')?.value).toBe('2020-07-01T03:00:00');
    expect(parseTimestampValue('2020-06-30T22:00:00.25Z')?.value).toBe('2020-06-30T22:00:00.25');
    expect(parseTimestampValue('0001-01-01T00:30:00+01:00')).toBeNull(); // would leave year 1
    expect(parseTimestampValue('2020-01-01T00:00:00+25:00')).toBeNull();
  });
});

describe('parserFor', () => {
  it('null for blank cells, whatever the format', () => {
    for (const format of ['text', 'integer', 'numeric-dot', 'bool-words', 'date-iso', 'timestamp-dmy'] as const) {
      expect(parserFor({ type: 'text', format })('  ')).toBeNull();
    }
  });
  it('text is returned as given, NA included', () => {
    const p = parserFor({ type: 'text', format: 'text' });
    expect(p('NA')).toBe('NA');
    expect(p(' 001 ')).toBe(' 001 ');
    expect(p('')).toBeNull();
  });
  it('integers, with range checks', () => {
    const p4 = parserFor({ type: 'int4', format: 'integer' });
    expect(p4(' 12 ')).toBe(12);
    expect(Object.is(p4('-0'), 0)).toBe(true);
    expect(() => p4('2147483648')).toThrow('"2147483648" is not a valid int4 (32-bit integer): out of the int4 range');
    expect(() => p4('1.5')).toThrow(ValueParseError);
    expect(parserFor({ type: 'int8', format: 'integer' })('9007199254740991')).toBe(9007199254740991);
    // Past 2^53 a JS number is exact only where it says the same digits (2^53 itself): otherwise
    // the value is kept as its text (exact-number.ts).
    const p8 = parserFor({ type: 'int8', format: 'integer' });
    expect([p8('9007199254740992'), p8('9007199254740993'), p8('-9007199254740993')]).toEqual([
      9007199254740992,
      '9007199254740993',
      '-9007199254740993',
    ]);
    expect(Object.is(p8('-0'), 0)).toBe(true);
    expect([p4('2147483647'), p4('-2147483648'), p8('-2147483649')]).toEqual([2147483647, -2147483648, -2147483649]);
  });
  it('dot decimals read 1.234 as 1.234', () => {
    const p = parserFor({ type: 'numeric', format: 'numeric-dot' });
    expect([p('1.644'), p('1.234'), p('7'), p('-0.5'), p('1e-05')]).toEqual([1.644, 1.234, 7, -0.5, 0.00001]);
    expect(() => p('1,5')).toThrow('"1,5" is not a valid number');
  });
  it('Italian numbers', () => {
    const p = parserFor({ type: 'numeric', format: 'numeric-italian' });
    expect([p('1.234,56'), p('0,5'), p('1.234'), p('12'), p('-1.234.567,8')]).toEqual([1234.56, 0.5, 1234, 12, -1234567.8]);
    expect(() => p('1.5')).toThrow(ValueParseError);
    const pi = parserFor({ type: 'int4', format: 'numeric-italian' });
    expect(pi('1.234.567')).toBe(1234567);
    expect(() => pi('1,5')).toThrow(ValueParseError);
  });
  it('booleans', () => {
    const p = parserFor({ type: 'bool', format: 'bool-words' });
    expect([p('Sì'), p('no'), p('VERO'), p('f')]).toEqual([true, false, true, false]);
    expect(() => p('1')).toThrow('"1" is not a valid boolean');
  });
  it('dates and timestamps keep to their column format', () => {
    expect(parserFor({ type: 'date', format: 'date-dmy' })('1/2/2020')).toBe('2020-02-01');
    expect(() => parserFor({ type: 'date', format: 'date-dmy' })('2020-02-01')).toThrow(ValueParseError);
    const ts = parserFor({ type: 'timestamp', format: 'timestamp-dmy' });
    expect(ts('22/03/2022 17:18:54')).toBe('2022-03-22T17:18:54');
    expect(ts('22/03/2022')).toBe('2022-03-22T00:00:00');
    const iso = parserFor({ type: 'timestamp', format: 'timestamp-iso' });
    expect(iso('2020-02-24T18:00:00')).toBe('2020-02-24T18:00:00');
    expect(() => iso('2020-02-24T18:00:00Z')).toThrow(ValueParseError);
    expect(parserFor({ type: 'timestamp', format: 'timestamp-iso-utc' })('2020-02-24T18:00:00+01:00')).toBe('2020-02-24T17:00:00');
  });
});

describe('parseAs (forced types)', () => {
  it('blank → null; text as is', () => {
    expect(parseAs('int4', ' ')).toBeNull();
    expect(parseAs('text', 'NA')).toBe('NA');
  });
  it('integers accept leading zeros and +, check ranges', () => {
    expect(parseAs('int4', '001')).toBe(1);
    expect(parseAs('int4', '+7')).toBe(7);
    expect(parseAs('int8', '2147483648')).toBe(2147483648);
    expect(parseAs('int4', '1.234.567')).toBe(1234567);
    expect(() => parseAs('int4', '2147483648')).toThrow('"2147483648" is not a valid int4 (32-bit integer): out of the int4 range');
    expect(parseAs('int8', '+009223372036854775807')).toBe('9223372036854775807');
    expect(() => parseAs('int8', '9223372036854775808')).toThrow(
      '"9223372036854775808" is not a valid int8 (64-bit integer): out of the int8 range',
    );
    expect(() => parseAs('int4', '1.5')).toThrow('"1.5" is not a valid int4');
    expect(() => parseAs('int4', 'NA')).toThrow('"NA" is not a valid int4');
  });
  it('numeric accepts dot and Italian forms', () => {
    expect(parseAs('numeric', '1.5')).toBe(1.5);
    expect(parseAs('numeric', '007.5')).toBe(7.5);
    expect(parseAs('numeric', '1.234')).toBe(1.234);
    expect(parseAs('numeric', '1.234,5')).toBe(1234.5);
    expect(parseAs('numeric', '0,5')).toBe(0.5);
    expect(parseAs('numeric', '-1e3')).toBe(-1000);
    // The written scale is kept: the exact text where a double would drop it.
    expect(parseAs('numeric', '2.199,50')).toBe('2199.50');
    expect(parseAs('numeric', '10.00')).toBe('10.00');
    expect(parseAs('numeric', '1e400')).toBe(`1${'0'.repeat(400)}`);
    expect(() => parseAs('numeric', 'n.d.')).toThrow('"n.d." is not a valid number');
  });
  it('bool accepts PostgreSQL spellings too', () => {
    expect(['1', '0', 'on', 'OFF', 'y', 'N', 'sì', 'falso'].map((v) => parseAs('bool', v))).toEqual([
      true,
      false,
      true,
      false,
      true,
      false,
      true,
      false,
    ]);
    expect(() => parseAs('bool', 'x')).toThrow('"x" is not a valid boolean');
  });
  it('date and timestamp', () => {
    expect(parseAs('date', '24/02/2020')).toBe('2020-02-24');
    expect(parseAs('date', '2020-02-24')).toBe('2020-02-24');
    expect(() => parseAs('date', '31/02/2020')).toThrow('"31/02/2020" is not a valid date');
    expect(() => parseAs('date', '2020-02-24T10:00:00')).toThrow(ValueParseError);
    expect(parseAs('timestamp', '2020-02-24')).toBe('2020-02-24T00:00:00');
    expect(parseAs('timestamp', '22/03/2022 17:18')).toBe('2022-03-22T17:18:00');
    expect(parseAs('timestamp', '2020-02-24T18:00:00+01:00')).toBe('2020-02-24T17:00:00');
  });
  it('names the value in errors, shortened when huge', () => {
    const huge = '9'.repeat(1_000_000);
    let error: unknown;
    try {
      parseAs('numeric', huge);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValueParseError);
    expect((error as ValueParseError).message).toBe(`"${'9'.repeat(80)}…" is not a valid number: too long`);
    expect((error as ValueParseError).value).toBe(huge);
  });
});

describe('classifyValue’s shortcut for plain numbers', () => {
  it('classifies exactly as the patterns do', () => {
    const random = lcg(99);
    const alphabet = '-0123456789.,eE +x';
    const samples = ['0', '-0', '7', '123456789', '1234567890', '2147483648', '0.5', '-0.5', '.5', '1.234', '0.123', '12.345', '01', '1.', '-', '1-2'];
    for (let k = 0; k < 20_000; k++) {
      let text = '';
      const n = 1 + Math.floor(random() * 14);
      for (let i = 0; i < n; i++) text += alphabet[Math.floor(random() * (random() < 0.8 ? 12 : alphabet.length))];
      samples.push(text.trim() || '0');
    }
    for (const text of samples) expect([text, classifyValue(text)]).toEqual([text, classifyByPatterns(text)]);
  });
});
