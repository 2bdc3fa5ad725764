import { createHash } from 'node:crypto';
import type { PackageDict, ResourceDict } from '../../../shared/wire/catalogue';
import type { CkanTag } from '../../../shared/wire/ckan-catalogue';
import { DEFAULT_LICENSES } from '../../../shared/wire/ckan-licenses';
import { currentStamp } from '../versions/version-history';
import { optional } from '../../../shared/optional';
import { isTextSearchLanguage } from '../../../shared/text-search-languages';
import { packageGroup, packageOrganization } from './groups';
import type { GroupRecord, PackageRecord, ResourceRecord } from './records';

/** Free tags have no record of their own here: a stable UUID-shaped id from the name. */
export function tagId(name: string): string {
  const h = createHash('sha1').update(`tag:${name}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Catalogue records as CKAN's package_show / resource_show dicts, with the members CKAN
 * clients read (docs/ckan-contract.md §10). Deskstore's own facts about a table (rows, columns, size,
 * source file) ride along under `deskstore`, a key CKAN clients ignore.
 */

export type CkanDict = Record<string, unknown>;

/**
 * A dict's keys in the order CKAN's API writes them (seen on CKAN 2.10.10): the plain keys sorted
 * by name, as navl's unflatten rebuilds a validated dict, then the lists of dicts in `trailing`.
 */
function inCkanOrder<T extends CkanDict>(dict: T, trailing: readonly string[] = []): T {
  const plain = Object.keys(dict)
    .filter((k) => !trailing.includes(k))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries([...plain, ...trailing.filter((k) => k in dict)].map((k) => [k, dict[k]])) as T;
}

/** What package_show writes after the sorted plain keys, in this order. */
const PACKAGE_TRAILING_KEYS = ['resources', 'tags', 'extras', 'groups', 'relationships_as_subject', 'relationships_as_object'];

/**
 * The one user of a data directory (the token holder), as the creator CKAN names in
 * `creator_user_id`: a stable UUID-shaped id, the same in every data directory.
 */
export const LOCAL_USER_ID = tagId('user:deskstore');

/**
 * Members of a portal's dicts that Deskstore otherwise fills with its own values: a mirror
 * shows the portal's (licence, organization, tags, size, hash, …), as a script expects.
 */
const PORTAL_PACKAGE_KEYS = [
  'type',
  'private',
  'author',
  'author_email',
  'maintainer',
  'maintainer_email',
  'license_id',
  'license_title',
  'url',
  'version',
  'owner_org',
  'organization',
  'groups',
  'tags',
  'num_tags',
];
const PORTAL_RESOURCE_KEYS = ['mimetype', 'size', 'hash', 'resource_type'];

function portalValues(mirrored: boolean, extras: Record<string, unknown>, keys: readonly string[]): CkanDict {
  return mirrored ? Object.fromEntries(keys.filter((k) => k in extras).map((k) => [k, extras[k]])) : {};
}

/**
 * The `url` clients read: the DataStore plugin points datastore-only resources at their dump;
 * an uploaded file's stored name becomes CKAN's download URL (resource_dictize), with the
 * dataset's id, so `requests.get(resource["url"])` fetches the original (docs/ckan-contract.md §10.1).
 */
function resourceUrl(r: ResourceRecord, siteUrl: string): string {
  if (r.urlType === 'datastore') return `${siteUrl}/datastore/dump/${r.id}`;
  if (r.urlType === 'upload' && r.url && !/^[a-z][a-z0-9+.-]*:/i.test(r.url)) {
    return `${siteUrl}/dataset/${r.packageId}/resource/${r.id}/download/${encodeURIComponent(r.url)}`;
  }
  return r.url;
}

export function resourceDict(r: ResourceRecord, siteUrl: string, position: number): ResourceDict & CkanDict {
  const ds = r.datastore;
  return inCkanOrder({
    cache_last_updated: null,
    cache_url: null,
    mimetype_inner: null,
    ...r.extras,
    id: r.id,
    package_id: r.packageId,
    name: r.name,
    description: r.description,
    url: resourceUrl(r, siteUrl),
    url_type: r.urlType,
    format: r.format,
    mimetype: typeof r.extras.mimetype === 'string' ? r.extras.mimetype : r.format.toUpperCase() === 'CSV' ? 'text/csv' : null,
    size: typeof r.extras.size === 'number' ? r.extras.size : (r.source?.bytes ?? null),
    state: 'active',
    resource_type: null,
    hash: '',
    position,
    created: r.created,
    last_modified: r.lastModified,
    metadata_modified: r.lastModified ?? r.created,
    datastore_active: ds !== null,
    deskstore: ds
      ? {
          rows: ds.rowCount,
          columns: ds.fields.length,
          bytes: ds.sizeBytes,
          aliases: ds.aliases,
          updated: ds.updated,
          // the full-text language the table was indexed in (`q` uses it unless `language` says otherwise)
          ...optional('searchLanguage', isTextSearchLanguage(ds.ftsLanguage) ? ds.ftsLanguage : undefined),
          source: r.source,
          version: currentStamp(r, ds).number,
          versions: 1 + (ds.olderVersions?.length ?? 0),
        }
      : { source: r.source },
    ...portalValues(r.mirror !== undefined, r.extras, PORTAL_RESOURCE_KEYS),
    ...(r.mirror ? { deskstore_mirror: r.mirror } : {}),
    ...(r.pushed ? { deskstore_push: r.pushed } : {}),
  });
}

/** Dataset fields CKAN always has, null until a client sets them (kept in `extras` here). */
const OPTIONAL_FIELDS = ['author', 'author_email', 'maintainer', 'maintainer_email', 'url', 'version'] as const;

/** The licence's title and URL from the register; an unknown id is its own title, as in CKAN. */
function licenseMembers(licenseId: string | null): Record<string, unknown> {
  if (licenseId === null) return { license_id: null, license_title: null };
  const license = DEFAULT_LICENSES.find((l) => l.id === licenseId);
  if (!license) return { license_id: licenseId, license_title: licenseId };
  return {
    license_id: licenseId,
    license_title: license.title,
    ...(license.url ? { license_url: license.url } : {}),
    isopen: license.od_conformance === 'approved' || license.osd_conformance === 'approved',
  };
}

export function packageDict(
  p: PackageRecord,
  resources: readonly ResourceRecord[],
  siteUrl: string,
  groupById: (id: string) => GroupRecord | undefined,
): PackageDict & CkanDict {
  const sorted = [...resources].sort((a, b) => a.created.localeCompare(b.created));
  const org = p.ownerOrg ? groupById(p.ownerOrg) : undefined;
  const groups = (p.groups ?? []).map(groupById).filter((g): g is GroupRecord => g !== undefined);
  const tags = p.tags ?? [];
  const optionalFields = Object.fromEntries(OPTIONAL_FIELDS.map((k) => [k, p.extras[k] ?? null]));
  const dict = {
    ...p.extras,
    ...optionalFields,
    extras: Array.isArray(p.extras.extras) ? p.extras.extras : [],
    id: p.id,
    name: p.name,
    title: p.title,
    notes: p.notes,
    type: 'dataset',
    state: 'active',
    private: false,
    isopen: false,
    ...licenseMembers(p.licenseId ?? null),
    owner_org: org ? org.id : null,
    organization: org ? packageOrganization(org) : null,
    groups: groups.map(packageGroup),
    tags: tags.map((name): CkanTag => ({ display_name: name, id: tagId(name), name, state: 'active', vocabulary_id: null })),
    num_tags: tags.length,
    metadata_created: p.created,
    metadata_modified: p.modified,
    num_resources: sorted.length,
    resources: sorted.map((r, i) => resourceDict(r, siteUrl, i)),
    ...portalValues(p.mirror !== undefined, p.extras, PORTAL_PACKAGE_KEYS),
    ...(p.mirror ? { deskstore_mirror: p.mirror } : {}),
    ...(p.mirror && p.syncSchedule ? { deskstore_sync_schedule: { every_hours: p.syncSchedule.everyHours } } : {}),
  } satisfies PackageDict;
  // Dataset relationships are not kept here: none, as on a portal that has none.
  return inCkanOrder(
    { creator_user_id: LOCAL_USER_ID, ...dict, relationships_as_subject: [], relationships_as_object: [] },
    PACKAGE_TRAILING_KEYS,
  );
}
