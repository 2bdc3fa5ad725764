// Exact numerics (docs/sql-and-values.md) against the plain doubles they replaced, on the
// benchmark's `importo` column: 1,000,000 amounts written with two decimals (`12345.60`), so
// about one in ten is kept as its exact text. Each figure is a ratio to a baseline measured in
// this run (the same work on the same values as doubles), with the target it must meet; the
// assertions check only that both paths agree.
import { describe, expect, it } from 'vitest';
import { Column } from '../../src/main/engine/column-store/column';
import { rankCodes } from '../../src/main/engine/column-store/sort-order';
import { TableStore } from '../../src/main/engine/column-store/table-store';
import { fieldTypeOf } from '../../src/main/engine/field-types';
import { compileFilter } from '../../src/main/engine/search/column-predicates';
import { filterColumnsOf, parseFilters } from '../../src/main/engine/search/filters';
import { matchRows } from '../../src/main/engine/search/match-rows';
import type { StoredValue } from '../../src/main/engine/values/coerce';
import { canonicalDecimal, exactFromCanonical } from '../../src/main/engine/values/exact-number';
import { fastestMs, reportRatio } from './ratio-report';

const best = (run: () => unknown, repeats = 5) => fastestMs(run, repeats);
const report = (label: string, time: number, baseline: number, target: number) =>
  reportRatio(['exact', 'doubles'] as const, label, time, baseline, target);

const ROWS = 1_000_000;

function importoTexts(): string[] {
  // The benchmark generator's xorshift32 and its `(random() * 100000).toFixed(2)`.
  let state = 20261121 >>> 0;
  const random = () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 4294967296;
  };
  return Array.from({ length: ROWS }, () => (random() * 100000).toFixed(2));
}

describe('exact numerics vs doubles, 1M importo values (printed, not asserted)', () => {
  const texts = importoTexts();
  const exactValues: StoredValue[] = [null, ...texts.map((t) => exactFromCanonical(canonicalDecimal(t)!))];
  const doubleValues: StoredValue[] = [null, ...texts.map(Number)];
  const codes = Uint32Array.from({ length: ROWS + 1 }, (_, i) => i);
  const live = new Uint8Array(ROWS + 1).fill(1);
  live[0] = 0;
  const numeric = fieldTypeOf('numeric');
  const float = fieldTypeOf('float8');

  it('import: reading the cells', () => {
    const exact = best(() => texts.map((t) => exactFromCanonical(canonicalDecimal(t)!)), 3);
    const doubles = best(() => texts.map(Number), 3);
    report('parse 1M cells (canonical text vs Number)', exact, doubles, 1.5);
    console.log(`  values kept as exact text: ${exactValues.filter((v) => typeof v === 'string').length.toLocaleString('en')}`);
  });

  it('sort: ranking the dictionary', () => {
    let exactRanks: Uint32Array = new Uint32Array(0);
    let doubleRanks: Uint32Array = new Uint32Array(0);
    const exact = best(() => {
      exactRanks = rankCodes(exactValues, 'exact');
    }, 3);
    const doubles = best(() => {
      doubleRanks = rankCodes(doubleValues, 'real');
    }, 3);
    report('rank 1M distinct values (first sort)', exact, doubles, 1.5);
    expect(exactRanks).toEqual(doubleRanks);
  });

  it('filter: a range over the column, with the row scan', () => {
    const filters = { importo: { gte: '25000.5', lt: '75000' } };
    const run = (type: typeof numeric, values: StoredValue[]) => {
      const store = new TableStore([new Column('importo', type, values, codes, true)], live, ROWS);
      const predicate = compileFilter(parseFilters(filters, filterColumnsOf([{ id: 'importo', type }])), store);
      return matchRows(predicate, store, null).length;
    };
    let exactCount = 0;
    let doubleCount = 0;
    const exact = best(() => {
      exactCount = run(numeric, exactValues);
    });
    const doubles = best(() => {
      doubleCount = run(float, doubleValues);
    });
    report('range filter over 1M rows (cold, per request)', exact, doubles, 1.5);
    expect(exactCount).toBe(doubleCount);
  });
});
