/**
 * `deskstore_group_by` (docs/views.md, "Charts and group-by"): a Tad-like pivot over the rows a
 * search selects, with the PostgreSQL query that computes the same table on a CKAN portal's
 * datastore_search_sql (and on Deskstore's).
 */
export const GROUP_BY_METRICS = ['count', 'sum', 'mean', 'min', 'max'] as const;
export type GroupByMetric = (typeof GROUP_BY_METRICS)[number];

/** Dates may be grouped by a calendar part instead of their exact value. */
export const DATE_BUCKETS = ['year', 'month', 'day'] as const;
export type DateBucket = (typeof DATE_BUCKETS)[number];

export type GroupKey = string | number | boolean | null;

export interface GroupRow {
  /** One key per grouping column (a bucketed date is `2020`, `2020-03` or `2020-03-15`). */
  readonly keys: readonly GroupKey[];
  /** Rows in the group. */
  readonly count: number;
  /** The metric over `value_field` (for `count`, the same as `count`); null when no value. */
  readonly value: number | string | null;
}

export interface GroupByResult {
  readonly resource_id: string;
  readonly group_by: readonly string[];
  readonly bucket: DateBucket | null;
  readonly metric: GroupByMetric;
  readonly value_field: string | null;
  /** `key`: by the groups' values (dates in time order); `value`: largest metric first. */
  readonly order: 'key' | 'value';
  /** Rows the search selects. */
  readonly rows: number;
  readonly groups: readonly GroupRow[];
  /** Groups before `limit`. */
  readonly total_groups: number;
  /** The same aggregation as PostgreSQL that datastore_search_sql accepts. */
  readonly sql: string;
  /** False when the SQL cannot say exactly what a condition does (see docs/views.md). */
  readonly sql_exact: boolean;
  /** The full-text search (`q`) is not part of the SQL. */
  readonly sql_without_q: boolean;
}
