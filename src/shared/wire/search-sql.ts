/** datastore_search_sql's answer (contract §4): records as objects keyed by the result's column names. */
import type { DatastoreField, DatastoreRecord } from './search';

export interface SqlSearchResult {
  readonly sql: string;
  readonly fields: readonly DatastoreField[];
  readonly records: readonly DatastoreRecord[];
  /** Present (true) when more than 32,000 rows matched and the rest were left out. */
  readonly records_truncated?: boolean;
}
