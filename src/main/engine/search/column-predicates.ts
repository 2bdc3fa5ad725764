import type { Column } from '../column-store/column';
import type { TableStore } from '../column-store/table-store';
import { textSortKey } from '../column-store/sort-order';
import { isStoredAsNumber } from '../field-types';
import { CoercionError, coerceValue, type StoredValue } from '../values/coerce';
import { deskstoreIdTest, deskstoreOperatorTable } from './deskstore-operators';
import { approximate, compareExact, type ExactNumber } from '../values/exact-number';
import type { CkanOperator, DeskstoreOperator, FilterNode } from './filters';
import { invalidQuery } from './invalid-query';
import { withMessage } from '../../errors';
import { message } from '../../../shared/messages';

/**
 * Filters compiled against the column store. Each comparison becomes a truth table over the
 * column's dictionary codes; a conjunction of those is scanned in one tight loop, anything
 * with OR across columns goes through per-row bitmaps.
 */
export interface ColumnTest {
  readonly column: Column;
  readonly table: Uint8Array;
}

/** A condition on `_id` itself (keyset paging: `{"_id": {"gt": 100}}`). */
export interface IdTest {
  readonly accept: (rowId: number) => boolean;
}

export type RowTest = ColumnTest | IdTest;

export type RowPredicate =
  { readonly kind: 'tests'; readonly tests: readonly RowTest[] } | { readonly kind: 'and' | 'or'; readonly items: readonly RowPredicate[] };

export const isIdTest = (t: RowTest): t is IdTest => 'accept' in t;

export const MATCH_ALL: RowPredicate = { kind: 'tests', tests: [] };

function coerceFilterValue(column: Column, value: unknown): StoredValue {
  if (column.type.storage === 'json') {
    throw invalidQuery('operator does not exist: json = unknown', `"${column.id}" = $1`, [value]);
  }
  try {
    return coerceValue(value, column.type);
  } catch (err) {
    if (err instanceof CoercionError) {
      // CKAN's envelope for scripts; for people, which value does not fit which column
      throw withMessage(
        invalidQuery(err.message, `"${column.id}" = $1`, [value]),
        message('filters.value_not_of_type', `"${String(value)}" is not a ${column.type.name} value for column "${column.id}".`, {
          column: column.id,
          value: String(value),
          type: column.type.name,
        }),
      );
    }
    throw err;
  }
}

function orderKey(column: Column): (v: StoredValue) => string | number {
  const storage = column.type.storage;
  if (isStoredAsNumber(storage)) return (v) => v as number;
  if (storage === 'text') return (v) => textSortKey(v as string);
  return (v) => v as string; // canonical date/time text sorts as text
}

type MatchNode = Extract<FilterNode, { kind: 'match' }>;
type CkanMatchNode = MatchNode & { readonly op: CkanOperator };

const isDeskstoreOperator = (op: CkanOperator | DeskstoreOperator): op is DeskstoreOperator => op.startsWith('deskstore_');

function compileDeskstoreMatch(column: Column, node: MatchNode, op: DeskstoreOperator): ColumnTest {
  if (op === 'deskstore_ne' && column.type.storage === 'exact') {
    // Exact numbers are equal by value (`2.5` = `2.50`), so ≠ is the complement of the exact
    // `eq` over the non-NULL codes, not of one stored form's codes.
    if (node.value === null) return { column, table: new Uint8Array(column.values.length) };
    const { table } = compileExactMatch(column, { ...node, op: 'eq' });
    for (let code = 1; code < table.length; code++) table[code] = table[code] ? 0 : 1;
    return { column, table };
  }
  return { column, table: deskstoreOperatorTable(column, op, node.value, (v) => coerceFilterValue(column, v)) };
}

const RANGE_TESTS = {
  gt: (c: number) => c > 0,
  gte: (c: number) => c >= 0,
  lt: (c: number) => c < 0,
  lte: (c: number) => c <= 0,
};

/**
 * numeric/int8: equality is numeric (`2.5` matches `2.50`), so every comparison is a pass
 * over the dictionary with the exact comparator rather than a lookup of one stored form.
 */
function compileExactMatch(column: Column, node: CkanMatchNode): ColumnTest {
  const table = new Uint8Array(column.values.length);
  const bounds: ExactNumber[] = [];
  const given = node.op === 'in' ? (node.value as unknown[]) : [node.value];
  for (const v of given) {
    // NULL never equals or bounds anything, as in SQL.
    const stored = v === null ? null : coerceFilterValue(column, v);
    if (stored !== null) bounds.push(stored);
  }
  if (!bounds.length) return { column, table };
  const holds = node.op === 'eq' || node.op === 'in' ? (c: number) => c === 0 : RANGE_TESTS[node.op];
  const values = column.values;
  const approx = column.approximations();
  for (const bound of bounds) {
    const b = approximate(bound);
    for (let code = 1; code < values.length; code++) {
      if (table[code]) continue;
      // Different doubles order the exact values too; equal ones need the exact comparison.
      const x = approx[code]!;
      const order = x < b ? -1 : x > b ? 1 : compareExact(values[code] as ExactNumber, bound);
      if (holds(order)) table[code] = 1;
    }
  }
  return { column, table };
}

function compileMatch(column: Column, node: MatchNode): ColumnTest {
  if (isDeskstoreOperator(node.op)) return compileDeskstoreMatch(column, node, node.op);
  if (column.type.storage === 'exact') return compileExactMatch(column, node as CkanMatchNode);
  const table = new Uint8Array(column.values.length);
  if (node.op === 'eq' || node.op === 'in') {
    const values = node.op === 'in' ? (node.value as unknown[]) : [node.value];
    for (const v of values) {
      // NULL never equals anything, as `column = NULL` in SQL.
      const stored = v === null ? null : coerceFilterValue(column, v);
      if (stored === null) continue;
      for (const code of column.codesOf(stored)) table[code] = 1;
    }
    return { column, table };
  }
  if (node.value === null) return { column, table };
  if (column.type.storage === 'array') {
    throw invalidQuery(`range filters are not supported on array column "${column.id}"`);
  }
  const bound = coerceFilterValue(column, node.value);
  if (bound === null) return { column, table };
  const key = orderKey(column);
  const b = key(bound);
  const test = {
    gt: (x: string | number) => x > b,
    gte: (x: string | number) => x >= b,
    lt: (x: string | number) => x < b,
    lte: (x: string | number) => x <= b,
  }[node.op];
  for (let code = 1; code < column.values.length; code++) table[code] = test(key(column.values[code]!)) ? 1 : 0;
  return { column, table };
}

function combineTables(a: ColumnTest, b: ColumnTest, op: 'and' | 'or'): ColumnTest {
  const table = new Uint8Array(a.table.length);
  for (let i = 0; i < table.length; i++) table[i] = op === 'and' ? a.table[i]! & b.table[i]! : a.table[i]! | b.table[i]!;
  return { column: a.column, table };
}

/** Merges tests on the same column so a row scan reads each column once. */
function mergeByColumn(tests: ColumnTest[], op: 'and' | 'or'): ColumnTest[] {
  const byColumn = new Map<Column, ColumnTest>();
  for (const t of tests) {
    const seen = byColumn.get(t.column);
    byColumn.set(t.column, seen ? combineTables(seen, t, op) : t);
  }
  return [...byColumn.values()];
}

function compileIdMatch(node: MatchNode): IdTest {
  const toId = (v: unknown): number | null => {
    if (v === null) return null;
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(n)) throw invalidQuery(`invalid input syntax for type integer: "${String(v)}"`, '"_id" = $1', [v]);
    return n;
  };
  if (isDeskstoreOperator(node.op)) return { accept: deskstoreIdTest(node.op, node.value, toId) };
  if (node.op === 'eq' || node.op === 'in') {
    const ids = new Set((node.op === 'in' ? (node.value as unknown[]) : [node.value]).map(toId).filter((n) => n !== null));
    return { accept: (rowId) => ids.has(rowId) };
  }
  const bound = toId(node.value);
  if (bound === null) return { accept: () => false };
  const test = {
    gt: (r: number) => r > bound,
    gte: (r: number) => r >= bound,
    lt: (r: number) => r < bound,
    lte: (r: number) => r <= bound,
  }[node.op];
  return { accept: test };
}

function columnTests(tests: readonly RowTest[]): ColumnTest[] {
  return tests.filter((t): t is ColumnTest => !isIdTest(t));
}

export function compileFilter(node: FilterNode, store: TableStore): RowPredicate {
  if (node.kind === 'match') {
    return { kind: 'tests', tests: [node.column === '_id' ? compileIdMatch(node) : compileMatch(store.column(node.column)!, node)] };
  }
  const items = node.items.map((item) => compileFilter(item, store));
  const testLists = items.map((i) => (i.kind === 'tests' ? i.tests : null));
  if (node.kind === 'and') {
    if (testLists.every((t): t is readonly RowTest[] => t !== null)) return allOf(testLists.flat());
    return { kind: 'and', items };
  }
  // An OR of single tests on one column is still a single test (`{"x": [1, {"gt": 5}]}`).
  const singles = testLists.map((t) => (t && t.length === 1 && !isIdTest(t[0]!) ? (t[0] as ColumnTest) : null));
  if (singles.length && singles.every((t) => t !== null) && new Set(singles.map((t) => t.column)).size === 1) {
    return { kind: 'tests', tests: mergeByColumn(singles, 'or') };
  }
  return { kind: 'or', items };
}

/** Tests that must all hold, as one list: one truth table per column, then the `_id` tests. */
function allOf(tests: readonly RowTest[]): RowPredicate {
  return { kind: 'tests', tests: [...mergeByColumn(columnTests(tests), 'and'), ...tests.filter(isIdTest)] };
}

/** AND of two predicates (filters and per-column q). */
export function andPredicates(a: RowPredicate, b: RowPredicate): RowPredicate {
  if (a.kind === 'tests' && b.kind === 'tests') return allOf([...a.tests, ...b.tests]);
  return { kind: 'and', items: [a, b] };
}
