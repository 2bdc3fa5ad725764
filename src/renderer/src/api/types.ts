/**
 * The CKAN / Deskstore wire shapes the UI reads, snake_case exactly as on the wire. Only the
 * members the UI uses are typed; the server may send more.
 */
import type { ImportSource, RenamedColumn } from '../../../shared/import-source';
import type { TextSearchLanguage } from '../../../shared/text-search-languages';
import type { Message } from '../../../shared/messages';

export type ImportType = 'int4' | 'int8' | 'numeric' | 'bool' | 'date' | 'timestamp' | 'text';

export type { RenamedColumn };

export type ResourceSource = ImportSource;

export interface DeskstoreResourceInfo {
  readonly rows?: number;
  readonly columns?: number;
  readonly bytes?: number;
  readonly aliases?: readonly string[];
  readonly updated?: string;
  /** The full-text language the table was indexed in. */
  readonly searchLanguage?: TextSearchLanguage;
  readonly source?: ResourceSource | null;
}

export interface Resource {
  readonly id: string;
  readonly package_id: string;
  readonly name: string | null;
  readonly url: string | null;
  readonly url_type: string | null;
  readonly format: string | null;
  readonly datastore_active: boolean;
  readonly created: string;
  readonly last_modified: string | null;
  readonly size: number | null;
  readonly deskstore?: DeskstoreResourceInfo;
}

export interface Package {
  readonly id: string;
  readonly name: string;
  readonly title: string | null;
  readonly notes: string | null;
  readonly num_resources: number;
  readonly metadata_created: string;
  readonly metadata_modified: string;
  readonly resources: readonly Resource[];
}

export interface PackageSearchResult {
  readonly count: number;
  readonly results: readonly Package[];
}

export interface DatastoreField {
  readonly id: string;
  readonly type: string;
  readonly info?: { readonly label?: string; readonly notes?: string };
}

export type DatastoreRecord = Readonly<Record<string, unknown>>;

export interface DatastoreSearchResult {
  readonly fields: readonly DatastoreField[];
  readonly records: readonly DatastoreRecord[];
  readonly total?: number;
  readonly limit: number;
  readonly offset?: number;
}

export interface FacetValue {
  readonly value: string | number | boolean | null;
  readonly count: number;
}

export interface FacetsResult {
  readonly field: string;
  readonly type: string;
  readonly values: readonly FacetValue[];
  readonly distinct: number;
  readonly rows: number;
}

/** Server wording for people: a coded Message, or (older servers, not yet converted) English text. */
export type ServerText = string | Message;

export interface PreviewColumn {
  readonly id: string;
  readonly label: string;
  readonly type: ImportType;
  readonly reason: ServerText;
  readonly forced: boolean;
  readonly problem?: ServerText;
}

export interface PreviewResult {
  readonly upload_id: string | null;
  readonly encoding: string;
  readonly delimiter: string;
  readonly skipLines: number;
  readonly confidence: number;
  readonly reasons: readonly ServerText[];
  readonly columns: readonly PreviewColumn[];
  readonly renamed: readonly RenamedColumn[];
  readonly rows: readonly (readonly (string | null)[])[];
  readonly bytes: number;
  readonly sampledWholeFile: boolean;
}

export type JobStatus = 'pending' | 'running' | 'complete' | 'error' | 'cancelled';
export type JobPhase = 'queued' | 'downloading' | 'reading' | 'typing' | 'indexing' | 'writing' | 'storing' | 'done';

export interface ImportStatus {
  readonly job_id: string | null;
  readonly resource_id: string;
  readonly status: JobStatus;
  readonly phase: JobPhase;
  readonly rows_done: number;
  readonly bytes_done: number;
  readonly bytes_total: number;
  readonly created?: string;
  readonly last_updated: string | null;
  readonly error: { readonly message: string } | null;
}

export interface CreatedResource extends Resource {
  readonly deskstore_job?: ImportStatus;
}

export interface StatusShow {
  readonly site_title: string;
  readonly ckan_version?: string;
  readonly deskstore_version?: string;
}
