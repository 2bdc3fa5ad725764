import { describe, expect, it } from 'vitest';
import { Column } from '../../../src/main/engine/column-store/column';
import { fieldTypeOf } from '../../../src/main/engine/field-types';

/**
 * A write to a mostly unique column (`mayRepeat`) appends to its dictionary instead of first
 * building a lookup table of every value (seconds on a million values, the first write on a
 * fresh resource waited for it); lookups and grouping still see equal values as equal.
 */
describe('writes to a column that may repeat values', () => {
  it('appends without a lookup table and still finds, groups and sorts equal values together', () => {
    const column = new Column('t', fieldTypeOf('text'), [null, 'b', 'a', 'c'], Uint32Array.from([0, 1, 2, 3]), true);
    column.set(4, 'a'); // already in the dictionary
    column.set(5, 'd');
    expect([column.valueOf(4), column.valueOf(5)]).toEqual(['a', 'd']);
    expect(column.distinctCount).toBe(5); // 'a' twice: appended, not looked up
    expect(column.codesOf('a').sort()).toEqual([2, 4]);
    const canonical = column.canonicalCodes();
    expect(canonical[column.codes[4]!]).toBe(canonical[column.codes[2]!]);
    const ranks = column.sortRanks();
    expect(ranks[column.codes[4]!]).toBe(ranks[column.codes[2]!]);
    expect(ranks[column.codes[5]!]).toBeGreaterThan(ranks[column.codes[3]!]!);
  });

  it('keeps one entry per value in a column that does not repeat', () => {
    const column = new Column('t', fieldTypeOf('text'), [null, 'b', 'a'], Uint32Array.from([0, 1, 2]));
    column.set(3, 'a');
    expect(column.codes[3]).toBe(2);
    expect(column.distinctCount).toBe(2);
  });
});
