// Build time of the full-text index for the import benchmark's description column: 1M mostly
// unique Italian descriptions (bench/generate.js, 9th field). Prints timings, asserts only
// correctness (machines differ). Reads bench/.work/bench-1000000.csv (made by npm run bench) when present, else generates.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Column } from '../../src/main/engine/column-store/column';
import { TableStore } from '../../src/main/engine/column-store/table-store';
import { fieldTypeOf } from '../../src/main/engine/field-types';
import { mergeDisjointIndexes } from '../../src/main/engine/fts/merge-indexes';
import { buildTextIndex } from '../../src/main/engine/text-index/build-text-index';
import type { StoredValue } from '../../src/main/engine/values/coerce';

const ROWS = 1_000_000;
const CSV = join(__dirname, '../.work/bench-1000000.csv');

async function descriptions(): Promise<string[]> {
  const out: string[] = [];
  const field = (line: string): string => {
    const d = line.split(';')[8]!;
    return d.startsWith('"') && d.endsWith('"') ? d.slice(1, -1) : d;
  };
  if (existsSync(CSV)) {
    const lines = readFileSync(CSV, 'utf8').split('\n');
    for (let i = 1; i < lines.length && out.length < ROWS; i++) if (lines[i]) out.push(field(lines[i]!));
    if (out.length === ROWS) return out;
    out.length = 0;
  }
  // @ts-expect-error plain JS module without types
  const { rows } = (await import('../generate.js')) as { rows: (n: number) => Iterable<string> };
  for (const line of rows(ROWS)) out.push(field(line));
  return out;
}

function sameArray(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function storeOf(values: readonly string[]): TableStore {
  const dict: StoredValue[] = [null, ...values];
  const codes = new Uint32Array(values.length + 1);
  for (let r = 1; r <= values.length; r++) codes[r] = r;
  const live = new Uint8Array(values.length + 1).fill(1);
  live[0] = 0;
  return new TableStore([new Column('descrizione', fieldTypeOf('text'), dict, codes, true)], live, values.length);
}

describe('text index build speed (printed, not asserted)', () => {
  it('1M Italian descriptions: whole, and two halves + merge', { timeout: 600_000 }, async () => {
    const store = storeOf(await descriptions());
    const indexed = new Set(['descrizione']);
    const half = Math.floor(store.maxRowId / 2);
    const whole: number[] = [];
    const halves: number[][] = [[], [], []];
    let index = buildTextIndex(store, 'italian', indexed);
    for (let rep = 0; rep < 3; rep++) {
      let started = performance.now();
      index = buildTextIndex(store, 'italian', indexed);
      whole.push(performance.now() - started);
      started = performance.now();
      const first = buildTextIndex(store, 'italian', indexed, { fromRowId: 1, toRowId: half });
      const middle = performance.now();
      const second = buildTextIndex(store, 'italian', indexed, { fromRowId: half + 1 });
      const merging = performance.now();
      const merged = mergeDisjointIndexes(first, second);
      const done = performance.now();
      halves[0]!.push(middle - started);
      halves[1]!.push(merging - middle);
      halves[2]!.push(done - merging);
      if (rep === 0) {
        // Plain loops: toEqual on 8M-element arrays takes most of a minute.
        expect(merged.termCount).toBe(index.termCount);
        expect(sameArray(merged.termBytes, index.termBytes)).toBe(true);
        expect(sameArray(merged.offsets, index.offsets)).toBe(true);
        expect(sameArray(merged.rowIds, index.rowIds)).toBe(true);
        expect(sameArray(merged.tfs, index.tfs)).toBe(true);
      }
    }
    const ms = (t: number[]): string => `${Math.min(...t).toFixed(0)} ms (runs: ${t.map((x) => x.toFixed(0)).join(' / ')})`;
    console.log(
      `buildTextIndex, ${ROWS} rows, ${index.termCount} terms, ${index.postingCount} postings:\n` +
        `  whole:         ${ms(whole)}\n` +
        `  first half:    ${ms(halves[0]!)}\n` +
        `  second half:   ${ms(halves[1]!)}\n` +
        `  merge:         ${ms(halves[2]!)}\n` +
        `  two cores ~ max(half) + merge = ${(Math.max(Math.min(...halves[0]!), Math.min(...halves[1]!)) + Math.min(...halves[2]!)).toFixed(0)} ms`,
    );
    expect(index.postingCount).toBeGreaterThan(ROWS);
  });
});
