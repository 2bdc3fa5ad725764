/**
 * The import's wire contract: what `deskstore_import_preview` answers, what the load status
 * actions (`deskstore_import_status`, `xloader_status`, `datapusher_status`) answer, and the
 * column types an import can give. The importer, the actions and the UI all use these.
 */
import type { RenamedColumn } from '../import-source';
import type { ResourceDict } from './catalogue';

export type { RenamedColumn };

/** The column types an import gives (and a user can force). */
export const IMPORT_TYPES = ['int4', 'int8', 'numeric', 'bool', 'date', 'timestamp', 'text'] as const;
export type ImportType = (typeof IMPORT_TYPES)[number];

export function isImportType(value: unknown): value is ImportType {
  return typeof value === 'string' && (IMPORT_TYPES as readonly string[]).includes(value);
}

/**
 * An import's phases in order: read the file, decide types, build the full-text index, write
 * the columns file (searchable from here), then fill and write the SQLite table.
 */
export const IMPORT_PHASES = ['reading', 'typing', 'indexing', 'writing', 'storing'] as const;
export type ImportPhase = (typeof IMPORT_PHASES)[number];

/** A load job's phase: queued and downloading before the import's phases, done after. */
export type JobPhase = 'queued' | 'downloading' | ImportPhase | 'done';
export type JobState = 'pending' | 'running' | 'complete' | 'error' | 'cancelled';

/** A load's status, as the status actions answer it. */
export interface ImportJobStatus {
  /** null for a resource loaded before this server started. */
  readonly job_id: string | null;
  readonly resource_id: string;
  readonly status: JobState;
  readonly phase: JobPhase;
  readonly rows_done: number;
  readonly bytes_done: number;
  readonly bytes_total: number;
  readonly created?: string;
  readonly last_updated: string | null;
  /** The file name or URL loaded. */
  readonly source?: string;
  readonly error: { readonly message: string } | null;
  /** xloader's member, for scripts that read it. */
  readonly task_info?: Readonly<Record<string, unknown>>;
}

export interface PreviewColumn {
  /** The field id the table will get. */
  readonly id: string;
  /** The header cell as read. */
  readonly label: string;
  readonly type: ImportType;
  readonly reason: string;
  /** The type was chosen by the user. */
  readonly forced: boolean;
  /** A value of the sample that the forced type cannot read. */
  readonly problem?: string;
}

/** What an import would do, from the start of the file (`deskstore_import_preview`). */
export interface ImportPreview {
  readonly encoding: string;
  readonly delimiter: string;
  readonly skipLines: number;
  readonly confidence: number;
  readonly reasons: readonly string[];
  readonly columns: readonly PreviewColumn[];
  readonly renamed: readonly RenamedColumn[];
  readonly rows: readonly (readonly (string | null)[])[];
  readonly bytes: number;
  readonly sampledWholeFile: boolean;
}

/** The preview action's answer: the preview and the staged upload to load it from later. */
export interface ImportPreviewResult extends ImportPreview {
  /** Names the staged upload for resource_create's `deskstore_upload_id`; null for a local file. */
  readonly upload_id: string | null;
}

/** resource_create / resource_update with a file to load: the resource and its load's status. */
export interface CreatedResource extends ResourceDict {
  readonly deskstore_job?: ImportJobStatus;
}
