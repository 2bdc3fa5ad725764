import type { A_Const, ColumnRef, FuncCall, Node, SelectStmt } from 'libpg-query';
import type { Column } from '../column-store/column';
import { textSortKey } from '../column-store/sort-order';
import type { TableStore } from '../column-store/table-store';
import type { FieldType } from '../field-types';
import { storedCell } from '../sqlite/table-file-writer';
import { coerceValue, CoercionError, type StoredValue } from '../values/coerce';
import { groupKeys } from '../search/group-keys';
import { ROWS_MAX } from '../search/search-request';
import { parseStatement } from './postgres-parser';
import { wrappedStatement } from './sql-errors';
import type { TranslatedQuery } from './translate';
import { compareUtf8Order } from '../../util/utf8-order';

/**
 * A plain single-table aggregate answered from the column store instead of SQLite (issue 24:
 * a fresh server's first `SELECT regione, count(*) FROM t GROUP BY regione` read the whole
 * 156 MB table file into sql.js before SQLite scanned a million rows). It is recognised from
 * PostgreSQL's parse tree after every check the query passes on the SQL path (prepareSql), and
 * only in shapes whose answer is the SQL path's, byte for byte (the differential test
 * `test/unit/engine/column-aggregate.test.ts` runs both):
 *
 * - one table, no WITH, DISTINCT, HAVING, window, set operation or locking;
 * - a SELECT list of grouped columns (optionally `AS`) and `count(*)` / `count(col)`, `sum` of
 *   int2/int4, `min`/`max` of integers, dates, times and timestamps (AGGREGATE_TYPES);
 * - `WHERE col = literal [AND …]` on plain columns;
 * - `GROUP BY` those columns (or none), optional `ORDER BY` of output columns, positions or
 *   grouped columns, `LIMIT` / `OFFSET` constants;
 * - grouped, counted and compared columns of types whose values SQLite holds as the column store
 *   does (text, varchar, int2, int4, int8, bool, date, time, timestamp, timestamptz), whose
 *   dictionary repeats (a mostly unique column would have to decode every value).
 *
 * Anything else, or any doubt, returns null and the query runs on sql.js as before. The order
 * is SQLite's: without ORDER BY, its GROUP BY gives groups in the order of their key cells
 * (NULL first, numbers, then texts by their UTF-8 bytes); with ORDER BY, rows ordered as the
 * translation orders them (text by the collation's key, NULLs where PostgreSQL puts them).
 * Where ORDER BY leaves two different rows tied, SQLite's sorter decides their order, which
 * is not reproduced: such a query runs on sql.js. Records are written by the SQL path's own
 * writer (shape-results.ts) from the cells SQLite would return, and the output columns'
 * names and types are the translation's.
 */
export interface ColumnAggregate {
  readonly rows: unknown[][];
  readonly truncated: boolean;
}

/** The column store's view of the one table the query reads. */
export interface AggregateTable {
  readonly store: TableStore;
  readonly fields: readonly { readonly id: string; readonly type: FieldType }[];
}

/** Types whose stored cells compare and group in SQLite exactly as the column store's values do. */
const SUPPORTED_TYPES = new Set(['text', 'varchar', 'int2', 'int4', 'int8', 'bool', 'date', 'time', 'timestamp', 'timestamptz']);
const TEXT_NAMES = new Set(['text', 'varchar']);
const INTEGER_NAMES = new Set(['int2', 'int4', 'int8']);

/** Not this path: the query runs on sql.js. */
class NotPlain extends Error {}
const notPlain = (): never => {
  throw new NotPlain();
};

type Cell = null | number | bigint | string;

interface GroupColumn {
  readonly column: Column;
  readonly type: FieldType;
}

type AggregateName = 'count' | 'sum' | 'min' | 'max';

type Output =
  | { readonly kind: 'group'; readonly group: number }
  | { readonly kind: 'aggregate'; readonly name: AggregateName; readonly column: GroupColumn | null };

/**
 * The aggregates answered here, and of which column types: `count` of any supported column;
 * `sum` of int2/int4 (SQLite's integer sum, PostgreSQL's int8; int8 and numeric sums are exact
 * decimals on the SQL path); `min`/`max` of integers, dates, times and timestamps (SQLite
 * compares their cells as this path does; text goes by the collation there, bool has none in
 * PostgreSQL).
 */
const AGGREGATE_TYPES: Record<Exclude<AggregateName, 'count'>, ReadonlySet<string>> = {
  sum: new Set(['int2', 'int4']),
  min: new Set(['int2', 'int4', 'int8', 'date', 'time', 'timestamp', 'timestamptz']),
  max: new Set(['int2', 'int4', 'int8', 'date', 'time', 'timestamp', 'timestamptz']),
};

interface SortItem {
  /** Index into a row's keys: output `i`, or group column `outputs.length + g`. */
  readonly key: number;
  readonly desc: boolean;
  readonly nullsFirst: boolean;
  /** Compare by the collation's key (text). */
  readonly collated: boolean;
}

interface Plan {
  readonly groups: GroupColumn[];
  readonly outputs: Output[];
  readonly conditions: { column: Column; matches: (value: StoredValue) => boolean }[];
  readonly order: SortItem[] | null;
  readonly limit: number | null;
  readonly offset: number;
}

/**
 * The answer of `query` (prepared from `sql` by prepareSql) from the column store, or null
 * when the query is not one this path answers exactly.
 */
export function columnAggregate(sql: string, query: TranslatedQuery, table: AggregateTable): ColumnAggregate | null {
  if (query.tables.length !== 1) return null;
  try {
    const select = innerSelect(parseStatement(wrappedStatement(sql)));
    const plan = planOf(select, table);
    if (plan.outputs.length !== query.columns.length) return null;
    return run(plan, table.store);
  } catch (err) {
    if (err instanceof NotPlain) return null;
    throw err;
  }
}

// ---- recognising the shape ---------------------------------------------------------------------

/** The user's SELECT inside CKAN's wrapper `SELECT * FROM (<sql>) AS blah LIMIT n`. */
function innerSelect(stmt: Node): SelectStmt {
  if (!('SelectStmt' in stmt)) return notPlain();
  const outer = stmt.SelectStmt;
  const from = outer.fromClause;
  if (from?.length !== 1 || !('RangeSubselect' in from[0]!)) return notPlain();
  if (outer.whereClause || outer.groupClause || outer.sortClause || outer.limitOffset || outer.withClause) return notPlain();
  const sub = from[0].RangeSubselect.subquery;
  if (!sub || !('SelectStmt' in sub)) return notPlain();
  return sub.SelectStmt;
}

function planOf(s: SelectStmt, table: AggregateTable): Plan {
  if (s.op && s.op !== 'SETOP_NONE') notPlain();
  if (s.withClause || s.distinctClause || s.havingClause || s.windowClause?.length || s.valuesLists) notPlain();
  if (s.intoClause || s.lockingClause?.length || s.groupDistinct) notPlain();
  if (s.limitOption && s.limitOption !== 'LIMIT_OPTION_DEFAULT' && s.limitOption !== 'LIMIT_OPTION_COUNT') notPlain();
  const from = s.fromClause ?? [];
  if (from.length !== 1 || !('RangeVar' in from[0]!)) notPlain();
  const range = (from[0] as { RangeVar: { relname?: string; alias?: { aliasname?: string; colnames?: Node[] } } }).RangeVar;
  if (range.alias?.colnames?.length) notPlain();
  const visibleName = range.alias?.aliasname ?? range.relname;
  const field = (ref: ColumnRef): GroupColumn => columnOf(ref, visibleName, table);

  const targets = (s.targetList ?? []).map((node) => {
    if (!('ResTarget' in node) || !node.ResTarget.val || node.ResTarget.indirection?.length) return notPlain();
    return node.ResTarget;
  });
  const names = targets.map(
    (t) => t.name ?? ('ColumnRef' in t.val! ? lastName(t.val.ColumnRef) : 'FuncCall' in t.val! ? functionName(t.val.FuncCall) : ''),
  );

  // GROUP BY: positions and output names resolve as the translation resolves them (groupItem).
  const groups: GroupColumn[] = [];
  for (const item of s.groupClause ?? []) {
    const target = outputTarget(item, names, table);
    const node = target === null ? item : targets[target]!.val!;
    if (!('ColumnRef' in node)) notPlain();
    groups.push(field((node as { ColumnRef: ColumnRef }).ColumnRef));
  }
  const groupIndex = (g: GroupColumn): number => {
    const i = groups.findIndex((x) => x.column === g.column);
    return i < 0 ? notPlain() : i;
  };

  const outputs: Output[] = targets.map((t) => {
    const val = t.val!;
    if ('ColumnRef' in val) return { kind: 'group', group: groupIndex(field(val.ColumnRef)) };
    if ('FuncCall' in val) return aggregateOf(val.FuncCall, field);
    return notPlain();
  });

  const conditions = s.whereClause ? conjuncts(s.whereClause).map((c) => condition(c, field)) : [];

  let order: SortItem[] | null = null;
  if (s.sortClause?.length) {
    order = s.sortClause.map((node) => {
      if (!('SortBy' in node)) return notPlain();
      const by = node.SortBy;
      if (by.sortby_dir === 'SORTBY_USING' || !by.node) notPlain();
      const desc = by.sortby_dir === 'SORTBY_DESC';
      const nullsFirst = by.sortby_nulls === 'SORTBY_NULLS_DEFAULT' || !by.sortby_nulls ? desc : by.sortby_nulls === 'SORTBY_NULLS_FIRST';
      const target = outputTarget(by.node!, names, table);
      if (target !== null) {
        const output = outputs[target]!;
        const collated = output.kind === 'group' && TEXT_NAMES.has(groups[output.group]!.type.name);
        return { key: target, desc, nullsFirst, collated };
      }
      if (!('ColumnRef' in by.node!)) return notPlain();
      const g = groupIndex(field(by.node.ColumnRef));
      return { key: outputs.length + g, desc, nullsFirst, collated: TEXT_NAMES.has(groups[g]!.type.name) };
    });
  }
  return {
    groups,
    outputs,
    conditions,
    order,
    limit: s.limitCount ? count(s.limitCount) : null,
    offset: s.limitOffset ? count(s.limitOffset) : 0,
  };
}

const lastName = (ref: ColumnRef): string => {
  const last = ref.fields?.[ref.fields.length - 1];
  return last && 'String' in last ? (last.String.sval ?? '') : notPlain();
};

/**
 * `ORDER BY 2` or `GROUP BY n` naming an output column: the output's index, as the translation
 * resolves it (outputReference: a name that is also a table column means the column).
 */
function outputTarget(node: Node, names: readonly string[], table: AggregateTable): number | null {
  if ('A_Const' in node && node.A_Const.ival !== undefined) {
    const position = node.A_Const.ival.ival ?? 0;
    return position >= 1 && position <= names.length ? position - 1 : notPlain();
  }
  if ('ColumnRef' in node && node.ColumnRef.fields?.length === 1) {
    const name = lastName(node.ColumnRef);
    const i = names.indexOf(name);
    if (i >= 0 && !isTableColumn(name, table)) return i;
  }
  return null;
}

const isTableColumn = (name: string, table: AggregateTable): boolean =>
  name === '_id' || name === '_full_text' || table.fields.some((f) => f.id === name);

/** A plain column of the table, of a type this path answers for, with a repeating dictionary. */
function columnOf(ref: ColumnRef, visibleName: string | undefined, table: AggregateTable): GroupColumn {
  const fields = ref.fields ?? [];
  if (fields.length === 2) {
    const qualifier = fields[0]!;
    if (!('String' in qualifier) || qualifier.String.sval !== visibleName) notPlain();
  } else if (fields.length !== 1) notPlain();
  const name = lastName(ref);
  const field = table.fields.find((f) => f.id === name);
  const column = table.store.column(name);
  if (!field || !column || !SUPPORTED_TYPES.has(field.type.name) || column.mayRepeat) return notPlain();
  return { column, type: field.type };
}

const functionName = (f: FuncCall): string => {
  const names = f.funcname ?? [];
  return names.length === 1 && 'String' in names[0]! ? (names[0].String.sval ?? '') : notPlain();
};

/** `count(*)`, or count/sum/min/max of a plain column: no DISTINCT, FILTER, ORDER BY or OVER. */
function aggregateOf(f: FuncCall, field: (ref: ColumnRef) => GroupColumn): Output {
  const name = functionName(f);
  if (f.agg_distinct || f.agg_filter || f.agg_order?.length || f.over || f.agg_within_group || f.func_variadic) notPlain();
  if (name !== 'count' && name !== 'sum' && name !== 'min' && name !== 'max') return notPlain();
  if (f.agg_star) return name === 'count' && !f.args?.length ? { kind: 'aggregate', name, column: null } : notPlain();
  const args = f.args ?? [];
  if (args.length !== 1 || !('ColumnRef' in args[0]!)) notPlain();
  const column = field((args[0] as { ColumnRef: ColumnRef }).ColumnRef);
  if (name !== 'count' && !AGGREGATE_TYPES[name].has(column.type.name)) notPlain();
  return { kind: 'aggregate', name, column };
}

function conjuncts(node: Node): Node[] {
  if ('BoolExpr' in node) {
    if (node.BoolExpr.boolop !== 'AND_EXPR') notPlain();
    return (node.BoolExpr.args ?? []).flatMap(conjuncts);
  }
  return [node];
}

/**
 * `col = literal` (either way round) as the translation compares it (sql-expr.ts comparable):
 * a text column with a string literal byte for byte; an integer column with an integer
 * constant; bool, date, time and timestamps with the literal read as the column's type
 * (coerceValue, as literalAs) or a boolean constant. Anything else runs on sql.js.
 */
function condition(node: Node, field: (ref: ColumnRef) => GroupColumn): { column: Column; matches: (value: StoredValue) => boolean } {
  if (!('A_Expr' in node)) return notPlain();
  const e = node.A_Expr;
  const op = e.name?.length === 1 && 'String' in e.name[0]! ? e.name[0].String.sval : undefined;
  if (e.kind !== 'AEXPR_OP' || op !== '=' || !e.lexpr || !e.rexpr) notPlain();
  const [ref, constant] =
    'ColumnRef' in e.lexpr! && 'A_Const' in e.rexpr!
      ? [e.lexpr.ColumnRef, e.rexpr.A_Const]
      : 'A_Const' in e.lexpr! && 'ColumnRef' in e.rexpr!
        ? [e.rexpr.ColumnRef, e.lexpr.A_Const]
        : notPlain();
  const { column, type } = field(ref);
  const wanted = comparedValue(constant, type);
  // A NULL compared with `=` is never true.
  return { column, matches: wanted === null ? () => false : (value) => value === wanted };
}

function comparedValue(c: A_Const, type: FieldType): StoredValue {
  if (c.isnull || c.bsval) notPlain();
  if (TEXT_NAMES.has(type.name)) {
    if (!c.sval) notPlain();
    const text = c.sval!.sval ?? '';
    // SQLite holds a lone surrogate of the column store as U+FFFD: a literal with U+FFFD could
    // match such a value there and not here.
    return text.includes('\uFFFD') ? notPlain() : text;
  }
  if (INTEGER_NAMES.has(type.name)) {
    if (c.ival) return c.ival.ival ?? 0;
    const digits = c.fval?.fval;
    if (digits !== undefined && /^[1-9]\d*$/.test(digits) && Number.isSafeInteger(Number(digits))) return Number(digits);
    return notPlain();
  }
  if (type.name === 'bool' && c.boolval) return c.boolval.boolval ? 1 : 0;
  if (!c.sval) return notPlain();
  try {
    return coerceValue(c.sval.sval ?? '', type);
  } catch (err) {
    if (err instanceof CoercionError) notPlain();
    throw err;
  }
}

/** A LIMIT or OFFSET constant. */
function count(node: Node): number {
  if (!('A_Const' in node) || !node.A_Const.ival) return notPlain();
  const n = node.A_Const.ival.ival ?? 0;
  return n >= 0 ? n : notPlain();
}

// ---- running it ---------------------------------------------------------------------------------

/** A group column's key per dictionary code (key 0 is NULL), with the cell SQLite holds for each key. */
interface Keys {
  readonly keyOf: Int32Array;
  readonly cells: Cell[];
}

function keysOf(group: GroupColumn): Keys {
  const { keyOf, keys } = groupKeys(group.column, (value) => sqliteCell(value, group.type));
  return { keyOf, cells: keys };
}

/** What sql.js returns for a value stored in a column of `type` (INTEGERs as BigInt: runSql's useBigInt). */
function sqliteCell(value: StoredValue, type: FieldType): Cell {
  let cell: ReturnType<typeof storedCell>;
  try {
    cell = storedCell(value, type.sqliteType);
  } catch (err) {
    // A value the table file writer would refuse for this column: no answer to copy here.
    if (err instanceof TypeError) notPlain();
    throw err;
  }
  switch (cell.kind) {
    case 'null':
      return null;
    case 'integer':
      return BigInt(cell.value);
    case 'real':
      return cell.value;
    case 'text':
      // sql.js reads a text up to its first NUL; lone surrogates come back as U+FFFD.
      if (cell.text.includes('\0') || /\p{Cs}/u.test(cell.text)) notPlain();
      return cell.text;
  }
}

/** One aggregate's value per slot, added to row by row. */
interface Accumulator {
  /** Whether `add` needs each row (count(*) needs only the slot's row count). */
  readonly perRow: boolean;
  open(): void;
  add(slot: number, row: number): void;
  /** The cell SQLite's aggregate gives (`rows`: the slot's rows, for count(*)). */
  result(slot: number, rows: number): Cell;
}

function accumulatorOf(name: AggregateName, target: GroupColumn | null): Accumulator {
  if (!target) return { perRow: false, open: () => undefined, add: () => undefined, result: (_, rows) => BigInt(rows) };
  const codes: ArrayLike<number> = target.column.codes;
  const nonNull: number[] = [];
  const counting = {
    perRow: true,
    open: () => nonNull.push(0),
    add(slot: number, row: number) {
      if (codes[row] !== 0) nonNull[slot]!++;
    },
  };
  if (name === 'count') return { ...counting, result: (slot) => BigInt(nonNull[slot]!) };
  if (name === 'sum') {
    // int2/int4 values as doubles: exact while the sum stays a safe integer (checked at the end).
    const values = Float64Array.from(target.column.values, (v) => (v === null ? 0 : (v as number)));
    const sums: number[] = [];
    return {
      perRow: true,
      open() {
        counting.open();
        sums.push(0);
      },
      add(slot, row) {
        const code = codes[row]!;
        if (code === 0) return;
        nonNull[slot]!++;
        sums[slot]! += values[code]!;
      },
      result(slot) {
        if (!nonNull[slot]) return null;
        return Number.isSafeInteger(sums[slot]) ? BigInt(sums[slot]!) : notPlain();
      },
    };
  }
  // min/max: each code's rank among the column's distinct cells in SQLite's order.
  const { keyOf, cells } = keysOf(target);
  const byOrder = cells.map((_, k) => k).slice(1);
  byOrder.sort((a, b) => compareCells(cells[a]!, cells[b]!));
  const rankOfKey = new Int32Array(cells.length);
  byOrder.forEach((k, rank) => (rankOfKey[k] = rank));
  const best: number[] = [];
  const wantMax = name === 'max';
  return {
    perRow: true,
    open: () => best.push(-1),
    add(slot, row) {
      const code = codes[row]!;
      if (code === 0) return;
      const rank = rankOfKey[keyOf[code]!]!;
      const current = best[slot]!;
      if (current < 0 || (wantMax ? rank > current : rank < current)) best[slot] = rank;
    },
    result: (slot) => (best[slot]! < 0 ? null : cells[byOrder[best[slot]!]!]!),
  };
}

/** Key combinations counted in a table of slots rather than a map (16 MB at most). */
const DENSE_KEYS = 1 << 22;

function run(plan: Plan, store: TableStore): ColumnAggregate {
  const live = store.live;
  const maxRowId = store.maxRowId;
  const keys = plan.groups.map(keysOf);
  // Codes read through the column's accessor, as whatever array type it keeps them in.
  const groupCodes: ArrayLike<number>[] = plan.groups.map((g) => g.column.codes);
  const tests = plan.conditions.map(({ column, matches }) => ({
    codes: column.codes,
    table: column.truthTable(matches),
  }));
  const aggregates = plan.outputs.flatMap((o) => (o.kind === 'aggregate' ? [accumulatorOf(o.name, o.column)] : []));

  // One slot per group met: its rows, and each aggregate's accumulators.
  const widths = keys.map((k) => k.cells.length);
  const radix = widths.reduce((a, b) => a * b, 1);
  if (!Number.isSafeInteger(radix)) notPlain();
  // Slots by key: a table when the keys are few (the usual case), a map otherwise.
  const dense = radix <= DENSE_KEYS ? new Int32Array(radix).fill(-1) : null;
  const slotOfKey = new Map<number, number>();
  const slotKeys: number[] = [];
  const rowsIn: number[] = [];
  const ungrouped = plan.groups.length === 0;
  const newSlot = (key: number): number => {
    slotKeys.push(key);
    rowsIn.push(0);
    for (const a of aggregates) a.open();
    return slotKeys.length - 1;
  };
  if (ungrouped) newSlot(0);
  const perRow = aggregates.filter((a) => a.perRow);
  if (keys.length === 1 && dense && !tests.length && !perRow.length) {
    // The usual question (one column's groups counted): rows added up per key in one tight pass.
    const keyOf = keys[0]!.keyOf;
    const codes = groupCodes[0]!;
    const counts = new Float64Array(radix);
    for (let r = 1; r <= maxRowId; r++) if (live[r]) counts[keyOf[codes[r]!]!]!++;
    for (let key = 0; key < radix; key++) if (counts[key]) rowsIn[newSlot(key)] = counts[key]!;
  } else {
    rows: for (let r = 1; r <= maxRowId; r++) {
      if (!live[r]) continue;
      for (let t = 0; t < tests.length; t++) if (!tests[t]!.table[tests[t]!.codes[r]!]) continue rows;
      let key = 0;
      for (let g = 0; g < keys.length; g++) key = key * widths[g]! + keys[g]!.keyOf[groupCodes[g]![r]!]!;
      let slot = ungrouped ? 0 : dense ? dense[key]! : (slotOfKey.get(key) ?? -1);
      if (slot < 0) {
        slot = newSlot(key);
        if (dense) dense[key] = slot;
        else slotOfKey.set(key, slot);
      }
      rowsIn[slot]!++;
      for (let a = 0; a < perRow.length; a++) perRow[a]!.add(slot, r);
    }
  }

  // Each group's key cells, then its output row.
  let groups = slotKeys.map((key, slot) => {
    const cells: Cell[] = new Array<Cell>(keys.length);
    for (let g = keys.length - 1; g >= 0; g--) {
      cells[g] = keys[g]!.cells[key % widths[g]!]!;
      key = Math.floor(key / widths[g]!);
    }
    let a = 0;
    const row: Cell[] = plan.outputs.map((o) => (o.kind === 'group' ? cells[o.group]! : aggregates[a++]!.result(slot, rowsIn[slot]!)));
    return { cells, row };
  });

  if (plan.order) {
    const order = plan.order;
    const sortKeys = new Map<string, string>();
    const valueOf = (g: { cells: Cell[]; row: Cell[] }, item: SortItem): Cell => {
      const v = item.key < plan.outputs.length ? g.row[item.key]! : g.cells[item.key - plan.outputs.length]!;
      if (!item.collated || typeof v !== 'string') return v;
      let key = sortKeys.get(v);
      if (key === undefined) sortKeys.set(v, (key = textSortKey(v)));
      return key;
    };
    const compare = (a: { cells: Cell[]; row: Cell[] }, b: { cells: Cell[]; row: Cell[] }): number => {
      for (const item of order) {
        const x = valueOf(a, item);
        const y = valueOf(b, item);
        if (x === null || y === null) {
          if (x === y) continue;
          return (x === null) === item.nullsFirst ? -1 : 1;
        }
        const c = compareCells(x, y);
        if (c) return item.desc ? -c : c;
      }
      return 0;
    };
    groups.sort(compare);
    // Two different rows equal for ORDER BY: SQLite's sorter decides, and that is not reproduced.
    for (let i = 1; i < groups.length; i++) {
      if (compare(groups[i - 1]!, groups[i]!) === 0 && !sameRow(groups[i - 1]!.row, groups[i]!.row)) notPlain();
    }
  } else {
    // SQLite's GROUP BY sorts its groups by their key cells.
    groups.sort((a, b) => {
      for (let g = 0; g < a.cells.length; g++) {
        const c = compareCells(a.cells[g]!, b.cells[g]!);
        if (c) return c;
      }
      return 0;
    });
  }
  groups = groups.slice(plan.offset, plan.limit === null ? undefined : plan.offset + plan.limit);
  const truncated = groups.length > ROWS_MAX;
  return { rows: groups.slice(0, ROWS_MAX).map((g) => g.row), truncated };
}

function sameRow(a: readonly Cell[], b: readonly Cell[]): boolean {
  return a.every((v, i) => v === b[i]);
}

/** SQLite's order of cells (BINARY collation): NULL, numbers, texts by their UTF-8 bytes. */
export function compareCells(a: Cell, b: Cell): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  const aText = typeof a === 'string';
  const bText = typeof b === 'string';
  if (aText !== bText) return aText ? 1 : -1;
  if (aText) return compareUtf8Order(a, b as string);
  const x = a;
  const y = b as number | bigint;
  return x < y ? -1 : x > y ? 1 : 0;
}
