import type { DateBucket, GroupByMetric, GroupByResult, GroupKey, GroupRow } from '../../../shared/wire/group-by';
import { invalid } from '../../errors';
import type { Column } from '../column-store/column';
import { textSortKey } from '../column-store/sort-order';
import type { TextSearchLanguage } from '../fts';
import { recordValue } from '../values/encode';
import { epochOf, isDateStorage, textOfEpoch } from '../values/epoch';
import type { SearchableResource } from './execute-search';
import { filterSql } from './filter-sql';
import { filterColumnsOf, parseFilters } from './filters';
import { groupBySql } from './group-by-sql';
import { selectRows, type RowSelection } from './row-selection';

/**
 * `deskstore_group_by` (docs/views.md, "Charts and group-by"): rows grouped by one or two
 * columns (dates optionally by year, month or day) with count / sum / mean / min / max of a
 * value column, in one pass over the matching rows' codes, plus the same aggregation as SQL.
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
  readonly codes: Uint32Array;
}

function keyMap(column: Column, bucket: DateBucket | null): KeyMap {
  const storage = column.type.storage;
  const size = column.values.length;
  const keyOf = new Int32Array(size);
  const keys: GroupKey[] = [null]; // key 0 = NULL
  if (bucket && isDateStorage(storage)) {
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
  } else {
    const canonical = column.canonicalCodes();
    const keyOfCanonical = new Int32Array(size).fill(-1);
    for (let code = 1; code < size; code++) {
      const c = canonical[code]!;
      if (keyOfCanonical[c]! < 0) {
        keyOfCanonical[c] = keys.length;
        keys.push(recordValue(column.values[c]!, storage) as GroupKey);
      }
      keyOf[code] = keyOfCanonical[c]!;
    }
  }
  return { keyOf, keys, codes: column.codes };
}

/** Per code of the value column, the number a metric aggregates (NaN for NULL). */
function metricNumbers(column: Column): Float64Array {
  const out = new Float64Array(column.values.length).fill(NaN);
  for (let code = 1; code < column.values.length; code++) {
    const v = column.values[code]!;
    out[code] = typeof v === 'number' ? v : epochOf(v);
  }
  return out;
}

interface Accumulator {
  count: number;
  values: number;
  sum: number;
  min: number;
  max: number;
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
  if (!column) throw invalid(param, `invalid value "${id}"`);
  if (column.type.storage === 'json' || column.type.storage === 'array')
    throw invalid(param, `cannot group by ${column.type.name} column "${id}"`);
  return column;
}

export function computeGroupBy(req: GroupByRequest, resource: SearchableResource, defaultLanguage: TextSearchLanguage): GroupByResult {
  if (req.groupBy.length < 1 || req.groupBy.length > 2) throw invalid('group_by', 'name one or two columns');
  const groupColumns = req.groupBy.map((id) => checkColumn(resource, id, 'group_by'));
  const valueColumn = req.metric === 'count' ? null : req.valueField === null ? null : checkColumn(resource, req.valueField, 'value_field');
  if (req.metric !== 'count' && !valueColumn) throw invalid('value_field', 'Missing value');
  const valueStorage = valueColumn?.type.storage;
  if (valueColumn && (req.metric === 'sum' || req.metric === 'mean') && valueStorage !== 'integer' && valueStorage !== 'real') {
    throw invalid('value_field', `${req.metric} needs a number column`);
  }
  if (valueColumn && valueStorage !== 'integer' && valueStorage !== 'real' && !isDateStorage(valueStorage!)) {
    throw invalid('value_field', `${req.metric} needs a number or date column`);
  }
  const rows = selectRows(req, resource, defaultLanguage);

  const maps = groupColumns.map((c) => keyMap(c, req.bucket));
  const numbers = valueColumn ? metricNumbers(valueColumn) : null;
  const valueCodes = valueColumn?.codes ?? null;
  const slots = new Map<number, Accumulator>();
  const [first, second] = maps;
  const width = second ? second.keys.length : 1;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const key = first!.keyOf[first!.codes[r]!]! * width + (second ? second.keyOf[second.codes[r]!]! : 0);
    let slot = slots.get(key);
    if (!slot) {
      slot = { count: 0, values: 0, sum: 0, min: Infinity, max: -Infinity };
      slots.set(key, slot);
    }
    slot.count++;
    if (numbers) {
      const v = numbers[valueCodes![r]!]!;
      if (!Number.isNaN(v)) {
        slot.values++;
        slot.sum += v;
        if (v < slot.min) slot.min = v;
        if (v > slot.max) slot.max = v;
      }
    }
  }

  const asValue = (n: number): number | string => (valueStorage && isDateStorage(valueStorage) ? textOfEpoch(n, valueStorage) : n);
  const metricOf = (a: Accumulator): number | string | null => {
    switch (req.metric) {
      case 'count':
        return a.count;
      case 'sum':
        return a.values ? a.sum : null;
      case 'mean':
        return a.values ? a.sum / a.values : null;
      case 'min':
        return a.values ? asValue(a.min) : null;
      case 'max':
        return a.values ? asValue(a.max) : null;
    }
  };
  const groups: GroupRow[] = [...slots].map(([key, a]) => ({
    keys: second ? [first!.keys[Math.floor(key / width)]!, second.keys[key % width]!] : [first!.keys[key]!],
    count: a.count,
    value: metricOf(a),
  }));
  const orderedType = (c: Column) => c.type.storage !== 'text' && c.type.storage !== 'bool';
  const order = req.order ?? (orderedType(groupColumns[0]!) ? 'key' : 'value');
  const byKeys = (a: GroupRow, b: GroupRow) => compareKeys(a.keys[0]!, b.keys[0]!) || compareKeys(a.keys[1] ?? null, b.keys[1] ?? null);
  groups.sort(
    order === 'key'
      ? byKeys
      : (a, b) => {
          if (a.value === b.value) return byKeys(a, b);
          if (a.value === null) return 1;
          if (b.value === null) return -1;
          return a.value < b.value ? 1 : -1;
        },
  );

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
