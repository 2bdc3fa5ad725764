import { afterAll, describe, expect, it } from 'vitest';
import { Column } from '../../../src/main/engine/column-store/column';
import { rankCodes } from '../../../src/main/engine/column-store/sort-order';
import { TableStore } from '../../../src/main/engine/column-store/table-store';
import { fieldTypeOf } from '../../../src/main/engine/field-types';
import { readColumnsFile, writeColumnsFile } from '../../../src/main/engine/storage/resource-files';
import { buildTextIndex } from '../../../src/main/engine/text-index/build-text-index';
import type { StoredValue } from '../../../src/main/engine/values/coerce';
import { removeDir, tempDir } from '../../helpers/deskstore-process';

/**
 * Issue 24: a column's codes read whole from the columns file take 1 or 2 bytes each when its
 * dictionary has fewer than 256 or 65,536 values (they were 4), are widened when a write brings
 * the 256th or 65,536th value, and are written back 4 bytes wide; a sort ranks a dictionary
 * still in the file's form without making it an array of values, in the same order as before;
 * the bytes of a big text dictionary stay in the file while only cells are read.
 */
const dir = tempDir();
afterAll(() => removeDir(dir));

let generation = 0;

function roundTrip(store: TableStore): TableStore {
  generation++;
  writeColumnsFile(dir, generation, { store, textIndex: buildTextIndex(store, 'simple', new Set()), indexedColumns: [], ftsLanguage: 'simple' });
  return readColumnsFile(dir, generation).store;
}

function storeOf(columns: { id: string; type: string; values: StoredValue[]; codes: Uint32Array }[], rows: number): TableStore {
  const live = new Uint8Array(rows + 1).fill(1);
  live[0] = 0;
  return new TableStore(
    columns.map((c) => new Column(c.id, fieldTypeOf(c.type), c.values, c.codes)),
    live,
    rows,
  );
}

/** A text column of `distinct` values over `rows` rows, every value used; row 1 is NULL. */
function cycling(id: string, distinct: number, rows: number): { id: string; type: string; values: StoredValue[]; codes: Uint32Array } {
  const values: StoredValue[] = [null];
  for (let v = 1; v <= distinct; v++) values.push(`${id}-${v}`);
  const codes = new Uint32Array(rows + 1);
  for (let r = 2; r <= rows; r++) codes[r] = ((r - 2) % distinct) + 1;
  return { id, type: 'text', values, codes };
}

const ROWS = 70_000;

describe('codes of 1, 2 or 4 bytes', () => {
  const widths = [
    [255, 1],
    [256, 2],
    [65_535, 2],
    [65_536, 4],
  ] as const;
  const written = storeOf(
    widths.map(([distinct]) => cycling(`c${distinct}`, distinct, ROWS)),
    ROWS,
  );

  it('reads codes whole in the narrowest array that holds the dictionary, with the same values', () => {
    const store = roundTrip(written);
    for (const [distinct, bytes] of widths) {
      const column = store.column(`c${distinct}`)!;
      expect(column.codes.BYTES_PER_ELEMENT, `${distinct} values`).toBe(bytes);
      expect(column.residentCodeBytes).toBe((ROWS + 1) * bytes);
      const original = written.column(`c${distinct}`)!;
      for (let r = 1; r <= ROWS; r += 7) expect(column.valueOf(r)).toBe(original.valueOf(r));
      expect(column.valueOf(ROWS)).toBe(original.valueOf(ROWS));
    }
  });

  it('widens the codes when a write brings the 256th or the 65,536th value, keeping every row', () => {
    const store = roundTrip(written);
    const c255 = store.column('c255')!;
    const c65535 = store.column('c65535')!;
    expect(c255.codes.BYTES_PER_ELEMENT).toBe(1);
    c255.set(5, 'c255-1'); // a value it has: no wider
    expect(c255.codes.BYTES_PER_ELEMENT).toBe(1);
    c255.set(6, 'the 256th value');
    expect(c255.codes.BYTES_PER_ELEMENT).toBe(2);
    expect(c65535.codes.BYTES_PER_ELEMENT).toBe(2);
    store.putRow(ROWS + 1, new Map<string, StoredValue>([['c65535', 'the 65,536th value']]));
    expect(c65535.codes.BYTES_PER_ELEMENT).toBe(4);
    const before = written;
    for (let r = 1; r <= ROWS; r++) {
      if (r !== 5 && r !== 6) expect(c255.valueOf(r)).toBe(before.column('c255')!.valueOf(r));
      expect(c65535.valueOf(r)).toBe(before.column('c65535')!.valueOf(r));
    }
    expect([c255.valueOf(5), c255.valueOf(6)]).toEqual(['c255-1', 'the 256th value']);
    expect(c65535.valueOf(ROWS + 1)).toBe('the 65,536th value');
    expect(c255.codesOf('the 256th value')).toEqual([256]);

    // Written back 4 bytes a code, as the file format has always been.
    const again = roundTrip(store);
    for (const id of ['c255', 'c65535']) {
      for (let r = 1; r <= ROWS + 1; r += 3) expect(again.column(id)!.valueOf(r)).toBe(store.column(id)!.valueOf(r));
    }
    expect(again.column('c255')!.valueOf(6)).toBe('the 256th value');
    expect(again.column('c65535')!.valueOf(ROWS + 1)).toBe('the 65,536th value');
  });

  it('a write while the codes are still in the file: its new value joins them, wide enough, when they are read whole', () => {
    const store = roundTrip(written);
    const c255 = store.column('c255')!;
    c255.set(7, 'the 256th value');
    expect(c255.residentCodeBytes).toBeLessThan(100); // still in the file
    expect(c255.codes.BYTES_PER_ELEMENT).toBe(2);
    expect(c255.valueOf(7)).toBe('the 256th value');
    expect(c255.valueOf(8)).toBe(written.column('c255')!.valueOf(8));
    // Ranked with the values of the file: 't' after every 'c255-…'.
    expect(c255.sortRanks()[c255.codes[7]!]).toBe(256);
  });

  it('a new table starts with 1-byte codes and widens as distinct values come', () => {
    const store = TableStore.empty([{ id: 'n', type: fieldTypeOf('int4') }]);
    const column = store.column('n')!;
    expect(column.codes.BYTES_PER_ELEMENT).toBe(1);
    for (let r = 1; r <= 70_000; r++) store.putRow(r, new Map([['n', r % 66_000]]));
    expect(column.codes.BYTES_PER_ELEMENT).toBe(4);
    for (let r = 1; r <= 70_000; r += 11) expect(column.valueOf(r)).toBe(r % 66_000);
    store.deleteRow(3);
    expect(column.valueOf(3)).toBeNull();
  });
});

/** What a generated column looks like after it was written and read back, and its ranks as before: from the values array. */
function ranksBothWays(type: string, values: StoredValue[], rows: number): { fromFile: Uint32Array; inFileForm: boolean; fromArray: Uint32Array } {
  const codes = new Uint32Array(rows + 1);
  for (let r = 1; r <= rows; r++) codes[r] = r % values.length;
  const store = roundTrip(storeOf([{ id: 'v', type, values, codes }], rows));
  const column = store.column('v')!;
  const fromFile = column.sortRanks();
  const inFileForm = column.fileDictionary !== null || column.dictionaryBytes() === (values.length - 1) * 8;
  return { fromFile, inFileForm, fromArray: rankCodes(column.values, column.type.storage) };
}

/** A small seeded generator, so a failure repeats. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('sort ranks of a dictionary still in the file', () => {
  it('texts: the same ranks as the values array gave (collation, case, accents, ties), without decoding it', () => {
    const random = seeded(24);
    const pieces = ['città', 'Citta', 'CITTÀ', 'citta', 'Forlì', 'forli', 'école', 'Ecole', 'zebra', 'Zebra', '10', '9', '', ' ', 'a-b', 'ab', 'a b', '東京', 'ß', 'ss'];
    const values: StoredValue[] = [null];
    for (let i = 0; i < 3000; i++) values.push(`${pieces[Math.floor(random() * pieces.length)]}${random() < 0.5 ? '' : pieces[Math.floor(random() * pieces.length)]}`);
    const { fromFile, inFileForm, fromArray } = ranksBothWays('text', values, 5000);
    expect(inFileForm).toBe(true); // ranked from its bytes, not made an array
    expect([...fromFile]).toEqual([...fromArray]);
    expect([...fromFile]).toEqual([...rankCodes(values, 'text')]);
    expect(new Set(fromFile.slice(1)).size).toBeLessThan(values.length - 1); // repeated texts share a rank
    expect(fromFile[0]).toBe(0); // NULL
  });

  it('numbers: the same ranks as the values array gave (ties, -0, negatives), from the doubles', () => {
    const random = seeded(7);
    const values: StoredValue[] = [null, 0, -0, -1.5, 1e300, -1e-300];
    for (let i = 0; i < 5000; i++) values.push(Math.round((random() - 0.5) * 2000) / 4);
    for (const type of ['float8', 'numeric', 'int4']) {
      const typed = type === 'int4' ? values.map((v) => (v === null ? null : Math.trunc(v as number))) : values;
      const { fromFile, inFileForm, fromArray } = ranksBothWays(type, typed, 8000);
      expect(inFileForm, type).toBe(true); // ranked from the doubles, not made an array
      expect([...fromFile], type).toEqual([...fromArray]);
    }
  });

  it('numeric texts that need their exact value keep the exact order', () => {
    const values: StoredValue[] = [null, '2.50', 2.5, '12345678901234567890', '12345678901234567891', 3, '-0.000000000000000000001'];
    const { fromFile } = ranksBothWays('numeric', values, 50);
    expect([...fromFile]).toEqual([...rankCodes(values, 'exact')]);
    expect(fromFile[3]).toBeLessThan(fromFile[4]!); // one double, two values
    expect(fromFile[1]).toBe(fromFile[2]); // 2.50 = 2.5
  });
});

describe('a big text dictionary while only its cells are read', () => {
  it('keeps its bytes in the file, however many cells are read; a scan still reads them whole', () => {
    const rows = 50_000;
    const values: StoredValue[] = [null];
    for (let v = 1; v <= rows; v++) values.push(`${v} ${'descrizione lunga di una riga '.repeat(4)}`);
    const codes = new Uint32Array(rows + 1);
    for (let r = 1; r <= rows; r++) codes[r] = r;
    const column = roundTrip(storeOf([{ id: 'd', type: 'text', values, codes }], rows)).column('d')!;
    const ends = rows * 4;
    expect(column.dictionaryBytes()).toBe(ends);
    for (let r = 1; r <= 5000; r++) expect(column.valueOf(r)).toBe(values[r]);
    expect(column.dictionaryBytes()).toBe(ends); // > 4 MB of text: not read whole for cells
    column.sortRanks();
    expect(column.dictionaryBytes()).toBeGreaterThan(4 * 1024 * 1024); // a sort read the bytes
    expect(column.fileDictionary).not.toBeNull(); // but made no array of them
  });
});

describe('ranks of many doubles (radix sort of their bits)', () => {
  it('are the ranks of the native sort and binary search of before: ties, -0 and 0, negatives, extremes', () => {
    const random = seeded(99);
    const values: StoredValue[] = [null, 0, -0, -Number.MAX_VALUE, Number.MAX_VALUE, Number.MIN_VALUE, -Number.MIN_VALUE, Infinity, -Infinity, 1e-310];
    for (let i = 0; i < 120_000; i++) {
      const kind = random();
      values.push(kind < 0.3 ? Math.round((random() - 0.5) * 1000) : kind < 0.6 ? (random() - 0.5) * 1e12 : (random() - 0.5) * 1e-5);
    }
    const ranks = rankCodes(values, 'real');
    // The order of before, written out: sort the distinct values, rank by position.
    const distinct = [...new Set(values.slice(1) as number[])].sort((a, b) => a - b);
    const rankOf = new Map(distinct.map((v, i) => [v, i + 1]));
    for (let code = 1; code < values.length; code++) expect(ranks[code]).toBe(rankOf.get(values[code] as number));
    expect(ranks[1]).toBe(ranks[2]); // 0 and -0
    expect(ranks[7]).toBe(distinct.length); // Infinity last
    expect(ranks[8]).toBe(1); // -Infinity first
  });
});
