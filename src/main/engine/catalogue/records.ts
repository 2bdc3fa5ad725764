/**
 * What the catalogue persists about datasets (CKAN "packages") and resources. The CKAN
 * dicts that actions return are built from these in ckan-dicts.ts.
 */
import type { ImportSource } from '../../../shared/import-source';
import type { PackageMirror, PushLink, ResourceMirror } from '../../../shared/portal';
import type { VersionSource } from '../../../shared/wire/versions';

export type { ImportSource };

export interface StoredField {
  readonly id: string;
  /** Reported type name (`int4`, `_text`, ...). */
  readonly type: string;
  readonly info?: Record<string, unknown>;
}

/** A resource's DataStore table, when it has one. */
export interface DatastoreRecord {
  /** Files of the current version are `<generation>.sqlite` and `<generation>.columns`. */
  readonly generation: number;
  readonly fields: readonly StoredField[];
  readonly primaryKey: readonly string[];
  readonly indexes: readonly (readonly string[])[];
  /** Newest first, as datastore_info reports them. */
  readonly aliases: readonly string[];
  readonly ftsLanguage: string;
  readonly rowCount: number;
  readonly sizeBytes: number;
  readonly updated: string;
  /**
   * Which version of the data the current generation holds (docs/versions.md); absent in
   * catalogues written before versions were kept: version 1.
   */
  readonly version?: VersionStamp;
  /** Earlier versions whose files are kept, newest first (`--keep-versions`). */
  readonly olderVersions?: readonly KeptVersion[];
}

/** What published a version, and when. */
export interface VersionStamp {
  readonly number: number;
  readonly created: string;
  readonly source: VersionSource;
  /** Its `_id`s are a portal DataStore's, which name the same rows from one version to the next. */
  readonly portalIds?: boolean;
}

/** An earlier version: its generation's files stay until it is dropped. */
export interface KeptVersion extends VersionStamp {
  readonly generation: number;
  readonly rows: number;
}

export interface ResourceRecord {
  readonly id: string;
  /** Where it was mirrored from (read-only while set); absent for local resources. docs/portal.md */
  mirror?: ResourceMirror;
  /** The portal resource it was last pushed to. */
  pushed?: PushLink;
  readonly packageId: string;
  name: string;
  description: string;
  url: string;
  urlType: string | null;
  format: string;
  readonly created: string;
  lastModified: string | null;
  datastore: DatastoreRecord | null;
  source: ImportSource | null;
  /** Any other fields a client set (CKAN keeps unknown resource keys). */
  extras: Record<string, unknown>;
}

export interface PackageRecord {
  readonly id: string;
  /** Where it was mirrored from; absent for local datasets. docs/portal.md */
  mirror?: PackageMirror;
  /** A mirror synced on its own every so often while Deskstore runs (docs/versions.md); dropped on detach. */
  syncSchedule?: { readonly everyHours: number };
  name: string;
  title: string;
  notes: string;
  readonly created: string;
  modified: string;
  /** The owning organization's id (CKAN's `owner_org`); absent in catalogues written before. */
  ownerOrg?: string | null;
  /** Ids of the groups the dataset is in. */
  groups?: string[];
  /** Free tag names (no vocabularies), in the order given. */
  tags?: string[];
  /** A licence id, from license_list or any id a portal uses. */
  licenseId?: string | null;
  /** Other dataset fields a client set (author, maintainer, url, version, extras, …). */
  extras: Record<string, unknown>;
}

/**
 * A CKAN organization or group (one model in CKAN, told apart by `is_organization`). Made by
 * organization_create / group_create, or by a portal mirror keeping the portal's ids.
 */
export interface GroupRecord {
  readonly id: string;
  readonly isOrganization: boolean;
  name: string;
  title: string;
  description: string;
  imageUrl: string;
  readonly created: string;
  /** Other fields a client or a portal set. */
  extras: Record<string, unknown>;
}

export interface CatalogueFile {
  readonly version: 1;
  readonly packages: PackageRecord[];
  readonly resources: ResourceRecord[];
  /** Organizations and groups; absent in catalogues written before they existed. */
  readonly groups?: GroupRecord[];
  /** The latest writes this file saved (catalogue.ts, `SavedWrite`); absent in older catalogues. */
  readonly writes?: SavedWrite[];
}

/**
 * A write request saved by a catalogue commit, written in the same file as its change: after
 * a crash, the restarted engine reads from it whether the request that was running was saved
 * (engine-client.ts), and what to answer.
 */
export interface SavedWrite {
  /** The request's write id (the engine client's). */
  readonly w: string;
  /** What the answer needs beyond the request: a created record's id, an outcome. */
  readonly a?: unknown;
}
