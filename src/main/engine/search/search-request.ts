/**
 * datastore_search parameters after the action's schema step (docs/ckan-contract.md §3.2 step 1): types
 * converted, defaults filled, limit capped. What is left to check needs the table's columns
 * and happens in the engine (step 4).
 */
import type { RecordsFormat } from '../../../shared/wire/search';

export type { RecordsFormat };

export interface SearchRequest {
  readonly resourceId: string;
  readonly filters?: unknown; // decoded JSON: an object, or (2.12) a list of objects
  readonly q?: string | Record<string, unknown>;
  readonly fullText?: string;
  /** Deskstore's search as you type (typeahead.ts), ANDed with `q`. */
  readonly deskstoreQ?: string;
  readonly plain: boolean;
  readonly language?: string;
  readonly distinct: boolean;
  readonly limit: number;
  readonly offset: number;
  readonly fields?: readonly string[];
  readonly sort?: readonly string[];
  readonly includeTotal: boolean;
  readonly recordsFormat: RecordsFormat;
  readonly includeNextPage: boolean;
  /** Unknown top-level parameter names, in request order (CKAN's `__extras`). */
  readonly extras: readonly string[];
  /**
   * Not a CKAN parameter: JSON records whose cells are what a CKAN write must be sent to store
   * the same value (push, docs/portal.md "Values"): numeric and int8 as strings of their exact
   * text, timestamps with their fraction of a second.
   */
  readonly writeValues?: boolean;
}

export interface OutputField {
  readonly id: string;
  readonly type: string;
  readonly info?: Record<string, unknown>;
}

export interface SearchOutcome {
  /** The real resource id (an alias resolved). */
  readonly resourceId: string;
  readonly fields: OutputField[];
  /** JSON text of the records list (objects/lists), or the csv/tsv text itself. */
  readonly records: string;
  readonly recordsAreText: boolean;
  /** How many records `records` holds (csv text cannot be counted by its newlines). */
  readonly recordCount: number;
  readonly total?: number;
  readonly nextPage?: Record<string, Record<string, number>>;
}

export { ROWS_DEFAULT, ROWS_MAX } from '../../../shared/wire/search';
