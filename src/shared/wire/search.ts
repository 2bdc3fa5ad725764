/**
 * datastore_search as the UI reads it (CKAN 2.11's wire shape, snake_case as on the wire).
 * The server builds its answer as this type; `records` is generic because the server sends
 * them pre-serialised (or as csv/tsv text) while the UI reads objects.
 */
export interface DatastoreFieldInfo {
  readonly label?: string;
  readonly notes?: string;
  readonly [key: string]: unknown;
}

export interface DatastoreField {
  readonly id: string;
  readonly type: string;
  readonly info?: DatastoreFieldInfo;
}

/** A cell as JSON carries it (a `json` column holds lists and objects). */
export type CellValue = string | number | boolean | null | readonly CellValue[] | { readonly [key: string]: CellValue };

export type DatastoreRecord = Readonly<Record<string, unknown>>;

export type RecordsFormat = 'objects' | 'lists' | 'csv' | 'tsv';

/** The default and maximum `limit` (ckan.datastore.search.rows_default / rows_max). */
export const ROWS_DEFAULT = 100;
export const ROWS_MAX = 32000;

export interface SearchLinks {
  readonly start: string;
  readonly next: string;
  readonly prev?: string;
}

export interface DatastoreSearchResult<Records = readonly DatastoreRecord[]> {
  readonly include_total: boolean;
  readonly resource_id: string;
  readonly fields: readonly DatastoreField[];
  readonly records_format: RecordsFormat;
  readonly records: Records;
  readonly limit: number;
  readonly offset?: number;
  readonly _links: SearchLinks;
  readonly total?: number;
  readonly total_was_estimated?: boolean;
  readonly total_estimation_threshold: unknown;
  readonly q?: unknown;
  readonly filters?: unknown;
  readonly full_text?: string;
  readonly sort?: unknown;
  readonly distinct?: boolean;
  readonly plain?: boolean;
  readonly language?: string;
  readonly include_next_page?: boolean;
  readonly next_page?: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

/** A result column of datastore_search_sql: PostgreSQL's name and type (`count`, `int8`). */
export interface SqlResultField {
  readonly id: string;
  readonly type: string;
}

/**
 * datastore_search_sql (docs/sql-and-values.md). `records` is generic for the same reason as
 * datastore_search's: the server sends them pre-serialised, so numbers keep their written form.
 */
export interface DatastoreSearchSqlResult<Records = readonly DatastoreRecord[]> {
  readonly sql: string;
  readonly records: Records;
  readonly fields: readonly SqlResultField[];
  /** Present (true) only when more than the 32,000-row cap matched. */
  readonly records_truncated?: true;
}
