import { describe, expect, it } from 'vitest';
import { Column } from '../../../src/main/engine/column-store/column';
import { rankCodes } from '../../../src/main/engine/column-store/sort-order';
import { TableStore } from '../../../src/main/engine/column-store/table-store';
import { fieldTypeOf } from '../../../src/main/engine/field-types';
import { compileFilter } from '../../../src/main/engine/search/column-predicates';
import { filterColumnsOf, parseFilters } from '../../../src/main/engine/search/filters';
import { matchRows } from '../../../src/main/engine/search/match-rows';
import { decodeColumns, encodeColumns } from '../../../src/main/engine/storage/column-codec';
import { coerceValue, type StoredValue } from '../../../src/main/engine/values/coerce';
import { delimitedCell, jsonCell } from '../../../src/main/engine/values/encode';
import {
  canonicalDecimal,
  compareExact,
  exactFromCanonical,
  exactText,
  int8FromNumber,
  parseInt8Text,
  scaleOf,
} from '../../../src/main/engine/values/exact-number';
import { storedFromSqlite } from '../../../src/main/engine/values/sqlite-value';
import { writeTableFromStore } from '../../../src/main/engine/sqlite/table-file-writer';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from 'sql.js';
import { removeDir, tempDir } from '../../helpers/deskstore-process';
import { loadSqlJs, rowWithBigInts } from '../../../src/main/engine/sqlite/sql-js';
import { lcg } from '../../helpers/random';

const numeric = fieldTypeOf('numeric');
const int8 = fieldTypeOf('int8');

describe('canonicalDecimal: PostgreSQL numeric_in', () => {
  it('keeps the written scale and applies exponents', () => {
    const cases: [string, string | null][] = [
      ['2.50', '2.50'],
      ['+2.50', '2.50'],
      [' 007.10 ', '7.10'],
      ['.5', '0.5'],
      ['5.', '5'],
      ['-0', '0'],
      ['-0.00', '0.00'],
      ['1e3', '1000'],
      ['1.5e1', '15'],
      ['1.50e1', '15.0'],
      ['1e-3', '0.001'],
      ['-2.5E-2', '-0.025'],
      ['0.000', '0.000'],
      ['123456789012345678901234567890.123456789', '123456789012345678901234567890.123456789'],
      ['', null],
      ['.', null],
      ['1,5', null],
      ['abc', null],
      ['1e', null],
      ['NaN', null],
      ['--1', null],
    ];
    for (const [input, expected] of cases) expect(canonicalDecimal(input), input).toBe(expected);
  });
  it('uses a number only where its shortest text is the exact text', () => {
    expect(exactFromCanonical('2.5')).toBe(2.5);
    expect(exactFromCanonical('2.50')).toBe('2.50');
    expect(exactFromCanonical('1000')).toBe(1000);
    expect(exactFromCanonical('0.0000001')).toBe('0.0000001'); // JS would write 1e-7
    expect(exactFromCanonical('9007199254740993')).toBe('9007199254740993');
    expect(exactFromCanonical('1000000000000000000000')).toBe('1000000000000000000000');
    expect(scaleOf('2.50')).toBe(2);
    expect(scaleOf(1000)).toBe(0);
  });
  it('reads int8 text and numbers exactly, with PostgreSQL errors', () => {
    expect(parseInt8Text(' +9223372036854775807 ')).toEqual({ value: '9223372036854775807' });
    expect(parseInt8Text('-9223372036854775808')).toEqual({ value: '-9223372036854775808' });
    expect(parseInt8Text('-0')).toEqual({ value: 0 });
    expect(parseInt8Text('9223372036854775808')).toEqual({ error: 'range' });
    expect(parseInt8Text('1.0')).toEqual({ error: 'syntax' });
    expect(int8FromNumber(2 ** 60)).toEqual({ value: '1152921504606846976' });
    expect(int8FromNumber(2 ** 64)).toEqual({ error: 'range' });
  });
});

describe('compareExact: numeric order', () => {
  it('orders like the decimals, 2.5 = 2.50, beyond double precision too', () => {
    const sorted = [
      '-10',
      '-2.50',
      '-0.000100',
      '0',
      '0.0000001',
      0.1,
      '0.10000000000000000001',
      2.5,
      '2.51',
      '9007199254740992',
      '9007199254740993',
      '12345678901234567890.5',
    ].map((v) => (typeof v === 'number' ? v : exactFromCanonical(v)));
    for (let i = 0; i < sorted.length; i++) {
      for (let j = 0; j < sorted.length; j++) {
        expect(Math.sign(compareExact(sorted[i]!, sorted[j]!)) || 0, `${sorted[i]} vs ${sorted[j]}`).toBe(Math.sign(i - j) || 0);
      }
    }
    expect(compareExact(2.5, '2.50')).toBe(0);
    expect(compareExact('0.00', 0)).toBe(0);
  });
  it('agrees with sorting the decimals as big integers, on random values', () => {
    const random = lcg(7);
    const values = Array.from({ length: 2000 }, () => {
      const digits = String(Math.floor(random() * 1e6)).padStart(7, '0') + String(Math.floor(random() * 1e12));
      const point = 1 + Math.floor(random() * (digits.length - 1));
      const sign = random() < 0.3 ? '-' : '';
      return exactFromCanonical(canonicalDecimal(`${sign}${digits.slice(0, point)}.${digits.slice(point)}`)!);
    });
    const scaled = (v: string | number) => {
      const [i, f = ''] = exactText(v).split('.');
      return BigInt(i! + f.padEnd(20, '0'));
    };
    const byBigInt = [...values].sort((a, b) => (scaled(a) < scaled(b) ? -1 : scaled(a) > scaled(b) ? 1 : 0));
    const byExact = [...values].sort(compareExact);
    expect(byExact.map(exactText)).toEqual(byBigInt.map(exactText));
  });
});

describe('exact numbers in the column store', () => {
  const column = (values: StoredValue[]) =>
    new Column('x', numeric, [null, ...values], Uint32Array.from([0, ...values.map((_, i) => i + 1)]));

  it('ranks exactly even where doubles collide, and 2.5 ties 2.50', () => {
    const values = ['0.10000000000000000002', 0.1, '0.10000000000000000001', 2.5, '2.50', '-1'];
    const ranks = rankCodes([null, ...values], 'exact');
    expect([...ranks]).toEqual([0, 4, 2, 3, 5, 5, 1]);
  });
  it('filters compare numerically: equality across scales, ranges beyond double precision', () => {
    const values = ['2.50', 2.5, '2.51', '9007199254740993', 9007199254740992, null];
    const store = new TableStore([column(values)], Uint8Array.from([0, 1, 1, 1, 1, 1, 1]), values.length);
    const rows = (filters: unknown) => [
      ...matchRows(compileFilter(parseFilters(filters, filterColumnsOf([{ id: 'x', type: numeric }])), store), store, null),
    ];
    expect(rows({ x: '2.5' })).toEqual([1, 2]);
    expect(rows({ x: 2.5 })).toEqual([1, 2]);
    expect(rows({ x: ['2.500', '9007199254740993'] })).toEqual([1, 2, 4]);
    expect(rows({ x: { gt: '9007199254740992' } })).toEqual([4]);
    expect(rows({ x: { gte: '2.5', lt: '2.51' } })).toEqual([1, 2]);
  });
  it('writes JSON number literals and csv cells with their scale and digits', () => {
    expect(jsonCell('2.50', 'exact')).toBe('2.50');
    expect(jsonCell(2.5, 'exact')).toBe('2.5');
    expect(jsonCell('9223372036854775807', 'exact')).toBe('9223372036854775807');
    expect(delimitedCell('-0.000100', 'exact', ',')).toBe('-0.000100');
    expect(coerceValue(['2.50', 1], fieldTypeOf('_numeric'))).toBe('[2.50,1]');
  });
  it('keeps exact texts through the columns file (f64 only when every value is a number, else texts with number flags)', () => {
    const exact = column(['2.50', 3, '9007199254740993']);
    const plain = new Column('y', int8, [null, 1, 2], Uint32Array.from([0, 1, 2, 0]));
    const store = new TableStore([exact, plain], Uint8Array.from([0, 1, 1, 1]), 3);
    const sections: Uint8Array[] = [];
    const header = encodeColumns(store, sections);
    expect(header.columns.map((c) => c.dictionary)).toEqual(['utf8', 'f64']);
    const back = decodeColumns(header, sections);
    expect(back.column('x')!.values).toEqual([null, '2.50', 3, '9007199254740993']);
    expect(back.column('y')!.values).toEqual([null, 1, 2]);
  });
  it('stores them in SQLite as given and reads them back exactly', async () => {
    const SQL = await loadSqlJs();
    let db: Database | null = null;
    try {
      const n = column(['2.50', 3000000000, 0.30000000000000004, '123456789012345678901234567890.5']);
      const big = new Column('b', int8, [null, '9223372036854775807', 12, '-9007199254740993', 5], Uint32Array.from([0, 1, 2, 3, 4]));
      const store = new TableStore([n, big], Uint8Array.from([0, 1, 1, 1, 1]), 4);
      const dir = tempDir();
      const path = join(dir, 't.sqlite');
      writeTableFromStore(
        path,
        't',
        [
          { id: 'x', type: numeric },
          { id: 'b', type: int8 },
        ],
        store,
      );
      db = new SQL.Database(readFileSync(path));
      removeDir(dir);
      const stmt = db.prepare('SELECT x, b, typeof(b) FROM t ORDER BY _id');
      const rows: unknown[][] = [];
      while (stmt.step()) {
        const row = rowWithBigInts(stmt);
        rows.push([storedFromSqlite(row[0], numeric), storedFromSqlite(row[1], int8), row[2]]);
      }
      stmt.free();
      expect(rows).toEqual([
        ['2.50', '9223372036854775807', 'integer'],
        [3000000000, 12, 'integer'],
        [0.30000000000000004, '-9007199254740993', 'integer'],
        ['123456789012345678901234567890.5', 5, 'integer'],
      ]);
    } finally {
      db?.close();
    }
  });
});
