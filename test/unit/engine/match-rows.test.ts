import { describe, expect, it } from 'vitest';
import { Column } from '../../../src/main/engine/column-store/column';
import { TableStore } from '../../../src/main/engine/column-store/table-store';
import { fieldTypeOf } from '../../../src/main/engine/field-types';
import { MATCH_ALL } from '../../../src/main/engine/search/column-predicates';
import { matchRows } from '../../../src/main/engine/search/match-rows';

/** A q's rows without filters: the live ones among the candidates, without a copy when all are live. */
describe('matchRows with full-text candidates and no filter', () => {
  const store = () => {
    const codes = Uint32Array.from([0, 1, 1, 1, 1, 1]);
    const live = Uint8Array.from([0, 1, 1, 1, 1, 1]);
    return new TableStore([new Column('k', fieldTypeOf('text'), [null, 'a'], codes)], live, 5);
  };

  it('returns the candidates themselves when every one is live', () => {
    const candidates = Uint32Array.from([1, 3, 5]);
    expect(matchRows(MATCH_ALL, store(), candidates)).toBe(candidates);
  });

  it('leaves out deleted rows, wherever they are', () => {
    for (const dead of [1, 3, 5]) {
      const s = store();
      s.live[dead] = 0;
      const candidates = Uint32Array.from([1, 3, 5]);
      expect([...matchRows(MATCH_ALL, s, candidates)]).toEqual([1, 3, 5].filter((r) => r !== dead));
      expect([...candidates]).toEqual([1, 3, 5]);
    }
  });
});
