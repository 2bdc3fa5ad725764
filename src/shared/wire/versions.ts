/**
 * `deskstore_versions` and `deskstore_changes` (docs/versions.md): the versions of a
 * resource's data kept on disk, and the rows that differ between two of them.
 */

/**
 * What published a version: a first mirror, a sync that brought new data, Replace data (a
 * file loaded into an existing resource through the API or the window), `deskstore import
 * FILE --resource-id` (or any first import), a table made by `datastore_create`, or columns
 * renamed (`deskstore_rename_fields`: the same rows under new names).
 */
export const VERSION_SOURCES = ['mirror', 'sync', 'replace', 'import', 'create', 'rename'] as const;
export type VersionSource = (typeof VERSION_SOURCES)[number];

export interface ResourceVersion {
  /** Increasing per resource: 1 for the first data, then one more per publication. */
  readonly version: number;
  /** When it was published (ISO 8601, UTC). */
  readonly created: string;
  readonly rows: number;
  readonly source: VersionSource;
  readonly current: boolean;
  /** Bytes its files take on disk. */
  readonly size_bytes: number;
}

export interface VersionsResult {
  readonly resource_id: string;
  /** Newest first; the current one first of all. */
  readonly versions: readonly ResourceVersion[];
  /** How many versions are kept in all, the current one included (`--keep-versions`). */
  readonly keep: number;
}

export const CHANGE_KINDS = ['added', 'removed', 'changed'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface ChangeCounts {
  readonly added: number;
  readonly removed: number;
  readonly changed: number;
}

/**
 * The columns rows were matched by, and why those: given by the caller (`key`), the
 * resource's primary key, a column unique and non-empty in both versions (`_id` counts for a
 * DataStore mirror, whose ids are the portal's), or none (`"row"`: whole rows).
 */
export type ChangeKeyReason = 'given' | 'primary_key' | 'unique_column';

/**
 * One record of the answer: `_change`, then the row's values (the new ones; the old ones for
 * a removed row) as datastore_search gives them, `_id` first (the id in the version the values
 * come from); `_before` holds the old value of each changed column, on changed rows only.
 */
export type ChangeRecord = { readonly _change: ChangeKind; readonly _before?: Record<string, unknown> } & Record<string, unknown>;

export interface ChangesResult<Records = readonly ChangeRecord[]> {
  readonly resource_id: string;
  readonly from: number;
  readonly to: number;
  readonly key: readonly string[] | 'row';
  readonly key_reason?: ChangeKeyReason;
  readonly counts: ChangeCounts;
  /** Rows matching `change` (all changed rows without it). */
  readonly total: number;
  /** The columns of the records, as datastore_search's `fields` (`_id` first). */
  readonly fields: readonly { readonly id: string; readonly type: string }[];
  readonly records: Records;
}
