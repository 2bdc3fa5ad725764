import type { CellValue } from './search';

/** `deskstore_facets`: a column's distinct values with counts among the matching rows. */
export interface FacetValue {
  /** Encoded as in datastore_search records. */
  readonly value: CellValue;
  readonly count: number;
}

export interface FacetsResult {
  readonly field: string;
  readonly type: string;
  /** Most frequent first. */
  readonly values: readonly FacetValue[];
  /** Distinct values among the matching rows (before `contains` and `limit`). */
  readonly distinct: number;
  readonly rows: number;
}
