/**
 * The action API's one contract: every action Deskstore answers, by name, with the parameters
 * a client sends and the result it gets back. The server's registry is a mapped type over
 * `Actions` (src/main/actions/types.ts), so an action missing from it, or one it answers under
 * another name, does not compile; the UI's client is `call<K extends ActionName>(name, params)`
 * (src/renderer/src/api/client.ts), so a parameter the action does not take, or a value of the
 * wrong type, does not compile either; the integration and e2e tests call through the same
 * types (test/helpers/ckan-client.ts, test/e2e/api-helpers.ts). `test/types/` proves both
 * refusals with `@ts-expect-error`.
 *
 * Parameters are written as a JSON body carries them (numbers as numbers, lists as lists).
 * The server still reads each one as the untrusted value it is (a query string gives text)
 * through its parameter schemas; this contract says which names exist and what a well-formed
 * client sends, not what the server may assume.
 *
 * Results are generic over `Records`, the rows of datastore_search and datastore_search_sql:
 * clients read objects; the server sends them already serialised (src/main/util/raw-json.ts).
 */
import type { CkanGroup, CkanTag } from './ckan-catalogue';
import type { CkanLicense } from './ckan-licenses';
import type { PackageDict, PackageSearchResult, ResourceDict } from './catalogue';
import type { FacetsResult } from './facets';
import type { DateBucket, GroupByMetric, GroupByResult } from './group-by';
import type { CreatedResource, ImportJobStatus, ImportPreviewResult, ImportType, RepairChoices } from './import';
import type { BBox, MapPointsResult } from './map-points';
import type { ProfileResult } from './profile';
import type { DatastoreRecord, DatastoreSearchResult, DatastoreSearchSqlResult, RecordsFormat } from './search';
import type { StatusShow } from './status';
import type { PortalCallAnswer, PortalJobStatus, RememberedPortal } from '../portal';
import type { ChangeKind, ChangeRecord, ChangesResult, VersionsResult } from './versions';

// ---- shared parameter shapes --------------------------------------------------------------

/** A list parameter (`fields`, `sort`, `primary_key`…): a list, or one string split on commas. */
export type NameList = string | readonly string[];

/** `filters`: column → value or list of values (Deskstore adds operators, docs/search.md); JSON text from a form. */
export type SearchFilters = Readonly<Record<string, unknown>> | string;

/** The resource an action is about: `resource_id`, or `id` as CKAN also accepts. */
export type ResourceRef = { readonly resource_id: string; readonly id?: string } | { readonly id: string; readonly resource_id?: string };

/** A file part of a multipart body (the UI sends a browser `File`); never JSON. */
export type UploadPart = object;

/**
 * The rows `filters` and `q` select: what datastore_search and Deskstore's summary actions
 * (facets, profile, group-by, map points) share.
 */
export interface RowSelectionParams {
  readonly resource_id: string;
  readonly filters?: SearchFilters;
  /** Full text over the whole row, or an object of column → text. */
  readonly q?: string | Readonly<Record<string, string>>;
  /** The search box's search as you type (docs/search.md). */
  readonly deskstore_q?: string;
  readonly plain?: boolean;
  readonly language?: string;
}

export type DatastoreSearchParams = ResourceRef &
  Omit<RowSelectionParams, 'resource_id'> & {
    readonly full_text?: string;
    readonly distinct?: boolean;
    readonly limit?: number;
    readonly offset?: number;
    readonly fields?: NameList;
    readonly sort?: NameList;
    readonly include_total?: boolean;
    readonly total_estimation_threshold?: number | null;
    readonly records_format?: RecordsFormat;
    readonly include_next_page?: boolean;
  };

/** One column of datastore_create's `fields`. */
export interface DatastoreFieldSpec {
  readonly id: string;
  readonly type?: string;
  readonly info?: Readonly<Record<string, unknown>>;
}

export type DatastoreCreateParams = {
  readonly resource_id?: string;
  readonly id?: string;
  /** Creates the resource too (CKAN's `resource` dict, with `package_id`). */
  readonly resource?: Readonly<Record<string, unknown>>;
  readonly fields?: readonly DatastoreFieldSpec[];
  readonly records?: readonly DatastoreRecord[];
  readonly primary_key?: NameList;
  readonly indexes?: NameList | readonly (string | readonly string[])[];
  readonly aliases?: NameList;
  readonly triggers?: readonly unknown[];
  readonly force?: boolean;
  readonly delete_fields?: boolean;
  readonly calculate_record_count?: boolean;
};

export type UpsertMethod = 'upsert' | 'insert' | 'update';

export type DatastoreUpsertParams = ResourceRef & {
  readonly records?: readonly DatastoreRecord[];
  readonly method?: UpsertMethod;
  readonly force?: boolean;
  readonly dry_run?: boolean;
  readonly calculate_record_count?: boolean;
};

export type DatastoreDeleteParams = ResourceRef & {
  readonly filters?: Readonly<Record<string, unknown>>;
  readonly force?: boolean;
  readonly calculate_record_count?: boolean;
};

/**
 * Deskstore's own parameters of resource_create/update/patch and deskstore_import_preview
 * that steer the load of a file (docs/importing.md); never stored as resource fields.
 */
export interface LoadParams {
  readonly upload?: UploadPart;
  /** The staged upload deskstore_import_preview answered with. */
  readonly deskstore_upload_id?: string;
  /** A file picked in the desktop app's dialog, by its one-time handle. */
  readonly deskstore_local_file?: string;
  /** A path inside a folder allowed with `--import-folder` (preview only). */
  readonly deskstore_local_path?: string;
  readonly deskstore_encoding?: string;
  /** `,` `;` `|` `tab`… (src/shared/delimiters.ts). */
  readonly deskstore_delimiter?: string;
  readonly deskstore_skip_lines?: number;
  /** Column → type, or its JSON text. */
  readonly deskstore_types?: Readonly<Record<string, ImportType>> | string;
  readonly deskstore_language?: string;
  readonly deskstore_keep_spaces?: boolean;
  /** Load a URL that does not look tabular. */
  readonly deskstore_load?: boolean;
  /** Repair kind → action, or its JSON text. */
  readonly deskstore_repairs?: RepairChoices | string;
  readonly deskstore_sheet?: string;
  readonly deskstore_entry?: string;
}

/** A dataset's fields as package_create/update/patch take them; CKAN keeps other keys as extras. */
export interface PackageFields {
  readonly id?: string;
  readonly name?: string;
  readonly title?: string;
  readonly notes?: string | null;
  readonly owner_org?: string | null;
  readonly license_id?: string | null;
  readonly tags?: readonly (string | { readonly name: string })[];
  readonly tag_string?: string;
  readonly groups?: readonly (string | { readonly id?: string; readonly name?: string })[];
  readonly extras?: readonly { readonly key: string; readonly value: unknown }[];
  readonly resources?: readonly Readonly<Record<string, unknown>>[];
  readonly [field: string]: unknown;
}

/** A resource's fields as resource_create/update/patch take them; other keys are kept as the resource's extras. */
export interface ResourceFields extends LoadParams {
  readonly id?: string;
  readonly package_id?: string;
  readonly name?: string | null;
  readonly description?: string | null;
  readonly url?: string | null;
  readonly url_type?: string | null;
  readonly format?: string | null;
  readonly [field: string]: unknown;
}

export interface GroupListParams {
  readonly all_fields?: boolean;
  readonly sort?: string;
  readonly order_by?: string;
  readonly limit?: number;
  readonly offset?: number;
  /** group_list's filter by name; organization_list ignores it. */
  readonly groups?: NameList;
  /** organization_list's filter by name (get.py moves it to `groups`). */
  readonly organizations?: NameList;
  readonly q?: string;
}

/** package_search: CKAN's Solr parameters (anything else is refused, as by CKAN). */
export interface PackageSearchParams {
  readonly q?: string;
  readonly fq?: string;
  readonly fq_list?: readonly string[];
  readonly fl?: NameList;
  readonly rows?: number;
  readonly start?: number;
  readonly sort?: string;
  readonly facet?: boolean;
  readonly 'facet.field'?: readonly string[] | string;
  readonly 'facet.limit'?: number;
  readonly 'facet.mincount'?: number;
  readonly defType?: string;
  readonly include_private?: boolean;
  readonly include_drafts?: boolean;
  readonly include_deleted?: boolean;
  readonly [solrOrExt: string]: unknown;
}

// ---- results that have no other home ------------------------------------------------------

/** datastore_info (2.11): the table's size and each field's database facts. */
export interface DatastoreInfoResult {
  readonly meta: {
    readonly id: string;
    readonly count: number;
    readonly table_type: string;
    readonly size: number;
    readonly db_size: number;
    readonly idx_size: number;
    readonly aliases: readonly string[];
  };
  readonly fields: readonly {
    readonly id: string;
    readonly type: string;
    readonly info?: Readonly<Record<string, unknown>>;
    readonly schema: {
      readonly native_type: string;
      readonly notnull: boolean;
      readonly index_name: string | null;
      readonly is_index: boolean;
      readonly uniquekey: boolean;
    };
  }[];
}

/** datastore_create (2.11): the validated request without `records` (docs/ckan-contract.md §6.4). */
export interface DatastoreCreateResult {
  readonly resource_id: string;
  readonly method: 'insert';
  readonly fields?: readonly DatastoreFieldSpec[];
  readonly [echoed: string]: unknown;
}

/** deskstore_rename_fields: the table's fields under their new names, what changed, the version published (null: no name changed). */
export interface RenameFieldsResult {
  readonly resource_id: string;
  readonly fields: readonly DatastoreFieldSpec[];
  readonly renamed: readonly { readonly from: string; readonly to: string }[];
  readonly version: number | null;
}

/** datastore_upsert: the validated request, `records` as sent. */
export interface DatastoreUpsertResult {
  readonly resource_id: string;
  readonly [echoed: string]: unknown;
}

export interface DatastoreDeleteResult {
  readonly calculate_record_count?: boolean;
  readonly resource_id: string;
  readonly filters?: unknown;
}

/** deskstore_checkpoint: the journal folded into a new version of the resource's files. */
export interface CheckpointResult {
  readonly resource_id: string;
  readonly seconds: number;
  readonly bytes: number;
  readonly rows: number;
}

/** tag_list with `all_fields`: the tag dicts without state. */
export type TagListEntry = Pick<CkanTag, 'id' | 'name' | 'display_name' | 'vocabulary_id'>;

// ---- the contract -------------------------------------------------------------------------

interface Action<Params, Result> {
  readonly params: Params;
  readonly result: Result;
}

type NoParams = Readonly<Record<string, never>>;
type ByIdOrName = { readonly id: string } | { readonly name: string };

export interface Actions<Records = readonly DatastoreRecord[]> {
  // DataStore (docs/ckan-contract.md §3–§8)
  datastore_search: Action<DatastoreSearchParams, DatastoreSearchResult<Records>>;
  datastore_search_sql: Action<{ readonly sql: string }, DatastoreSearchSqlResult<Records>>;
  datastore_info: Action<ResourceRef, DatastoreInfoResult>;
  datastore_create: Action<DatastoreCreateParams, DatastoreCreateResult>;
  datastore_upsert: Action<DatastoreUpsertParams, DatastoreUpsertResult>;
  datastore_delete: Action<DatastoreDeleteParams, DatastoreDeleteResult>;
  datastore_records_delete: Action<DatastoreDeleteParams & { readonly filters: Readonly<Record<string, unknown>> }, DatastoreDeleteResult>;

  // Catalogue (§10)
  package_create: Action<PackageFields & { readonly name: string }, PackageDict>;
  package_update: Action<PackageFields & ByIdOrName, PackageDict>;
  package_patch: Action<PackageFields & ByIdOrName, PackageDict>;
  package_delete: Action<ByIdOrName, null>;
  package_show: Action<{ readonly id: string } | { readonly name_or_id: string }, PackageDict>;
  package_list: Action<{ readonly limit?: number; readonly offset?: number }, readonly string[]>;
  package_search: Action<PackageSearchParams, PackageSearchResult>;
  resource_create: Action<ResourceFields & { readonly package_id: string }, CreatedResource>;
  resource_update: Action<ResourceFields & { readonly id: string }, CreatedResource>;
  resource_patch: Action<ResourceFields & { readonly id: string }, CreatedResource>;
  resource_delete: Action<{ readonly id: string }, null>;
  resource_show: Action<{ readonly id: string }, ResourceDict>;
  organization_list: Action<GroupListParams, readonly string[] | readonly CkanGroup[]>;
  organization_show: Action<{ readonly id: string }, CkanGroup>;
  organization_create: Action<{ readonly name: string; readonly [field: string]: unknown }, CkanGroup>;
  group_list: Action<GroupListParams, readonly string[] | readonly CkanGroup[]>;
  group_show: Action<{ readonly id: string }, CkanGroup>;
  group_create: Action<{ readonly name: string; readonly [field: string]: unknown }, CkanGroup>;
  tag_list: Action<{ readonly query?: string; readonly all_fields?: boolean }, readonly string[] | readonly TagListEntry[]>;
  license_list: Action<NoParams, readonly CkanLicense[]>;
  status_show: Action<NoParams, StatusShow>;

  // Loads (docs/importing.md): Deskstore's names and the ones CKAN scripts poll
  deskstore_import_preview: Action<LoadParams, ImportPreviewResult>;
  deskstore_import_status: Action<ResourceRef, ImportJobStatus>;
  xloader_status: Action<ResourceRef, ImportJobStatus>;
  datapusher_status: Action<ResourceRef, ImportJobStatus>;
  deskstore_import_cancel: Action<ResourceRef, { readonly resource_id: string; readonly cancelled: boolean }>;
  deskstore_checkpoint: Action<ResourceRef, CheckpointResult>;

  // Views over the rows a search selects (docs/views.md)
  deskstore_facets: Action<
    RowSelectionParams & { readonly field: string; readonly contains?: string; readonly limit?: number },
    FacetsResult
  >;
  deskstore_profile: Action<
    RowSelectionParams & { readonly fields?: NameList; readonly top?: number; readonly bins?: number },
    ProfileResult
  >;
  deskstore_group_by: Action<
    RowSelectionParams & {
      readonly group_by: NameList;
      readonly metric?: GroupByMetric;
      readonly value_field?: string;
      readonly bucket?: DateBucket;
      readonly order?: 'key' | 'value';
      readonly limit?: number;
    },
    GroupByResult
  >;
  deskstore_map_points: Action<
    RowSelectionParams & {
      readonly lat_field?: string;
      readonly lon_field?: string;
      readonly geometry_field?: string;
      readonly color_field?: string;
      /** `[west, south, east, north]`, or the same as `w,s,e,n` text. */
      readonly bbox?: BBox | string;
      readonly max_points?: number;
      readonly grid?: number;
    },
    MapPointsResult
  >;

  // Portals (docs/portal.md §API)
  deskstore_mirror: Action<
    {
      readonly url: string;
      readonly dataset?: string;
      readonly resources?: NameList;
      readonly token?: string;
      readonly full?: boolean;
    },
    PortalJobStatus
  >;
  deskstore_sync: Action<{ readonly datasets?: NameList; readonly full?: boolean }, PortalJobStatus>;
  deskstore_push: Action<
    {
      readonly resource_id: string;
      readonly to: string;
      readonly token?: string;
      readonly dataset?: string;
      readonly owner_org?: string;
      readonly resource_name?: string;
    },
    PortalJobStatus
  >;
  /** One job by `job_id`; every job without it. */
  deskstore_portal_job_status: Action<{ readonly job_id?: string }, PortalJobStatus | readonly PortalJobStatus[]>;
  deskstore_portal_job_cancel: Action<{ readonly job_id: string }, { readonly job_id: string; readonly cancelled: boolean }>;
  deskstore_detach: Action<{ readonly id: string }, { readonly detached: readonly string[] }>;
  deskstore_portals: Action<NoParams, readonly RememberedPortal[]>;
  deskstore_portal_call: Action<
    { readonly url: string; readonly action: string; readonly params?: Readonly<Record<string, unknown>> },
    PortalCallAnswer
  >;

  // Versions of a resource's data and the rows that differ between two (docs/versions.md)
  deskstore_versions: Action<ResourceRef, VersionsResult>;
  deskstore_changes: Action<
    ResourceRef & {
      readonly from?: number;
      readonly to?: number;
      readonly key?: NameList;
      readonly change?: ChangeKind;
      readonly limit?: number;
      readonly offset?: number;
    },
    ChangesResult<Records extends readonly DatastoreRecord[] ? readonly ChangeRecord[] : Records>
  >;
  /** Renames columns (`fields`: old name → new name) by publishing the same rows under the new names as a new version. */
  deskstore_rename_fields: Action<
    ResourceRef & { readonly fields: Readonly<Record<string, string>> | string },
    RenameFieldsResult
  >;
  /** A mirrored dataset synced every `every_hours` hours while Deskstore runs; 0 or null stops it. */
  deskstore_sync_schedule: Action<
    { readonly id: string; readonly every_hours?: number | null },
    { readonly id: string; readonly every_hours: number | null }
  >;

  // The token
  deskstore_token_check: Action<NoParams, { readonly authorized: boolean }>;
}

export type ActionName = keyof Actions;
export type ActionParams<K extends ActionName> = Actions[K]['params'];
export type ActionResult<K extends ActionName, Records = readonly DatastoreRecord[]> = Actions<Records>[K]['result'];

/**
 * CKAN's `side_effect_free`: the action may be called with GET (the UI calls these with GET,
 * anonymously, on URLs the API panel shows). Everything else is POST only and needs the token.
 * Written here, once, as data: the server's registry and the UI's client both read it, and
 * an action added to `Actions` without a line here does not compile.
 */
export const SIDE_EFFECT_FREE: { readonly [K in ActionName]: boolean } = {
  datastore_search: true,
  datastore_search_sql: true,
  datastore_info: true,
  datastore_create: false,
  datastore_upsert: false,
  datastore_delete: false,
  datastore_records_delete: false,
  package_create: false,
  package_update: false,
  package_patch: false,
  package_delete: false,
  package_show: true,
  package_list: true,
  package_search: true,
  resource_create: false,
  resource_update: false,
  resource_patch: false,
  resource_delete: false,
  resource_show: true,
  organization_list: true,
  organization_show: true,
  organization_create: false,
  group_list: true,
  group_show: true,
  group_create: false,
  tag_list: true,
  license_list: true,
  status_show: true,
  deskstore_import_preview: false,
  deskstore_import_status: true,
  xloader_status: true,
  datapusher_status: true,
  deskstore_import_cancel: false,
  deskstore_checkpoint: false,
  deskstore_facets: true,
  deskstore_profile: true,
  deskstore_group_by: true,
  deskstore_map_points: true,
  deskstore_mirror: false,
  deskstore_sync: false,
  deskstore_push: false,
  deskstore_portal_job_status: true,
  deskstore_portal_job_cancel: false,
  deskstore_detach: false,
  deskstore_portals: false,
  deskstore_portal_call: false,
  deskstore_versions: true,
  deskstore_changes: true,
  deskstore_rename_fields: false,
  deskstore_sync_schedule: false,
  deskstore_token_check: true,
};

export const ACTION_NAMES = Object.keys(SIDE_EFFECT_FREE) as readonly ActionName[];

export function isActionName(name: string): name is ActionName {
  return Object.hasOwn(SIDE_EFFECT_FREE, name);
}
