import type { DateBucket, GroupByMetric, GroupByResult, GroupKey, GroupRow } from '../../../shared/wire/group-by';
import { message } from '../../../shared/messages';
import { invalid, withMessage } from '../../errors';
import { isNumericStorage } from '../field-types';
import type { Column } from '../column-store/column';
import { textSortKey } from '../column-store/sort-order';
import type { TextSearchLanguage } from '../fts';
import { recordValue } from '../values/encode';
import { isDateStorage } from '../values/epoch';
import { compareExact } from '../values/exact-number';
import type { SearchableResource } from './execute-search';
import { filterSql } from './filter-sql';
import { filterColumnsOf, parseFilters } from './filters';
import { groupBySql } from './group-by-sql';
import { groupKeys } from './group-keys';
import { metricColumn, newSlot, type MetricSlot } from './group-metrics';
import { selectRows, type RowSelection } from './row-selection';
import type { CodeArray } from '../column-store/column';

/**
 * `deskstore_group_by` (docs/views.md, "Charts and group-by"): rows grouped by one or two
 * columns (dates optionally by year, month or day) with count / sum / mean / min / max of a
 * value column (every number type, numeric and int8 exactly: group-metrics.ts), in one pass
 * over the matching rows' codes, plus the same aggregation as SQL.
 */
export interface GroupByRequest extends RowSelection {
  readonly resourceId: string;
  readonly groupBy: readonly string[];
  readonly bucket: DateBucket | null;
  readonly metric: GroupByMetric;
  readonly valueField: string | null;
  readonly order: 'key' | 'value' | null;
  readonly limit: number;
}

const BUCKET_LENGTH: Record<DateBucket, number> = { year: 4, month: 7, day: 10 };

/** code → key number for one grouping column, and each key's value as records show it. */
interface KeyMap {
  readonly keyOf: Int32Array;
  readonly keys: GroupKey[];
  readonly codes: CodeArray;
}

function keyMap(column: Column, bucket: DateBucket | null): KeyMap {
  const storage = column.type.storage;
  if (!bucket || !isDateStorage(storage)) {
    const { keyOf, keys } = groupKeys(column, (value) => recordValue(value, storage) as GroupKey);
    return { keyOf, keys, codes: column.codes };
  }
  const size = column.values.length;
  const keyOf = new Int32Array(size);
  const keys: GroupKey[] = [null]; // key 0 = NULL
  const byText = new Map<string, number>();
  for (let code = 1; code < size; code++) {
    const text = (column.values[code] as string).slice(0, BUCKET_LENGTH[bucket]);
    let key = byText.get(text);
    if (key === undefined) {
      key = keys.length;
      keys.push(text);
      byText.set(text, key);
    }
    keyOf[code] = key;
  }
  return { keyOf, keys, codes: column.codes };
}

function compareKeys(a: GroupKey, b: GroupKey): number {
  if (a === b) return 0;
  if (a === null) return 1; // NULLS LAST
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' || typeof b === 'boolean') return Number(a) - Number(b);
  const x = textSortKey(String(a));
  const y = textSortKey(String(b));
  return x < y ? -1 : x > y ? 1 : 0;
}

function checkColumn(resource: SearchableResource, id: string, param: string): Column {
  const column = resource.store.column(id);
  if (!column) {
    throw withMessage(
      invalid(param, `invalid value "${id}"`),
      message('views.unknown_column', `There is no column "${id}".`, { column: id }),
    );
  }
  if (column.type.storage === 'json' || column.type.storage === 'array') {
    const text = `cannot group by ${column.type.name} column "${id}"`;
    throw withMessage(invalid(param, text), message('views.group_by.not_groupable', text, { column: id, type: column.type.name }));
  }
  return column;
}

/** The value column of a metric, checked: sums and means need numbers, min and max numbers or dates. */
function valueColumnOf(req: GroupByRequest, resource: SearchableResource): Column | null {
  if (req.metric === 'count') return null;
  if (req.valueField === null) {
    throw withMessage(
      invalid('value_field', 'Missing value'),
      message('views.value_field.missing', 'Choose the column to compute it over.'),
    );
  }
  const column = checkColumn(resource, req.valueField, 'value_field');
  const storage = column.type.storage;
  if ((req.metric === 'sum' || req.metric === 'mean') && !isNumericStorage(storage)) {
    throw withMessage(
      invalid('value_field', `${req.metric} needs a number column`),
      message('views.value_field.needs_number', `"${column.id}" holds no numbers: a ${req.metric} needs a number column.`, {
        column: column.id,
        metric: req.metric,
      }),
    );
  }
  if (!isNumericStorage(storage) && !isDateStorage(storage)) {
    throw withMessage(
      invalid('value_field', `${req.metric} needs a number or date column`),
      message('views.value_field.needs_number_or_date', `"${column.id}" holds no numbers or dates: ${req.metric} needs one.`, {
        column: column.id,
        metric: req.metric,
      }),
    );
  }
  return column;
}

/** Metric values largest first (numbers exactly, dates as ISO text), NULL last. */
function compareMetricDescending(a: number | string | null, b: number | string | null, dates: boolean): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (dates) return a < b ? 1 : -1;
  return -compareExact(a, b);
}

export function computeGroupBy(req: GroupByRequest, resource: SearchableResource, defaultLanguage: TextSearchLanguage): GroupByResult {
  if (req.groupBy.length < 1 || req.groupBy.length > 2) {
    throw withMessage(
      invalid('group_by', 'name one or two columns'),
      message('views.group_by.column_count', 'Group by one or two columns.'),
    );
  }
  const groupColumns = req.groupBy.map((id) => checkColumn(resource, id, 'group_by'));
  const valueColumn = valueColumnOf(req, resource);
  const valueStorage = valueColumn?.type.storage;
  const rows = selectRows(req, resource, defaultLanguage);

  const maps = groupColumns.map((c) => keyMap(c, req.bucket));
  const metric = metricColumn(valueColumn, req.metric, rows.length);
  const valueCodes = valueColumn?.codes ?? null;
  const slots = new Map<number, MetricSlot>();
  const [first, second] = maps;
  const width = second ? second.keys.length : 1;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const key = first!.keyOf[first!.codes[r]!]! * width + (second ? second.keyOf[second.codes[r]!]! : 0);
    let slot = slots.get(key);
    if (!slot) {
      slot = newSlot();
      slots.set(key, slot);
    }
    slot.count++;
    if (valueCodes) {
      const code = valueCodes[r]!;
      if (code !== 0) {
        slot.values++;
        metric.add(slot, code);
      }
    }
  }

  const groups: GroupRow[] = [...slots].map(([key, a]) => ({
    keys: second ? [first!.keys[Math.floor(key / width)]!, second.keys[key % width]!] : [first!.keys[key]!],
    count: a.count,
    value: metric.result(a),
  }));
  const orderedType = (c: Column) => c.type.storage !== 'text' && c.type.storage !== 'bool';
  const order = req.order ?? (orderedType(groupColumns[0]!) ? 'key' : 'value');
  const byKeys = (a: GroupRow, b: GroupRow) => compareKeys(a.keys[0]!, b.keys[0]!) || compareKeys(a.keys[1] ?? null, b.keys[1] ?? null);
  const dates = valueStorage !== undefined && isDateStorage(valueStorage);
  groups.sort(order === 'key' ? byKeys : (a, b) => compareMetricDescending(a.value, b.value, dates) || byKeys(a, b));

  const where = req.filters === undefined ? null : filterSql(parseFilters(req.filters, filterColumnsOf(resource.fields)), resource.store);
  const sql = groupBySql({
    table: resource.id,
    groups: groupColumns.map((c) => ({ column: c.id, bucket: req.bucket && isDateStorage(c.type.storage) ? req.bucket : null })),
    metric: req.metric,
    valueField: valueColumn?.id ?? null,
    where: where?.sql ?? null,
    order,
    limit: req.limit,
  });
  return {
    resource_id: resource.id,
    group_by: groupColumns.map((c) => c.id),
    bucket: req.bucket,
    metric: req.metric,
    value_field: valueColumn?.id ?? null,
    order,
    rows: rows.length,
    groups: groups.slice(0, req.limit),
    total_groups: groups.length,
    sql,
    sql_exact: where?.exact ?? true,
    sql_without_q: Boolean(req.q),
  };
}
