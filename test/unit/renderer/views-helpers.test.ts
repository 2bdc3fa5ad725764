/** The pure parts of issue 15's views: conditions → filters, grid cursor, layout, TSV, SQL errors and examples. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/renderer/src/api/errors';
import { moveColumn, orderFields } from '../../../src/renderer/src/features/table/column-layout';
import {
  conditionsFromParam,
  conditionsToParam,
  isComplete,
  mergeConditions,
  operatorsFor,
  type Condition,
} from '../../../src/renderer/src/features/table/conditions';
import { isSelected, moveSelection, selectionBounds } from '../../../src/renderer/src/features/table/grid-selection';
import { rowsAsTsv } from '../../../src/renderer/src/features/table/tsv';
import { queryPairs } from '../../../src/renderer/src/features/table/view-state';
import { sqlErrorText } from '../../../src/renderer/src/features/sql/sql-errors';
import { sqlExamples } from '../../../src/renderer/src/features/sql/sql-examples';
import { bucketLabel, formatStatistic } from '../../../src/renderer/src/features/profile/profile-format';
import { groupsCsv } from '../../../src/renderer/src/features/chart/groups-csv';

const c = (field: string, op: Condition['op'], value = '', value2 = ''): Condition => ({ field, op, value, value2 });

describe('conditions', () => {
  it('use CKAN 2.11 values and 2.12 operators where they can, Deskstore operators otherwise', () => {
    expect(mergeConditions({}, [c('n', 'eq', ' 5 '), c('d', 'between', '2020-01-01', '2020-12-31'), c('x', 'gt', '1.5')])).toEqual({
      n: '5',
      d: { gte: '2020-01-01', lte: '2020-12-31' },
      x: { gt: '1.5' },
    });
    expect(
      mergeConditions({}, [
        c('r', 'ne', 'Lazio'),
        c('t', 'contains', 'via '),
        c('t2', 'starts_with', 'San'),
        c('e', 'empty'),
        c('f', 'not_empty'),
      ]),
    ).toEqual({
      r: { deskstore_ne: 'Lazio' },
      t: { deskstore_contains: 'via ' },
      t2: { deskstore_starts_with: 'San' },
      e: { deskstore_empty: true },
      f: { deskstore_empty: false },
    });
  });
  it('join a column operator object when they do not collide, else go into $and; incomplete ones wait', () => {
    expect(
      mergeConditions({ r: ['Lazio', 'Molise'] }, [
        c('n', 'gte', '1'),
        c('n', 'lt', '9'),
        c('n', 'gte', '3'),
        c('r', 'ne', 'Lazio'),
        c('x', 'eq', ''),
      ]),
    ).toEqual({ r: ['Lazio', 'Molise'], n: { gte: '1', lt: '9' }, $and: [{ n: { gte: '3' } }, { r: { deskstore_ne: 'Lazio' } }] });
    expect(isComplete(c('d', 'between', '1'))).toBe(false);
    expect(isComplete(c('d', 'empty'))).toBe(true);
  });
  it('travel in the URL and through the view to the search parameters', () => {
    const list = [c('n', 'between', '1', '2'), c('t', 'empty'), c('r', 'ne', 'x')];
    expect(conditionsFromParam(conditionsToParam(list))).toEqual(list);
    expect(conditionsFromParam('[["a","nope","1"], 3, ["b","eq",5]]')).toEqual([]);
    const pairs = queryPairs({
      resourceId: 'r',
      allFields: ['_id', 'n'],
      view: { q: '', filters: {}, sort: [], hidden: [], conditions: [c('n', 'gt', '3')] },
    });
    expect(pairs).toEqual([['filters', '{"n":{"gt":"3"}}']]);
  });
  it('offer operators that fit the column type', () => {
    expect(operatorsFor('int4')).toContain('between');
    expect(operatorsFor('int4')).not.toContain('contains');
    expect(operatorsFor('text')).toContain('starts_with');
    expect(operatorsFor('bool')).toEqual(['eq', 'ne', 'empty', 'not_empty']);
  });
});

describe('grid cursor and selection', () => {
  const size = { rows: 100, cols: 5, page: 10 };
  const at = (row: number, col: number) => ({ active: { row, col }, anchor: { row, col } });
  it('moves, jumps and stays inside the grid', () => {
    expect(moveSelection(at(0, 0), 'ArrowUp', size, { shift: false, ctrl: false })).toEqual(at(0, 0));
    expect(moveSelection(at(95, 2), 'PageDown', size, { shift: false, ctrl: false })).toEqual(at(99, 2));
    expect(moveSelection(at(5, 2), 'End', size, { shift: false, ctrl: true })).toEqual(at(99, 4));
    expect(moveSelection(at(5, 2), 'x', size, { shift: false, ctrl: false })).toBeNull();
  });
  it('extends with Shift, and the rectangle between anchor and cursor is selected', () => {
    const sel = moveSelection(moveSelection(at(3, 3), 'ArrowUp', size, { shift: true, ctrl: false })!, 'ArrowLeft', size, {
      shift: true,
      ctrl: false,
    })!;
    expect(selectionBounds(sel)).toEqual({ top: 2, bottom: 3, left: 2, right: 3 });
    expect(isSelected(sel, 2, 2)).toBe(true);
    expect(isSelected(sel, 4, 3)).toBe(false);
  });
});

describe('column layout and TSV', () => {
  const fields = ['_id', 'a', 'b', 'c'].map((id) => ({ id, type: 'text' }));
  it('orders columns as chosen, keeping _id first and new columns in place', () => {
    expect(orderFields(fields, ['c', 'a']).map((f) => f.id)).toEqual(['_id', 'c', 'a', 'b']);
    expect(moveColumn(['_id', 'a', 'b', 'c'], 'c', 'a')).toEqual(['_id', 'c', 'a', 'b']);
    expect(moveColumn(['_id', 'a', 'b', 'c'], 'a', '_id')).toEqual(['_id', 'a', 'b', 'c']);
  });
  it('copies cells as spreadsheets paste them', () => {
    expect(
      rowsAsTsv(
        ['a', 'b'],
        [
          { a: 'x\ty', b: null },
          { a: 'say "hi"\n', b: 2 },
        ],
        true,
      ),
    ).toBe('a\tb\n"x\ty"\t\n"say ""hi""\n"\t2');
  });
});

describe('SQL screen helpers', () => {
  it('recognises PostgreSQL errors to word them in the user language', () => {
    const err = new ApiError('validation', 409, 'x', { query: ['syntax error at or near "FROM"'] });
    expect(sqlErrorText(err)).toEqual({ key: 'sql.error.syntax', params: { near: 'FROM' } });
    expect(sqlErrorText(new ApiError('validation', 409, 'x', { query: ['column "nope" does not exist'] }))).toEqual({
      key: 'sql.error.column',
      params: { name: 'nope' },
    });
    expect(sqlErrorText(new ApiError('validation', 409, 'something else'))).toBeNull();
  });
  it('builds examples from the columns', () => {
    const examples = sqlExamples('r"1', [
      { id: '_id', type: 'int' },
      { id: 'nome', type: 'text' },
      { id: 'n', type: 'int4' },
      { id: 'd', type: 'date' },
    ]);
    expect(examples.map((e) => e.key)).toEqual(['all', 'count', 'range', 'byYear', 'startsWith']);
    expect(examples[0]!.sql).toBe('SELECT * FROM "r""1" LIMIT 100');
  });
});

describe('profile and chart formatting', () => {
  it('words statistics and histogram bars in the locale', () => {
    expect(formatStatistic(1234.5678, 'numeric', 'it')).toBe('1.234,57');
    expect(formatStatistic(0.123456, 'numeric', 'en')).toBe('0.1235');
    expect(bucketLabel({ from: 10, to: 20, count: 1 }, null, 'int4', 'en')).toBe('10 – 20');
    expect(bucketLabel({ from: '2020-03-01', to: '2020-04-01', count: 1 }, 'month', 'date', 'it')).toBe('mar 2020');
    expect(bucketLabel({ from: '2010-01-01', to: '2020-01-01', count: 1 }, '10 years', 'date', 'en')).toBe('2010–2019');
  });
  it('exports a group-by as CSV', () => {
    const csv = groupsCsv(
      {
        resource_id: 'r',
        group_by: ['a'],
        bucket: null,
        metric: 'sum',
        value_field: 'n',
        order: 'value',
        rows: 3,
        total_groups: 2,
        groups: [
          { keys: ['x, y'], count: 2, value: 5 },
          { keys: [null], count: 1, value: null },
        ],
        sql: '',
        sql_exact: true,
        sql_without_q: false,
      },
      ['a'],
      'Sum of n',
    );
    expect(csv).toBe('a,count,Sum of n\r\n"x, y",2,5\r\n,1,\r\n');
  });
});
