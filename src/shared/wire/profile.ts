/**
 * `deskstore_profile` (docs/views.md, "Column profiles"): what a column holds among the rows
 * a search selects, computed over all of them (not a sample). Values are encoded as in
 * datastore_search records (numbers as JSON numbers, dates as ISO text).
 */
export type ProfileValue = string | number | boolean | null;

export interface ProfileTopValue {
  readonly value: ProfileValue;
  readonly count: number;
}

/** One bar of a histogram: values in [from, to), the last bar also holds `to`. */
export interface ProfileBucket {
  readonly from: number | string;
  readonly to: number | string;
  readonly count: number;
}

export interface ColumnProfile {
  readonly id: string;
  readonly type: string;
  /** Cells with a value. */
  readonly count: number;
  /** Empty cells: NULL, or '' in a text column. */
  readonly nulls: number;
  /** Distinct values among `count`. */
  readonly distinct: number;
  /** Numbers and dates (and times for min/max/median); null otherwise. */
  readonly min: number | string | null;
  readonly max: number | string | null;
  readonly mean: number | string | null;
  readonly median: number | string | null;
  /** The most frequent values, most frequent first. */
  readonly top: readonly ProfileTopValue[];
  /** Numbers: equal-width bins on round boundaries; dates: calendar hours, days, months or years. */
  readonly histogram: readonly ProfileBucket[];
  /** What a histogram bar spans for dates (`hour`, `day`, `month`, `year`, `10 years`…); null for numbers. */
  readonly histogram_unit: string | null;
  /** Text: the shortest and longest value, in characters. */
  readonly min_length: number | null;
  readonly max_length: number | null;
}

export interface ProfileResult {
  readonly resource_id: string;
  /** Rows the search selects. */
  readonly rows: number;
  readonly fields: readonly ColumnProfile[];
}
