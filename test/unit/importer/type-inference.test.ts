import { growthRatio, LINEAR_GROWTH_BOUND } from '../../helpers/scaling';
import { describe, expect, it } from 'vitest';
import { ColumnTypeInference, type InferenceOptions, type InferredColumn } from '../../../src/main/importer/type-inference';
import { parserFor } from '../../../src/main/importer/value-parsers';

/** Feeds distinct values as the pipeline does (with counts) and returns the verdict. */
function infer(values: string[] | Record<string, number>, options?: InferenceOptions): InferredColumn {
  const inference = new ColumnTypeInference(options);
  const entries: [string, number][] = Array.isArray(values) ? values.map((v) => [v, 1]) : Object.entries(values);
  for (const [v, n] of entries) inference.observe(v, n);
  return inference.result();
}

const typeOf = (values: string[], options?: InferenceOptions): [string, string] => {
  const r = infer(values, options);
  return [r.type, r.format];
};

describe('ColumnTypeInference: nulls', () => {
  it('blank cells (after trimming spaces) are null and counted', () => {
    expect(infer({ '': 5, '  ': 2, '7': 3 })).toMatchObject({
      type: 'int4',
      format: 'integer',
      nullCount: 7,
      distinctValues: 1,
      reason: { text: 'integers within int4, e.g. "7"' },
    });
  });
  it('NA is a value, never null (Napoli, Namibia)', () => {
    const r = infer({ NA: 1781, MI: 10, '': 3 });
    expect(r).toMatchObject({ type: 'text', nullCount: 3, distinctValues: 2 });
    expect(parserFor(r)('NA')).toBe('NA');
    expect(typeOf(['1', 'NA'])).toEqual(['text', 'text']);
  });
  it('cells with nothing visible (NBSP, zero-width space) are null; NBSP next to a value is not trimmed', () => {
    expect(infer({ '\u00a0': 4, '\u200b': 1, ' \u00a0\u3000 ': 1, '1': 2 })).toMatchObject({ type: 'int4', nullCount: 6 });
    expect(typeOf(['12\u00a0', '1'])).toEqual(['text', 'text']);
    expect(parserFor({ type: 'text', format: 'text' })('\u00a0')).toBeNull();
    expect(parserFor({ type: 'text', format: 'text' })('a\u00a0')).toBe('a\u00a0');
  });
  it('an all-empty column is text', () => {
    expect(infer({ '': 10 })).toMatchObject({
      type: 'text',
      format: 'text',
      nullCount: 10,
      distinctValues: 0,
      reason: { text: 'no values: all 10 cells are empty' },
    });
  });
});

describe('ColumnTypeInference: numbers', () => {
  it('leading zeros keep codes text; 0, 0.5, -0.5 are numbers', () => {
    expect(infer(['001', '066', '0010'])).toMatchObject({
      type: 'text',
      reason: { text: 'codes with leading zeros such as "001": kept as text so the zeros are not lost' },
    });
    expect(typeOf(['0', '10', '200'])).toEqual(['int4', 'integer']);
    expect(typeOf(['0', '0.5', '-0.5'])).toEqual(['numeric', 'numeric-dot']);
    expect(typeOf(['12', '066'])).toEqual(['text', 'text']);
  });
  it('padded values are trimmed: " 001 " is a code, " 12 " is 12', () => {
    expect(typeOf([' 001 ', ' 002 '])).toEqual(['text', 'text']);
    const r = infer([' 12 ', '13']);
    expect([r.type, parserFor(r)(' 12 ')]).toEqual(['int4', 12]);
  });
  it('int4 within ±2^31, int8 within ±2^63 (exact), text beyond', () => {
    expect(typeOf(['2147483647', '-2147483648'])).toEqual(['int4', 'integer']);
    expect(typeOf(['1', '2147483648'])).toEqual(['int8', 'integer']);
    expect(typeOf(['1', '-2147483649'])).toEqual(['int8', 'integer']);
    expect(typeOf(['9007199254740991', '-9007199254740991'])).toEqual(['int8', 'integer']);
    expect(typeOf(['1', '9223372036854775807'])).toEqual(['int8', 'integer']);
    expect(infer(['1', '9223372036854775808'])).toMatchObject({
      type: 'text',
      reason: { text: '"9223372036854775808" is beyond the int8 range (±9223372036854775807): an identifier rather than a number' },
    });
  });
  it('0/1 stays int4, with an explanation', () => {
    expect(infer(['0', '1'])).toMatchObject({
      type: 'int4',
      format: 'integer',
      reason: { text: 'only 0/1 values: kept as int4, as CKAN types them; force bool if it is a flag' },
    });
    expect(infer(['0', '1', '2']).reason.text).toBe('integers within int4, e.g. "0"');
  });
  it('dot decimals', () => {
    expect(infer(['1.644', '0.001', '4', '15.643452700000001'])).toMatchObject({
      type: 'numeric',
      format: 'numeric-dot',
      reason: { text: 'decimal numbers with a point, e.g. "0.001"' },
    });
    expect(typeOf(['1e-05', '2.5'])).toEqual(['numeric', 'numeric-dot']);
  });
  it('a column of 1.234-like values only is dot-decimal', () => {
    const r = infer(['1.234', '2.345', '17']);
    expect(r).toMatchObject({
      type: 'numeric',
      format: 'numeric-dot',
      reason: { text: 'decimal numbers with a point, e.g. "1.234" (no value uses a decimal comma, so the dot is a decimal point)' },
    });
    expect(parserFor(r)('1.234')).toBe(1.234);
  });
  it('Italian decimals when the whole column agrees', () => {
    const r = infer(['1.234,56', '0,5', '12', '1.234']);
    expect(r).toMatchObject({
      type: 'numeric',
      format: 'numeric-italian',
      reason: { text: 'Italian number format (decimal comma, dots for thousands), e.g. "1.234,56"; "1.234" is read as thousands' },
    });
    const parse = parserFor(r);
    expect(['1.234,56', '0,5', '12', '1.234'].map(parse)).toEqual([1234.56, 0.5, 12, 1234]);
  });
  it('Italian thousands without decimals are integers', () => {
    const r = infer(['1.234', '1.234.567', '12']);
    expect([r.type, r.format]).toEqual(['int4', 'numeric-italian']);
    expect(parserFor(r)('1.234')).toBe(1234);
    expect(typeOf(['2.147.483.648'])).toEqual(['int8', 'numeric-italian']);
  });
  it('contradicting separators make text', () => {
    expect(infer(['1,5', '0.5'])).toMatchObject({
      type: 'text',
      reason: { text: 'mixed decimal separators: "0.5" (decimals with a point) and "1,5" (decimals with a comma)' },
    });
    expect(typeOf(['1.234.567', '1.5'])).toEqual(['text', 'text']);
  });
  it('no decimal comma in comma-delimited files (a quoted "2,2" is a list)', () => {
    expect(infer(['2', '0', '2,2'], { decimalComma: false })).toMatchObject({
      type: 'text',
      reason: { text: '"2,2" has a comma, which is not a decimal separator in a comma-delimited file' },
    });
    expect(typeOf(['2', '0', '2,2'])).toEqual(['numeric', 'numeric-italian']);
  });
  it('mixed numbers and text', () => {
    expect(infer(['93', '1-684', '44'])).toMatchObject({
      type: 'text',
      reason: { text: '"1-684" is not a number, date or boolean, unlike integers such as "93"' },
    });
    expect(typeOf(['1', 'n.d.'])).toEqual(['text', 'text']);
    expect(typeOf(['1', '-'])).toEqual(['text', 'text']);
  });
});

describe('ColumnTypeInference: booleans', () => {
  it('recognises the word pairs, any case', () => {
    for (const pair of [
      ['true', 'false'],
      ['T', 'F'],
      ['yes', 'no'],
      ['Sì', 'No'],
      ['si', 'NO'],
      ['VERO', 'falso'],
    ]) {
      expect(typeOf(pair)).toEqual(['bool', 'bool-words']);
    }
    expect(typeOf(['yes'])).toEqual(['bool', 'bool-words']);
  });
  it('a single one- or two-letter value is a code', () => {
    expect(infer(['F'])).toMatchObject({
      type: 'text',
      reason: { text: 'only "F": a single one- or two-letter value is more likely a code than a boolean' },
    });
    expect(typeOf(['NO'])).toEqual(['text', 'text']);
  });
  it('booleans mixed with anything else are text', () => {
    expect(infer(['yes', '1'])).toMatchObject({ type: 'text', reason: { text: 'mixed values: "1" (integers) and "yes" (booleans)' } });
    expect(typeOf(['Yes', 'No', 'Part of FI'])).toEqual(['text', 'text']);
  });
});

describe('ColumnTypeInference: dates and timestamps', () => {
  it('ISO and day-first dates, validated', () => {
    expect(typeOf(['2020-01-01', '2020-02-29'])).toEqual(['date', 'date-iso']);
    expect(typeOf(['1/2/2020', '24/12/2020', '24-12-2020', '24.12.2020'])).toEqual(['date', 'date-dmy']);
    expect(infer(['01/02/2020', '31/02/2020'])).toMatchObject({
      type: 'text',
      reason: { text: '"31/02/2020" is not a number, date or boolean, unlike day-first dates such as "01/02/2020"' },
    });
  });
  it('timestamps, with dates alone as midnight', () => {
    expect(typeOf(['2020-02-24T18:00:00', '2020-02-24 17:00'])).toEqual(['timestamp', 'timestamp-iso']);
    const r = infer(['2020-01-01', '2020-01-01T10:00:00']);
    expect(r).toMatchObject({
      type: 'timestamp',
      format: 'timestamp-iso',
      reason: { text: 'ISO timestamps, e.g. "2020-01-01T10:00:00"; dates alone such as "2020-01-01" mean midnight' },
    });
    expect(parserFor(r)('2020-01-01')).toBe('2020-01-01T00:00:00');
    expect(typeOf(['22/03/2022 17:18:54', '21/03/2022'])).toEqual(['timestamp', 'timestamp-dmy']);
  });
  it('ISO mixed with day-first is text', () => {
    expect(infer(['2020-01-01', '02/01/2020'])).toMatchObject({
      type: 'text',
      reason: { text: 'mixed date formats: "2020-01-01" (ISO dates) and "02/01/2020" (day-first dates)' },
    });
  });
  it('zoned timestamps become UTC; zoned mixed with zone-less is text', () => {
    const r = infer(['2020-03-01T10:00:00+01:00', '2020-07-01T10:00:00+02:00', '2020-07-01T10:00:00Z']);
    expect(r).toMatchObject({ type: 'timestamp', format: 'timestamp-iso-utc' });
    expect(r.reason.text).toBe('ISO timestamps with a UTC offset, e.g. "2020-03-01T10:00:00+01:00": stored converted to UTC');
    expect(parserFor(r)('2020-07-01T10:00:00+02:00')).toBe('2020-07-01T08:00:00');
    expect(typeOf(['2020-03-01T10:00:00+01:00', '2020-03-01T10:00:00'])).toEqual(['text', 'text']);
  });
  it('dates mixed with numbers are text', () => {
    expect(typeOf(['2020-01-01', '2020'])).toEqual(['text', 'text']);
  });
});

describe('ColumnTypeInference: hostile input', () => {
  it('a 1 MB cell is text', () => {
    expect(typeOf(['1', 'x'.repeat(1_000_000)])).toEqual(['text', 'text']);
    expect(typeOf(['1', '9'.repeat(1_000_000)])).toEqual(['text', 'text']);
    expect(typeOf(['2020-01-01' + ' '.repeat(1_000_000) + 'x'])).toEqual(['text', 'text']);
  });
  it('typing a long cell costs time linear in its length', () => {
    for (const long of [(n: number) => 'x'.repeat(n), (n: number) => '9'.repeat(n), (n: number) => '2020-01-01' + ' '.repeat(n) + 'x']) {
      // From 400 kB: below that, V8's string fast paths make the small size unrepresentatively cheap.
      expect(growthRatio((n) => typeOf(['1', long(n)]), 400_000)).toBeLessThan(LINEAR_GROWTH_BOUND);
    }
  });
  it('control characters and lone surrogates are just text', () => {
    expect(typeOf(['1\u0000', '\ud800'])).toEqual(['text', 'text']);
  });
  it('many distinct values: every one counted, at a cost linear in their number', () => {
    const observeMany = (n: number) => {
      const inference = new ColumnTypeInference();
      for (let i = 0; i < n; i++) inference.observe(`${i}.${i % 97}5`);
      return inference;
    };
    expect(observeMany(200_000).result()).toMatchObject({ type: 'numeric', format: 'numeric-dot', distinctValues: 200_000 });
    expect(growthRatio(observeMany, 10_000)).toBeLessThan(LINEAR_GROWTH_BOUND);
  });
});
