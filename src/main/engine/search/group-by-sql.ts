import type { DateBucket, GroupByMetric } from '../../../shared/wire/group-by';
import { quoteIdentifier } from '../sqlite/identifiers';

/**
 * The PostgreSQL text of a group-by, written so that Deskstore's datastore_search_sql runs it
 * too: positional GROUP BY / ORDER BY (an output name may shadow a column in PostgreSQL's
 * GROUP BY), `::text` (not `CAST(…)`, which CKAN's checks refuse as a call) and `substr` for calendar buckets (PostgreSQL casts dates and
 * timestamps to ISO text, which Deskstore stores), explicit NULLS LAST (the two databases
 * differ by default).
 */
export interface GroupBySqlSpec {
  readonly table: string;
  readonly groups: readonly { readonly column: string; readonly bucket: DateBucket | null }[];
  readonly metric: GroupByMetric;
  readonly valueField: string | null;
  readonly where: string | null;
  readonly order: 'key' | 'value';
  readonly limit: number;
}

const BUCKET_LENGTH: Record<DateBucket, number> = { year: 4, month: 7, day: 10 };
const FUNCTION: Record<Exclude<GroupByMetric, 'count'>, string> = { sum: 'sum', mean: 'avg', min: 'min', max: 'max' };

export function groupBySql(spec: GroupBySqlSpec): string {
  const keys = spec.groups.map(({ column, bucket }) => {
    const name = quoteIdentifier(column);
    return bucket ? `substr(${name}::text, 1, ${BUCKET_LENGTH[bucket]}) AS ${quoteIdentifier(`${column} (${bucket})`)}` : name;
  });
  const metrics = ['count(*) AS "count"'];
  if (spec.metric !== 'count' && spec.valueField !== null) {
    metrics.push(`${FUNCTION[spec.metric]}(${quoteIdentifier(spec.valueField)}) AS ${quoteIdentifier(spec.metric)}`);
  }
  const positions = keys.map((_, i) => String(i + 1));
  const metricPosition = keys.length + metrics.length;
  const keyOrder = positions.map((p) => `${p} NULLS LAST`);
  const order = spec.order === 'key' ? keyOrder : [`${metricPosition} DESC NULLS LAST`, ...keyOrder];
  return [
    `SELECT ${[...keys, ...metrics].join(', ')}`,
    `FROM ${quoteIdentifier(spec.table)}`,
    ...(spec.where ? [`WHERE ${spec.where}`] : []),
    `GROUP BY ${positions.join(', ')}`,
    `ORDER BY ${order.join(', ')}`,
    `LIMIT ${spec.limit}`,
  ].join('\n');
}
