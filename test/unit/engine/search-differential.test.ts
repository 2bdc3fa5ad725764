import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from 'sql.js';
import { searchRequest } from '../../../src/main/params/search-params';
import { Engine } from '../../../src/main/engine/engine';
import { textSortKey } from '../../../src/main/engine/column-store/sort-order';
import { quoteIdentifier } from '../../../src/main/engine/sqlite/identifiers';
import { loadSqlJs } from '../../../src/main/engine/sqlite/sql-js';
import { openTableFile } from '../../../src/main/engine/resources/table-file';
import { foldText } from '../../../src/shared/fold-text';
import { removeDir, tempDir } from '../../helpers/deskstore-process';
import { lcg } from '../../helpers/random';

/**
 * The column-store search against an oracle: the same question asked in SQL of the
 * resource's own SQLite table. Random tables (nulls, duplicates, accents, mixed case),
 * random filters (=, IN, ranges, $or, and Deskstore's ≠, contains, starts with, empty), sorts (several keys, NULLS FIRST/LAST) and pages.
 * Text order is the engine's collation key, registered in SQLite as a function.
 */
const COLUMNS = [
  { id: 'name', type: 'text' },
  { id: 'n', type: 'int' },
  { id: 'x', type: 'numeric' },
  { id: 'day', type: 'date' },
  { id: 'flag', type: 'bool' },
  { id: 'cat', type: 'text' },
];
const WORDS = ['Città', 'citta', 'Forlì', 'forli', 'Aosta', 'aosta', 'Zürich', 'zeta', 'ÉCOLE', 'école', 'beta', 'Beta', ''];

let engine: Engine;
let dataDir: string;
let db: Database;
const rid = '00000000-0000-4000-8000-000000000001';
let random: () => number;

beforeAll(async () => {
  dataDir = tempDir();
  engine = new Engine({ dataDir });
  random = lcg(12345);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const maybe = <T>(v: T): T | null => (random() < 0.15 ? null : v);
  const records = Array.from({ length: 400 }, () => ({
    name: maybe(`${pick(WORDS)} ${pick(WORDS)}`.trim()),
    n: maybe(Math.floor(random() * 20) - 5),
    // numeric written with its scale half of the time (`1.50`): exact values, equal to 1.5.
    x: maybe(random() < 0.5 ? Math.round(random() * 1000) / 100 : (Math.round(random() * 1000) / 100).toFixed(2)),
    day: maybe(`2020-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 9)}`),
    flag: maybe(random() < 0.5),
    cat: maybe(pick(['A', 'b', 'B', 'à', 'c'])),
  }));
  engine.packageCreate({ name: 'diff' }, 'http://x');
  engine.resourceCreate({ package_id: 'diff', id: rid, url_type: 'datastore' }, 'http://x');
  await engine.datastoreCreate({ resourceId: rid, fields: COLUMNS, records, force: true, deleteFields: false });
  const resource = engine.openResource(rid);
  db = openTableFile(await loadSqlJs(), resource.dir, resource.generation, rid, []);
  db.create_function('sortkey', (v: unknown) => (typeof v === 'string' ? textSortKey(v) : v));
  db.create_function('fold', (v: unknown) => (typeof v === 'string' ? foldText(v) : v));
  db.create_function('starts', (text: unknown, prefix: unknown) => (typeof text === 'string' && text.startsWith(String(prefix)) ? 1 : 0));
});

afterAll(async () => {
  await engine.close();
  removeDir(dataDir);
});

type Op = 'eq' | 'in' | 'gt' | 'gte' | 'lt' | 'lte' | 'deskstore_ne' | 'deskstore_contains' | 'deskstore_starts_with' | 'deskstore_empty';
interface Filter {
  column: string;
  op: Op;
  value: unknown;
}
const TEXTUAL = new Set(['name', 'cat', 'day']);
const NEEDLES = ['itt', 'FORL', 'à', 'a', 'é', 'zet', 'B', '2020-0', '2020-03', '-1', 'Città f', ''];

function sqlOf(f: Filter): [string, unknown[]] {
  // SQLite keeps numeric values as given (a REAL, or the exact text `1.50`): compare as numbers.
  const col = f.column === 'x' ? 'CAST(x AS REAL)' : quoteIdentifier(f.column);
  const text = f.column === 'name' || f.column === 'cat';
  const wrap = (x: string) => (text ? `sortkey(${x})` : x);
  const v = (value: unknown) => (typeof value === 'boolean' ? (value ? 1 : 0) : value);
  if (f.op === 'deskstore_contains') return [`instr(fold(${col}), ?) > 0`, [foldText(f.value as string)]];
  if (f.op === 'deskstore_starts_with') return [`starts(fold(${col}), ?)`, [foldText(f.value as string)]];
  if (f.op === 'deskstore_empty') {
    const empty = text ? `(${col} IS NULL OR ${col} = '')` : `${col} IS NULL`;
    return [f.value ? empty : `NOT ${empty}`, []];
  }
  if (f.op === 'deskstore_ne') return f.value === null ? ['0', []] : [`${col} <> ?`, [v(f.value)]];
  if (f.op === 'in') {
    const values = (f.value as unknown[]).filter((x) => x !== null);
    return values.length
      ? [`${col} IN (${values.map(() => (f.column === 'x' ? 'CAST(? AS REAL)' : '?')).join(',')})`, values.map(v)]
      : ['0', []];
  }
  if (f.value === null) return ['0', []];
  const op = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' }[f.op];
  const param = f.column === 'x' ? 'CAST(? AS REAL)' : '?';
  return f.op === 'eq' ? [`${col} = ${param}`, [v(f.value)]] : [`${wrap(col)} ${op} ${wrap(param)}`, [v(f.value)]];
}

function randomFilter(): Filter {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const column = pick(['name', 'n', 'x', 'day', 'flag', 'cat']);
  const sample = (): unknown =>
    (
      ({
        name: `${pick(WORDS)} ${pick(WORDS)}`.trim(),
        n: Math.floor(random() * 20) - 5,
        x: (Math.round(random() * 1000) / 100).toFixed(random() < 0.5 ? 2 : 1),
        day: `2020-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 9)}`,
        flag: random() < 0.5,
        cat: pick(['A', 'b', 'B', 'à', 'c']),
      }) as Record<string, unknown>
    )[column];
  const ours = [
    'deskstore_ne',
    'deskstore_empty',
    ...(TEXTUAL.has(column) ? (['deskstore_contains', 'deskstore_starts_with'] as const) : []),
  ] as const;
  const op: Op =
    random() < 0.35 ? pick(ours) : column === 'flag' ? pick(['eq', 'in'] as const) : pick(['eq', 'in', 'gt', 'gte', 'lt', 'lte'] as const);
  if (op === 'deskstore_contains' || op === 'deskstore_starts_with') return { column, op, value: pick(NEEDLES) };
  if (op === 'deskstore_empty') return { column, op, value: random() < 0.5 };
  return { column, op, value: op === 'in' ? [sample(), sample(), ...(random() < 0.2 ? [null] : [])] : sample() };
}

function toCkan(filters: Filter[][]): unknown {
  // An OR of ANDs: the 2.12 list form when there are several alternatives.
  // The first condition on a column uses the 2.11 form (value or list) or an operator
  // object; further ones go into `$and`, so that no condition overwrites another.
  const one = (and: Filter[]) => {
    const out: Record<string, unknown> = {};
    const extra: Record<string, unknown>[] = [];
    for (const f of and) {
      const form = f.op === 'eq' || f.op === 'in' ? f.value : { [f.op]: f.value };
      if (!(f.column in out)) out[f.column] = form;
      else extra.push({ [f.column]: form });
    }
    if (extra.length) out.$and = extra;
    return out;
  };
  return filters.length === 1 ? one(filters[0]!) : filters.map(one);
}

const SORTABLE = ['name', 'n', 'x', 'day', 'flag', 'cat', '_id'];

describe('datastore_search equals SQL on the same table', () => {
  it('for random filters, sorts and pages', () => {
    for (let trial = 0; trial < 300; trial++) {
      const alternatives = Array.from({ length: 1 + Math.floor(random() * 2) }, () =>
        Array.from({ length: 1 + Math.floor(random() * 2) }, randomFilter),
      );
      const sortKeys = Array.from({ length: Math.floor(random() * 3) }, () => {
        const field = SORTABLE[Math.floor(random() * SORTABLE.length)]!;
        const dir = random() < 0.5 ? 'asc' : 'desc';
        const nulls = random() < 0.3 ? (random() < 0.5 ? ' nulls first' : ' nulls last') : '';
        return { field, dir, nulls };
      });
      const limit = 1 + Math.floor(random() * 30);
      const offset = Math.floor(random() * 20);
      const params = {
        resource_id: rid,
        filters: toCkan(alternatives),
        limit,
        offset,
        ...(sortKeys.length ? { sort: sortKeys.map((k) => `${k.field} ${k.dir}${k.nulls}`).join(', ') } : {}),
      };
      const got = engine.search(searchRequest(params));

      const where = alternatives.map((and) => and.map(sqlOf));
      const clause = where.map((and) => `(${and.map(([s]) => s).join(' AND ')})`).join(' OR ');
      const args = where.flatMap((and) => and.flatMap(([, a]) => a));
      const order = sortKeys.map((k) => {
        const col =
          k.field === 'name' || k.field === 'cat'
            ? `sortkey(${quoteIdentifier(k.field)})`
            : k.field === 'x'
              ? 'CAST(x AS REAL)'
              : quoteIdentifier(k.field);
        const nullsFirst = k.nulls ? k.nulls.includes('first') : k.dir === 'desc';
        return `${col} ${k.dir.toUpperCase()} NULLS ${nullsFirst ? 'FIRST' : 'LAST'}`;
      });
      const sql = `SELECT _id FROM ${quoteIdentifier(rid)} WHERE ${clause} ORDER BY ${[...order, '_id'].join(', ')}`;
      const all = (db.exec(sql, args as (string | number)[])[0]?.values ?? []).map((r) => Number(r[0]));
      const records = JSON.parse(got.records) as { _id: number }[];
      let context = JSON.stringify(params);
      if (got.total !== all.length) {
        const every = JSON.parse(engine.search(searchRequest({ ...params, limit: 32000, offset: 0 })).records) as { _id: number }[];
        const mine = new Set(every.map((r) => r._id));
        const theirs = new Set(all);
        const diff = [...mine]
          .filter((x) => !theirs.has(x))
          .concat([...theirs].filter((x) => !mine.has(x)))
          .slice(0, 5);
        context += ` differ on ${JSON.stringify(db.exec(`SELECT *, sortkey(name), ${clause} FROM ${quoteIdentifier(rid)} WHERE _id IN (${diff.join(',')})`, args as (string | number)[])[0]?.values)} sql ${clause} ${JSON.stringify(args)}`;
      }
      expect(got.total, context).toBe(all.length);
      expect(
        records.map((r) => r._id),
        context,
      ).toEqual(all.slice(offset, offset + limit));
    }
  });

  it('for distinct over a column, with a total over distinct values', () => {
    for (const field of ['cat', 'flag', 'n', 'name']) {
      const got = engine.search(searchRequest({ resource_id: rid, fields: field, distinct: true, sort: field, limit: 1000 }));
      const sql = `SELECT DISTINCT ${quoteIdentifier(field)} FROM ${quoteIdentifier(rid)}`;
      const expected = (db.exec(sql)[0]?.values ?? []).length;
      expect(got.total).toBe(expected);
      expect((JSON.parse(got.records) as unknown[]).length).toBe(expected);
    }
  });
});
