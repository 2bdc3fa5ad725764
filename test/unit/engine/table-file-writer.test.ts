import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database, SqlJsStatic } from 'sql.js';
import { TableStore } from '../../../src/main/engine/column-store/table-store';
import { fieldTypeOf } from '../../../src/main/engine/field-types';
import { loadSqlJs } from '../../../src/main/engine/sqlite/sql-js';
import { createTableSql } from '../../../src/main/engine/sqlite/table-sql';
import { storedCell, writeTableFromStore } from '../../../src/main/engine/sqlite/table-file-writer';
import { transaction } from '../../../src/main/engine/sqlite/transaction';
import type { StoredValue } from '../../../src/main/engine/values/coerce';
import { lcg } from '../../helpers/random';

/**
 * The table file written page by page must be a valid SQLite database (integrity_check) that
 * no query can tell from the same rows INSERTed through sql.js: same values, same storage
 * classes, same AUTOINCREMENT high-water mark, and writable afterwards.
 */
const dir = mkdtempSync(join(tmpdir(), 'deskstore-table-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Field = { id: string; type: ReturnType<typeof fieldTypeOf> };

function text(rnd: () => number, max: number): string {
  const alphabet = ['a', 'b', 'è', 'ß', ' ', '日', '😀', 'Z', '0', "'", '"', '\n'];
  const n = Math.floor(rnd() ** 3 * max);
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(rnd() * alphabet.length)];
  return s;
}

/** A value of each field type as the column store holds it (numbers as doubles, exact texts). */
function valueOf(type: string, rnd: () => number): StoredValue {
  if (rnd() < 0.1) return null;
  switch (type) {
    case 'text':
      return text(rnd, rnd() < 0.05 ? 20_000 : 60);
    case 'int4':
      return Math.floor((rnd() - 0.5) * 2 ** (1 + Math.floor(rnd() * 31)));
    case 'int8':
      return rnd() < 0.3
        ? `${rnd() < 0.5 ? '-' : ''}${9007199254740993n + BigInt(Math.floor(rnd() * 1e9))}`
        : Math.floor((rnd() - 0.5) * 2 ** 50);
    case 'numeric':
      return rnd() < 0.3
        ? `${Math.floor(rnd() * 1000)}.${rnd() < 0.5 ? '50' : '0'}`
        : rnd() < 0.5
          ? Math.floor(rnd() * 1000)
          : (rnd() - 0.5) * 1e6;
    case 'float8':
      return rnd() < 0.3 ? Math.floor(rnd() * 100) : (rnd() - 0.5) * 10 ** Math.floor(rnd() * 300);
    case 'bool':
      return rnd() < 0.5 ? 1 : 0;
    case 'date':
      return `20${10 + Math.floor(rnd() * 20)}-0${1 + Math.floor(rnd() * 9)}-1${Math.floor(rnd() * 9)}`;
    case 'json':
      return JSON.stringify({ a: Math.floor(rnd() * 10), b: text(rnd, 10) });
    case '_text':
      return JSON.stringify([text(rnd, 8), text(rnd, 8)]);
    default:
      throw new Error(type);
  }
}

function randomStore(fields: Field[], rows: number, seed: number): TableStore {
  const rnd = lcg(seed);
  const store = TableStore.empty(fields);
  let id = 0;
  for (let r = 0; r < rows; r++) {
    id += rnd() < 0.2 ? 1 + Math.floor(rnd() * 1000) : 1; // gaps, as deleted rows leave
    store.putRow(id, new Map(fields.map((f) => [f.id, valueOf(f.type.name, rnd)])));
  }
  return store;
}

/** The same rows INSERTed through sql.js, as the SQL worker replays journalled writes. */
function viaInsert(SQL: SqlJsStatic, table: string, fields: Field[], store: TableStore): Database {
  const db = new SQL.Database();
  db.exec(createTableSql(table, fields));
  const names = ['_id', ...fields.map((f) => `"${f.id}"`)].join(', ');
  const stmt = db.prepare(`INSERT INTO "${table}" (${names}) VALUES (${['?', ...fields.map(() => '?')].join(', ')})`);
  transaction(db, () => {
    for (const id of store.liveRowIds()) stmt.run([id, ...fields.map((f) => store.column(f.id)!.valueOf(id))]);
  });
  stmt.free();
  return db;
}

function viaWriter(SQL: SqlJsStatic, table: string, fields: Field[], store: TableStore, name: string, sequence?: number): Database {
  const path = join(dir, `${name}.sqlite`);
  const size = writeTableFromStore(path, table, fields, store, sequence);
  const bytes = readFileSync(path);
  expect(bytes.length).toBe(size);
  return new SQL.Database(bytes);
}

function contents(db: Database, table: string, fields: Field[]): unknown {
  const cols = fields.map((f) => `"${f.id}", typeof("${f.id}")`).join(', ');
  return {
    rows: db.exec(`SELECT _id, ${cols} FROM "${table}" ORDER BY _id`)[0]?.values ?? [],
    sequence: db.exec('SELECT name, seq FROM sqlite_sequence')[0]?.values,
    schema: db.exec('SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name')[0]?.values,
  };
}

const integrity = (db: Database): unknown => db.exec('PRAGMA integrity_check')[0]!.values;

const ALL_TYPES = ['text', 'int4', 'int8', 'numeric', 'float8', 'bool', 'date', 'json', '_text'];

describe('table files written page by page', () => {
  it('hold what INSERT would store, value types included, and stay writable', async () => {
    const SQL = await loadSqlJs();
    const fields: Field[] = ALL_TYPES.map((t, i) => ({ id: `c${i}_${t}`, type: fieldTypeOf(t) }));
    const table = 'f0e1d2c3-b4a5-4697-8899-aabbccddeeff';
    const store = randomStore(fields, 3000, 7);
    const expected = viaInsert(SQL, table, fields, store);
    const written = viaWriter(SQL, table, fields, store, 'all-types');
    try {
      expect(integrity(written)).toEqual([['ok']]);
      expect(contents(written, table, fields)).toEqual(contents(expected, table, fields));
      // AUTOINCREMENT continues after the largest _id, and the file takes writes and an index.
      written.exec(`INSERT INTO "${table}" ("c0_text") VALUES ('after')`);
      expected.exec(`INSERT INTO "${table}" ("c0_text") VALUES ('after')`);
      written.exec(`CREATE UNIQUE INDEX ix ON "${table}" (_id, "c1_int4")`);
      expect(integrity(written)).toEqual([['ok']]);
      expect(written.exec(`SELECT max(_id) FROM "${table}"`)).toEqual(expected.exec(`SELECT max(_id) FROM "${table}"`));
    } finally {
      written.close();
      expected.close();
    }
  });

  it('keeps a high-water mark above the last row (deleted rows never come back)', async () => {
    const SQL = await loadSqlJs();
    const fields: Field[] = [{ id: 'a', type: fieldTypeOf('text') }];
    const store = randomStore(fields, 10, 3);
    const db = viaWriter(SQL, 't-seq', fields, store, 'sequence', store.maxRowId + 500);
    try {
      db.exec(`INSERT INTO "t-seq" (a) VALUES ('next')`);
      expect(db.exec(`SELECT max(_id) FROM "t-seq"`)[0]!.values[0]![0]).toBe(store.maxRowId + 501);
    } finally {
      db.close();
    }
  });

  it('writes an empty table and tables spanning several b-tree levels', async () => {
    const SQL = await loadSqlJs();
    const fields: Field[] = [
      { id: 'n', type: fieldTypeOf('int4') },
      { id: 's', type: fieldTypeOf('text') },
    ];
    const empty = viaWriter(SQL, 'empty', fields, TableStore.empty(fields), 'empty');
    expect(integrity(empty)).toEqual([['ok']]);
    expect(empty.exec('SELECT count(*) FROM empty')[0]!.values).toEqual([[0]]);
    empty.close();
    const store = TableStore.empty(fields);
    for (let r = 1; r <= 200_000; r++)
      store.putRow(
        r,
        new Map<string, StoredValue>([
          ['n', r * 7],
          ['s', r % 3 ? `row ${r}` : null],
        ]),
      );
    const big = viaWriter(SQL, 'big', fields, store, 'big');
    try {
      expect(integrity(big)).toEqual([['ok']]);
      expect(big.exec('SELECT count(*), sum(n), count(s) FROM big')[0]!.values).toEqual([[200_000, 7 * 100_000 * 200_001, 133_334]]);
      expect(big.exec('SELECT s FROM big WHERE _id = 123457')[0]!.values).toEqual([['row 123457']]);
    } finally {
      big.close();
    }
  });

  it('writes the schema of very wide tables whose CREATE statement outgrows page 1', async () => {
    const SQL = await loadSqlJs();
    // Column names padded so that the CREATE statement's length steps through every remainder
    // of the overflow page size: some of these leave a local part too big for page 1.
    let interiorRoots = 0;
    for (let pad = 0; pad < 4200; pad += 97) {
      const fields: Field[] = Array.from({ length: 300 }, (_, i) => ({
        id: `column_${i}_${'x'.repeat(i === 0 ? pad : 20)}`,
        type: fieldTypeOf(i % 2 ? 'text' : 'int4'),
      }));
      const store = TableStore.empty(fields);
      store.putRow(
        1,
        new Map<string, StoredValue>([
          [fields[0]!.id, 5],
          [fields[1]!.id, 'x'],
        ]),
      );
      const db = viaWriter(SQL, 'wide', fields, store, `wide-${pad}`);
      if (readFileSync(join(dir, `wide-${pad}.sqlite`))[100] === 0x05) interiorRoots++;
      try {
        expect(integrity(db)).toEqual([['ok']]);
        expect(db.exec(`SELECT "${fields[0]!.id}", "${fields[1]!.id}" FROM wide`)[0]!.values).toEqual([[5, 'x']]);
      } finally {
        db.close();
      }
    }
    expect(interiorRoots).toBeGreaterThan(0); // page 1 became an interior page at least once
  });

  it('refuses what the column store never holds instead of guessing', () => {
    expect(() => storedCell(1.5, 'TEXT')).toThrow(TypeError);
    expect(storedCell('12', 'INTEGER')).toEqual({ kind: 'integer', value: 12 });
    expect(storedCell('2.50', 'BLOB')).toEqual({ kind: 'text', text: '2.50' });
    expect(storedCell(3, 'REAL')).toEqual({ kind: 'real', value: 3 });
    expect(storedCell(3, 'BLOB')).toEqual({ kind: 'integer', value: 3 }); // sql.js binds a 32-bit integer as one
    expect(storedCell(3e9, 'BLOB')).toEqual({ kind: 'real', value: 3e9 });
  });
});
