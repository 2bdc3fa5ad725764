import { createHash } from 'node:crypto';
import type { PackageMirror, ResourceMirror } from '../../shared/portal';
import type { MirrorPackage, MirrorResource } from '../engine/engine-api';

/**
 * A portal's package_show / resource dicts, read defensively (a portal is hostile until
 * proven otherwise: every member is checked before use), and turned into what the engine
 * publishes for a mirror.
 */
export type RemoteDict = Record<string, unknown>;

export const str = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));
export const strOrNull = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
export const numOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Members Deskstore computes itself for every dataset; the rest of a portal's dict is kept. */
const COMPUTED_PACKAGE_KEYS = new Set([
  'id',
  'name',
  'title',
  'notes',
  'resources',
  'num_resources',
  'metadata_created',
  'metadata_modified',
  'state',
  'relationships_as_object',
  'relationships_as_subject',
  'creator_user_id',
  'deskstore_mirror',
]);
const COMPUTED_RESOURCE_KEYS = new Set([
  'id',
  'package_id',
  'name',
  'description',
  'url',
  'url_type',
  'format',
  'created',
  'last_modified',
  'metadata_modified',
  'datastore_active',
  'position',
  'state',
  'deskstore',
  'deskstore_mirror',
  'deskstore_push',
]);

const without = (dict: RemoteDict, keys: ReadonlySet<string>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(dict).filter(([k]) => !keys.has(k)));

/** CKAN writes timestamps without a zone (UTC): compared as given. */
const portalTime = (v: unknown): string | null => strOrNull(v);

export function remoteResources(pkg: RemoteDict): RemoteDict[] {
  return Array.isArray(pkg.resources)
    ? pkg.resources.filter((r): r is RemoteDict => typeof r === 'object' && r !== null && !Array.isArray(r))
    : [];
}

export function packagePage(portal: string, pkg: RemoteDict): string {
  return `${portal}/dataset/${encodeURIComponent(str(pkg.name) || str(pkg.id))}`;
}

export function resourcePage(portal: string, pkg: RemoteDict, resource: RemoteDict): string {
  return `${packagePage(portal, pkg)}/resource/${encodeURIComponent(str(resource.id))}`;
}

export function mirrorPackage(portal: string, pkg: RemoteDict): MirrorPackage {
  const organization = typeof pkg.organization === 'object' && pkg.organization !== null ? (pkg.organization as RemoteDict) : null;
  const mirror: PackageMirror = {
    portal,
    page: packagePage(portal, pkg),
    fetchedAt: new Date().toISOString(),
    metadataModified: portalTime(pkg.metadata_modified),
    organization: organization ? { id: str(organization.id), name: str(organization.name), title: str(organization.title) } : null,
  };
  const now = new Date().toISOString().replace('Z', '');
  return {
    id: str(pkg.id),
    name: str(pkg.name),
    title: str(pkg.title),
    notes: str(pkg.notes),
    created: portalTime(pkg.metadata_created) ?? now,
    modified: portalTime(pkg.metadata_modified) ?? now,
    extras: without(pkg, COMPUTED_PACKAGE_KEYS),
    mirror,
  };
}

/** The signals that say a resource changed on the portal, without downloading it. */
export function resourceSignals(resource: RemoteDict): Pick<ResourceMirror, 'lastModified' | 'metadataModified' | 'size' | 'hash'> {
  return {
    lastModified: portalTime(resource.last_modified),
    metadataModified: portalTime(resource.metadata_modified),
    size: numOrNull(resource.size),
    hash: strOrNull(resource.hash),
  };
}

export function mirrorResource(
  resource: RemoteDict,
  mirror: ResourceMirror,
  table: MirrorResource['table'],
  dropTable = false,
): MirrorResource {
  const now = new Date().toISOString().replace('Z', '');
  return {
    id: str(resource.id),
    name: str(resource.name),
    description: str(resource.description),
    url: str(resource.url),
    urlType: strOrNull(resource.url_type),
    format: str(resource.format),
    created: portalTime(resource.created) ?? now,
    lastModified: portalTime(resource.last_modified),
    extras: without(resource, COMPUTED_RESOURCE_KEYS),
    mirror,
    table,
    ...(dropTable ? { dropTable } : {}),
  };
}

/** A fingerprint of a data dictionary: ids, types and info, in order. */
export function fieldsHash(fields: readonly { id: string; type: string; info?: unknown }[]): string {
  return createHash('sha256')
    .update(JSON.stringify(fields.map((f) => [f.id, f.type, f.info ?? null])))
    .digest('hex')
    .slice(0, 32);
}
