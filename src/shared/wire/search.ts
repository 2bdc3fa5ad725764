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
