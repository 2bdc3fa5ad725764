/**
 * package_show / resource_show / package_search dicts with the members CKAN clients and the
 * UI read. Deskstore's own facts about a table ride along under `deskstore`, a key CKAN
 * clients ignore. The server may send more members (a resource's extras).
 */
import type { ImportSource } from '../import-source';
import type { TextSearchLanguage } from '../text-search-languages';
import type { PackageMirror, PushLink, ResourceMirror } from '../portal';
import type { CkanPackageGroup, CkanPackageOrganization, CkanPackageSearchResult, CkanTag } from './ckan-catalogue';

export interface DeskstoreResourceInfo {
  readonly rows?: number;
  readonly columns?: number;
  readonly bytes?: number;
  readonly aliases?: readonly string[];
  readonly updated?: string;
  /** The full-text language the table was indexed in (what `q` stems with unless `language` says otherwise). */
  readonly searchLanguage?: TextSearchLanguage;
  readonly source?: ImportSource | null;
  /** The current version of the data and how many versions are kept, it included (docs/versions.md). */
  readonly version?: number;
  readonly versions?: number;
}

export interface ResourceDict {
  readonly id: string;
  readonly package_id: string;
  readonly name: string | null;
  readonly description?: string | null;
  readonly url: string | null;
  readonly url_type: string | null;
  readonly format: string | null;
  readonly mimetype?: string | null;
  readonly size: number | null;
  readonly state?: string;
  readonly resource_type?: string | null;
  readonly hash?: string;
  readonly position?: number;
  readonly datastore_active: boolean;
  readonly created: string;
  readonly last_modified: string | null;
  readonly metadata_modified?: string;
  readonly deskstore?: DeskstoreResourceInfo;
  /** Where a mirrored resource came from (docs/portal.md). */
  readonly deskstore_mirror?: ResourceMirror;
  /** The portal resource it was last pushed to. */
  readonly deskstore_push?: PushLink;
}

export interface PackageDict {
  readonly id: string;
  readonly name: string;
  readonly title: string | null;
  readonly notes: string | null;
  readonly type?: string;
  readonly state?: string;
  readonly private?: boolean;
  readonly author?: string | null;
  readonly author_email?: string | null;
  readonly maintainer?: string | null;
  readonly maintainer_email?: string | null;
  readonly license_id?: string | null;
  readonly license_title?: string | null;
  readonly license_url?: string;
  readonly isopen?: boolean;
  readonly url?: string | null;
  readonly version?: string | null;
  readonly owner_org?: string | null;
  readonly organization?: CkanPackageOrganization | null;
  readonly groups?: readonly CkanPackageGroup[];
  readonly tags?: readonly CkanTag[];
  /** CKAN's free key/value extras, as a list of `{key, value}`. */
  readonly extras?: readonly unknown[];
  readonly num_tags?: number;
  readonly num_resources: number;
  readonly metadata_created: string;
  readonly metadata_modified: string;
  readonly resources: readonly ResourceDict[];
  /** Where a mirrored dataset came from (docs/portal.md). */
  readonly deskstore_mirror?: PackageMirror;
  /** A mirror synced on a schedule while Deskstore runs (docs/versions.md). */
  readonly deskstore_sync_schedule?: SyncSchedule;
}

/** How often a mirrored dataset is synced on its own. */
export interface SyncSchedule {
  readonly every_hours: number;
}

/** package_search's answer (facets included) over dataset dicts. */
export type PackageSearchResult = CkanPackageSearchResult<PackageDict>;
