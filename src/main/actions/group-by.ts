import { DATE_BUCKETS, GROUP_BY_METRICS, type DateBucket, type GroupByMetric, type GroupByResult } from '../../shared/wire/group-by';
import { ValidationError } from '../errors';
import type { ActionDeps } from './action-deps';
import { readCount, readRowSelection } from '../params/row-selection-params';
import type { HandlersFor } from './types';
import { SchemaErrors, isMissing, toStringList, unquoteName } from '../params/validators';

function oneOf<T extends string>(value: unknown, allowed: readonly T[], param: string, errors: SchemaErrors): T | undefined {
  if (isMissing(value)) return undefined;
  if ((allowed as readonly unknown[]).includes(value)) return value as T;
  errors.add(param, `Value must be one of [${allowed.join(', ')}]`);
  return undefined;
}

/**
 * `deskstore_group_by` (GET-able): `group_by` (one or two columns), `metric` (count, sum,
 * mean, min, max; default count) of `value_field`, `bucket` (year, month, day) for date
 * columns, `order` (key or value), `limit` (default 1000, ≤ 10000), plus the search's
 * `filters` and `q`. Answers the groups and the SQL that computes them.
 */
export function groupByAction(deps: ActionDeps): HandlersFor<'deskstore_group_by'> {
  return {
    async deskstore_group_by(params) {
      const errors = new SchemaErrors();
      const selection = readRowSelection(params, errors);
      const groupBy = isMissing(params.group_by)
        ? (errors.add('group_by', 'Missing value'), undefined)
        : errors.take('group_by', toStringList(params.group_by, 'group_by'));
      const metric: GroupByMetric = oneOf(params.metric, GROUP_BY_METRICS, 'metric', errors) ?? 'count';
      const bucket: DateBucket | null = oneOf(params.bucket, DATE_BUCKETS, 'bucket', errors) ?? null;
      const order = oneOf(params.order, ['key', 'value'] as const, 'order', errors) ?? null;
      const limit = Math.max(1, readCount(params, 'limit', 1000, 10000, errors));
      if (errors.any) throw new ValidationError(errors.members);
      const result = await deps.engine.groupBy({
        ...selection,
        groupBy: groupBy!.map(unquoteName),
        metric,
        bucket,
        order,
        limit,
        valueField: isMissing(params.value_field) ? null : String(params.value_field),
      });
      return result satisfies GroupByResult;
    },
  };
}
