import { describe, expect, it } from 'vitest';
import { Column } from '../../../src/main/engine/column-store/column';
import { rankCodes, rowsByRank, rowsInOrder } from '../../../src/main/engine/column-store/sort-order';
import { TableStore } from '../../../src/main/engine/column-store/table-store';
import { fieldTypeOf } from '../../../src/main/engine/field-types';
import { executeSearch, type SearchableResource } from '../../../src/main/engine/search/execute-search';
import { searchRequest } from '../../../src/main/params/search-params';
import { columnKey, sortByKeys } from '../../../src/main/engine/search/sort-rows';
import type { StoredValue } from '../../../src/main/engine/values/coerce';

/**
 * Issue 24: a sort by one column over most of a table picks the rows from the column's row
 * order (built once, kept until a write) instead of a counting sort per query. The order it
 * gives must be the one the counting sort of rank keys gave: NULLs first or last, ascending or
 * descending, ties by `_id` ascending, texts in the collation's order.
 */

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

const TEXTS = ['città', 'Citta', 'CITTÀ', 'Forlì', 'forli', 'école', 'Ecole', 'zebra', '10', '9', '', 'a-b', 'ab', 'ß', 'ss', '東京'];

/** A column of `rows` rows: some NULL, many ties, texts or numbers. */
function generated(random: () => number, rows: number, text: boolean): { values: StoredValue[]; codes: Uint32Array; type: string } {
  const values: StoredValue[] = [null];
  const distinct = text ? TEXTS.length : 40;
  for (let v = 0; v < distinct; v++) values.push(text ? TEXTS[v]! : Math.round((random() - 0.5) * 100) / 4);
  const codes = new Uint32Array(rows + 1);
  for (let r = 1; r <= rows; r++) codes[r] = random() < 0.15 ? 0 : 1 + Math.floor(random() * distinct);
  return { values, codes, type: text ? 'text' : 'float8' };
}

describe('a column row order', () => {
  it('gives every subset of rows the order of the counting sort of rank keys', () => {
    const random = seeded(2024);
    for (const text of [true, false]) {
      const rows = 3000;
      const { values, codes } = generated(random, rows, text);
      const ranks = rankCodes(values, fieldTypeOf(text ? 'text' : 'float8').storage);
      const order = rowsByRank(codes, ranks);
      expect(order.rows.length).toBe(rows);
      for (const share of [1, 0.9, 0.3, 0.01]) {
        const member = new Uint8Array(rows + 1);
        const picked: number[] = [];
        for (let r = 1; r <= rows; r++) {
          if (share < 1 && random() >= share) continue;
          member[r] = 1;
          picked.push(r);
        }
        const ids = Uint32Array.from(picked);
        for (const descending of [false, true]) {
          for (const nullsFirst of [false, true]) {
            const before = sortByKeys(ids, [columnKey(ids, codes, ranks, descending, nullsFirst)]);
            const now = rowsInOrder(order, member, ids.length, descending, nullsFirst);
            expect([...now], `text ${text}, share ${share}, desc ${descending}, nulls first ${nullsFirst}`).toEqual([...before]);
          }
        }
      }
    }
  });

  it('is used by a search over most of the table, kept until a write, and answers as a fresh sort would', () => {
    const random = seeded(7);
    const rows = 2000;
    const t = generated(random, rows, true);
    const n = generated(random, rows, false);
    const live = new Uint8Array(rows + 1).fill(1);
    live[0] = 0;
    const store = new TableStore(
      [new Column('t', fieldTypeOf('text'), t.values, t.codes), new Column('n', fieldTypeOf('float8'), n.values, n.codes)],
      live,
      rows,
    );
    const fields = [
      { id: 't', type: fieldTypeOf('text') },
      { id: 'n', type: fieldTypeOf('float8') },
    ];
    const resource: SearchableResource = { id: 'r', store, fields, text: null as never, ftsLanguage: 'simple' };
    const search = (sort: string, filters: Record<string, unknown> = {}): number[] => {
      const out = executeSearch(searchRequest({ resource_id: 'r', sort, limit: 32000, filters }), resource);
      return (JSON.parse(out.records) as { _id: number }[]).map((r) => r._id);
    };
    const expected = (id: 't' | 'n', descending: boolean, nullsFirst: boolean, keep: (r: number) => boolean): number[] => {
      const column = store.column(id)!;
      const ids = store.liveRowIds().filter(keep);
      return [...sortByKeys(ids, [columnKey(ids, column.codes, column.sortRanks(), descending, nullsFirst)])];
    };
    expect(search('t')).toEqual(expected('t', false, false, () => true));
    expect(store.hasRowOrder(store.column('t')!)).toBe(true);
    expect(search('t desc')).toEqual(expected('t', true, true, () => true));
    expect(search('n desc nulls last')).toEqual(expected('n', true, false, () => true));
    const notEcole = (r: number): boolean => store.column('t')!.valueOf(r) !== 'école';
    expect(search('n', { t: TEXTS.filter((x) => x !== 'école') })).toEqual(expected('n', false, false, (r) => notEcole(r) && store.column('t')!.valueOf(r) !== null));
    store.deleteRow(5);
    store.putRow(rows + 1, new Map<string, StoredValue>([['t', 'aaa'], ['n', -1000]]));
    expect(store.hasRowOrder(store.column('t')!)).toBe(false); // a write drops it
    expect(search('t')).toEqual(expected('t', false, false, () => true));
    expect(search('n')[0]).toBe(rows + 1);
  });
});
