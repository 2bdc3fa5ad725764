import { describe, expect, it } from 'vitest';
import { EMPTY, NOT_EMPTY, isEmptyChoice, sameChoice, toggleChoice } from '../../../src/renderer/src/features/table/filter-choice';

describe('filter choices', () => {
  it('tells blank choices from values', () => {
    expect(isEmptyChoice({ deskstore_empty: true })).toBe(true);
    expect(isEmptyChoice({ deskstore_empty: 1 })).toBe(false);
    expect(isEmptyChoice({ deskstore_empty: true, x: 1 })).toBe(false);
    expect(sameChoice({ deskstore_empty: true }, EMPTY)).toBe(true);
    expect(sameChoice(EMPTY, NOT_EMPTY)).toBe(false);
    expect(sameChoice('1', 1)).toBe(false);
  });

  it('"(not empty)" stands alone; values and "(empty)" go together', () => {
    expect(toggleChoice(['a'], EMPTY)).toEqual(['a', EMPTY]);
    expect(toggleChoice(['a', EMPTY], NOT_EMPTY)).toEqual([NOT_EMPTY]);
    expect(toggleChoice([NOT_EMPTY], 'a')).toEqual(['a']);
    expect(toggleChoice([NOT_EMPTY], EMPTY)).toEqual([EMPTY]);
    expect(toggleChoice(['a', EMPTY], EMPTY)).toEqual(['a']);
  });
});
