// Text order as CKAN's PostgreSQL gives it (engine/collation/glibc-collation.ts, issue 23)
// against the key it replaced (accents stripped and lower-cased, then accents, then the text:
// close to en_US for plain names, wrong for punctuation, æ ø ł ß and more). The work measured
// is the first sort of a text column: ranking its dictionary (engine/column-store/sort-order.ts),
// on 200,000 distinct names made from world-cities.csv; and one SQL ORDER BY's worth of keys.
// Ratios to the old key in the same run, with the target each must meet; the assertions check
// only that both rankings cover every value.
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { collationKey } from '../../src/main/engine/collation/glibc-collation';
import { rankCodes } from '../../src/main/engine/column-store/sort-order';
import type { StoredValue } from '../../src/main/engine/values/coerce';
import { dataFile } from '../../test/helpers/fixtures';
import { fastestMs, reportRatio } from './ratio-report';

const best = (run: () => unknown, repeats = 3) => fastestMs(run, repeats);
const report = (label: string, time: number, baseline: number, target: number) =>
  reportRatio(['glibc', 'previous'] as const, label, time, baseline, target);

const COMBINING_MARKS = /\p{M}+/gu;
/** The key Deskstore used before issue 23, kept here only as the baseline. */
function previousKey(text: string): string {
  const decomposed = text.normalize('NFD');
  const base = decomposed.replace(COMBINING_MARKS, '').toLowerCase();
  return `${base}\u0001${decomposed.toLowerCase()}\u0001${text}`;
}

function previousRanks(values: readonly StoredValue[]): Uint32Array {
  const n = values.length;
  const keys = new Array<string>(n - 1);
  for (let c = 1; c < n; c++) keys[c - 1] = previousKey(values[c] as string);
  const order = Uint32Array.from({ length: n - 1 }, (_, i) => i).sort((i, j) => (keys[i]! < keys[j]! ? -1 : keys[i]! > keys[j]! ? 1 : 0));
  const ranks = new Uint32Array(n);
  order.forEach((i, k) => (ranks[i + 1] = k + 1));
  return ranks;
}

describe('text collation vs the previous key, 200k distinct names (printed, not asserted)', () => {
  const rows = Papa.parse<string[]>(readFileSync(dataFile('world-cities.csv'), 'utf8'), { delimiter: ',' }).data.slice(1);
  const names: string[] = [];
  for (let i = 0; names.length < 200_000; i++) {
    const r = rows[i % rows.length]!;
    // Flat strings, as values decoded from a file are.
    names.push(JSON.parse(JSON.stringify(`${r[0]}, ${r[2]} ${Math.floor(i / rows.length) || ''}`.trim())) as string);
  }
  const values: StoredValue[] = [null, ...new Set(names)];

  it('sort: ranking the dictionary (first sort of a column)', () => {
    let ranks: Uint32Array = new Uint32Array(0);
    const glibc = best(() => (ranks = rankCodes(values, 'text')));
    const previous = best(() => previousRanks(values));
    report(`rank ${(values.length - 1).toLocaleString('en')} distinct names`, glibc, previous, 2);
    expect(new Set(ranks.slice(1)).size).toBe(values.length - 1);
  });

  it('SQL ORDER BY: one key per row', () => {
    const glibc = best(() => values.slice(1).forEach((v) => collationKey(v as string)));
    const previous = best(() => values.slice(1).forEach((v) => previousKey(v as string)));
    report('full keys for every name', glibc, previous, 4);
  });
});
