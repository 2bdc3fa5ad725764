import type { PackageDict, ResourceDict } from '../../../shared/wire/catalogue';
import type { PackageRecord, ResourceRecord } from './records';
import { optional } from '../../../shared/optional';
import { isTextSearchLanguage } from '../../../shared/text-search-languages';

/**
 * Catalogue records as CKAN's package_show / resource_show dicts, with the members CKAN
 * clients read (contract §10). Deskstore's own facts about a table (rows, columns, size,
 * source file) ride along under `deskstore`, a key CKAN clients ignore.
 */

export type CkanDict = Record<string, unknown>;

/**
 * Members of a portal's dicts that Deskstore otherwise fills with its own values: a mirror
 * shows the portal's (licence, organization, tags, size, hash, …), as a script expects.
 */
const PORTAL_PACKAGE_KEYS = [
  'type', 'private', 'author', 'author_email', 'maintainer', 'maintainer_email', 'license_id', 'license_title', 'url',
  'version', 'owner_org', 'organization', 'groups', 'tags', 'num_tags',
];
const PORTAL_RESOURCE_KEYS = ['mimetype', 'size', 'hash', 'resource_type'];

function portalValues(mirrored: boolean, extras: Record<string, unknown>, keys: readonly string[]): CkanDict {
  return mirrored ? Object.fromEntries(keys.filter((k) => k in extras).map((k) => [k, extras[k]])) : {};
}

export function resourceDict(r: ResourceRecord, siteUrl: string, position: number): ResourceDict & CkanDict {
  const ds = r.datastore;
  return {
    ...r.extras,
    id: r.id,
    package_id: r.packageId,
    name: r.name,
    description: r.description,
    // The DataStore plugin points datastore-only resources at their dump (contract §10).
    url: r.urlType === 'datastore' ? `${siteUrl}/datastore/dump/${r.id}` : r.url,
    url_type: r.urlType,
    format: r.format,
    mimetype: r.format.toUpperCase() === 'CSV' ? 'text/csv' : null,
    size: r.source?.bytes ?? null,
    state: 'active',
    resource_type: null,
    hash: '',
    position,
    created: r.created,
    last_modified: r.lastModified,
    metadata_modified: r.lastModified ?? r.created,
    datastore_active: ds !== null,
    deskstore: ds ? {
      rows: ds.rowCount,
      columns: ds.fields.length,
      bytes: ds.sizeBytes,
      aliases: ds.aliases,
      updated: ds.updated,
      // the full-text language the table was indexed in (`q` uses it unless `language` says otherwise)
      ...optional('searchLanguage', isTextSearchLanguage(ds.ftsLanguage) ? ds.ftsLanguage : undefined),
      source: r.source,
    } : { source: r.source },
    ...portalValues(r.mirror !== undefined, r.extras, PORTAL_RESOURCE_KEYS),
    ...(r.mirror ? { deskstore_mirror: r.mirror } : {}),
    ...(r.pushed ? { deskstore_push: r.pushed } : {}),
  };
}

export function packageDict(p: PackageRecord, resources: readonly ResourceRecord[], siteUrl: string): CkanDict {
  const sorted = [...resources].sort((a, b) => a.created.localeCompare(b.created));
  return {
    ...p.extras,
    id: p.id,
    name: p.name,
    title: p.title,
    notes: p.notes,
    type: 'dataset',
    state: 'active',
    private: false,
    author: null,
    author_email: null,
    maintainer: null,
    maintainer_email: null,
    license_id: null,
    license_title: null,
    url: null,
    version: null,
    owner_org: null,
    organization: null,
    groups: [],
    tags: [],
    num_tags: 0,
    metadata_created: p.created,
    metadata_modified: p.modified,
    num_resources: sorted.length,
    resources: sorted.map((r, i) => resourceDict(r, siteUrl, i)),
    ...portalValues(p.mirror !== undefined, p.extras, PORTAL_PACKAGE_KEYS),
    ...(p.mirror ? { deskstore_mirror: p.mirror } : {}),
  } satisfies PackageDict;
}
