/**
 * The wire types of Deskstore's portal features (docs/portal.md): where a mirrored dataset or
 * resource came from, what a mirror, sync or push did, and their background jobs. The server's
 * actions and the CLI return values that satisfy these; the renderer imports them.
 */
import type { ChangeCounts } from './wire/versions';
import type { Message } from './messages';

/** Provenance of a mirrored dataset: `deskstore_mirror` in package_show. */
export interface PackageMirror {
  /** The portal's API base (`https://host/opendata`), the one that answered status_show. */
  readonly portal: string;
  /** The dataset's page on the portal. */
  readonly page: string;
  readonly fetchedAt: string;
  /** The portal's `metadata_modified` when it was fetched. */
  readonly metadataModified: string | null;
  /** The portal's organization, as it reported it (id, name, title). */
  readonly organization: { readonly id: string; readonly name: string; readonly title: string } | null;
}

/** Provenance of a mirrored resource: `deskstore_mirror` in resource_show. */
export interface ResourceMirror {
  readonly portal: string;
  /** The resource's page on the portal. */
  readonly page: string;
  readonly fetchedAt: string;
  /** The portal's resource `last_modified` and `metadata_modified`, size and hash when fetched. */
  readonly lastModified: string | null;
  readonly metadataModified: string | null;
  readonly size: number | null;
  readonly hash: string | null;
  /** How the rows came: the portal's DataStore, a downloaded file, or nothing (not tabular). */
  readonly via: 'datastore' | 'file' | 'metadata';
  /** ETag / Last-Modified of the download, for conditional requests on the next sync. */
  readonly etag: string | null;
  readonly httpLastModified: string | null;
  /** The portal's DataStore total (or the file's rows) when fetched; null when there are none. */
  readonly rows: number | null;
  /** The portal's highest `_id` when fetched (an insert changes it even when a delete keeps the total). */
  readonly maxId: number | null;
  /** A fingerprint of the portal's data dictionary (ids, types, info). */
  readonly fieldsHash: string | null;
  /** Why it has no rows here (`skipped`/`failed`), when it has none. */
  readonly reason: Message | null;
}

export type MirrorStatus = 'mirrored' | 'updated' | 'unchanged' | 'skipped' | 'failed';

/** What changed in a resource's rows between the previous local version and the new one. */
/** Rows added, removed and changed by a sync: what `deskstore_changes` counts (wire/versions.ts). */
export type RowChanges = ChangeCounts;

export interface MirroredResource {
  readonly resource_id: string;
  readonly name: string;
  readonly status: MirrorStatus;
  readonly rows: number;
  /** English, for scripts and logs; `message` words it for the UI. */
  readonly reason?: string;
  readonly message?: Message;
  readonly changes?: RowChanges;
}

/** The CLI's last stdout line and the job's result for one dataset. */
export interface MirrorOutcome {
  readonly package_id: string;
  readonly name: string;
  readonly source: string;
  readonly metadata_changed: boolean;
  readonly resources: MirroredResource[];
}

export interface SyncSummary {
  readonly datasets: number;
  readonly updated: number;
  readonly unchanged: number;
  readonly failed: number;
}

/** The link between a local resource and the portal resource it was pushed to (`deskstore_push` in resource_show). */
export interface PushLink {
  readonly portal: string;
  readonly package_id: string;
  readonly resource_id: string;
  /** The remote resource's page, for the UI's link. */
  readonly page: string;
  /** A hash of the local rows and fields that were pushed; equal next time means `unchanged`. */
  readonly fingerprint: string;
  /** False while a push is under way or was interrupted: the next push resumes. */
  readonly complete: boolean;
  readonly pushedAt: string;
  readonly rows: number;
}

export type PushStatus = 'created' | 'updated' | 'unchanged';

export interface PushOutcome {
  readonly portal: string;
  readonly package_id: string;
  readonly resource_id: string;
  readonly rows: number;
  readonly status: PushStatus;
  readonly url: string;
  /** Columns whose names are longer than a portal keeps (63 bytes), and their names there. */
  readonly renamed?: readonly { from: string; to: string }[];
}

export type PortalJobKind = 'mirror' | 'sync' | 'push';
export type PortalJobState = 'pending' | 'running' | 'complete' | 'error' | 'cancelled';

/** Progress of one resource inside a job. */
export interface PortalJobItem {
  readonly resource_id: string;
  readonly name: string;
  readonly phase: 'waiting' | 'downloading' | 'building' | 'uploading' | 'done';
  readonly rows_done: number;
  readonly rows_total: number | null;
  readonly bytes_done: number;
}

/** deskstore_portal_job_status (and the start actions' answer). */
export interface PortalJobStatus {
  readonly job_id: string;
  readonly kind: PortalJobKind;
  /** Started by a dataset's sync schedule, not by a request (docs/versions.md). */
  readonly scheduled?: boolean;
  readonly status: PortalJobState;
  readonly source: string;
  readonly created: string;
  readonly last_updated: string;
  readonly items: PortalJobItem[];
  readonly result: MirrorOutcome[] | PushOutcome | null;
  readonly error: Message | null;
}

/** A portal used before, remembered in the data directory (never its token). */
export interface RememberedPortal {
  readonly url: string;
  readonly title: string;
  readonly lastUsed: string;
  readonly hasToken: boolean;
}

/** deskstore_portal_call: the portal's answer, or why there is none (an unreachable portal is an answer, not an error). */
export type PortalCallAnswer<T = unknown> =
  { readonly ok: true; readonly portal: string; readonly result: T } | { readonly ok: false; readonly error: Message };
