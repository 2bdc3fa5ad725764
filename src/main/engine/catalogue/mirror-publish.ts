import type { PackageMirror, PushLink, ResourceMirror } from '../../../shared/portal';
import { NotFoundError } from '../../errors';
import { checkResourceId } from '../../storage/data-paths';
import type { Catalogue } from './catalogue';
import { checkPackageName } from './catalogue-operations';
import { checkMirrorTarget } from './mirror-guard';
import { succeed } from '../versions/version-history';
import type { DatastoreRecord, ImportSource, PackageRecord, ResourceRecord, StoredField } from './records';

/**
 * What a mirror or sync publishes in one catalogue commit (docs/portal.md §Atomicity): the
 * dataset's metadata and, per resource, its metadata and either a new version of its table
 * (files already written as an unpublished generation) or none (kept as it is, or none at all).
 * Until the commit nothing is visible; after it, everything is.
 */
export interface MirrorPackage {
  readonly id: string;
  readonly name: string;
  readonly title: string;
  readonly notes: string;
  readonly created: string;
  readonly modified: string;
  /** The portal's other dataset members (licence, tags, organization, extras, …). */
  readonly extras: Record<string, unknown>;
  readonly mirror: PackageMirror;
}

export interface MirrorTable {
  readonly generation: number;
  readonly fields: readonly StoredField[];
  readonly rows: number;
  readonly ftsLanguage: string;
  readonly sizeBytes: number;
  readonly source: ImportSource | null;
}

export interface MirrorResource {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly url: string;
  readonly urlType: string | null;
  readonly format: string;
  readonly created: string;
  readonly lastModified: string | null;
  readonly extras: Record<string, unknown>;
  readonly mirror: ResourceMirror;
  /** A new version to publish; null keeps the current table (or none). */
  readonly table: MirrorTable | null;
  /** Drop the current table (the portal no longer has the rows). */
  readonly dropTable?: boolean;
}

export interface MirrorPublication {
  readonly package: MirrorPackage;
  readonly resources: readonly MirrorResource[];
  /** Local resources of this mirror that the portal no longer lists: kept, detached. */
  readonly detach: readonly string[];
}

/** A resource whose table the publication replaced (generation 0: dropped) and the earlier versions it keeps. */
export interface PublishedTable {
  readonly resourceId: string;
  readonly generation: number;
  readonly kept: readonly number[];
}

/**
 * The change itself, run inside the caller's catalogue commit; returns what the caller cleans
 * up after it. A new table keeps the one it replaces as an earlier version (`keep` in all,
 * docs/versions.md): a first mirror makes version `mirror`, a sync with new data `sync`.
 */
export function applyMirrorPublication(catalogue: Catalogue, p: MirrorPublication, keep: number): PublishedTable[] {
  const pkg = p.package;
  checkMirrorTarget(
    catalogue,
    pkg.mirror.portal,
    pkg.id,
    pkg.name,
    p.resources.map((r) => checkResourceId(r.id)),
  );
  checkPackageName(catalogue, pkg.name, pkg.id);
  const existing = catalogue.findPackage(pkg.id);
  const record: PackageRecord = {
    ...(existing ?? {}),
    id: pkg.id,
    name: pkg.name,
    title: pkg.title || pkg.name,
    notes: pkg.notes,
    created: existing?.created ?? pkg.created,
    modified: pkg.modified,
    extras: pkg.extras,
    mirror: pkg.mirror,
  };
  catalogue.putPackage(record);
  const published: PublishedTable[] = [];
  for (const r of p.resources) {
    const current = catalogue.findResource(r.id);
    const next: ResourceRecord = {
      id: r.id,
      packageId: pkg.id,
      name: r.name,
      description: r.description,
      url: r.url,
      urlType: r.urlType,
      format: r.format,
      created: current?.created ?? r.created,
      lastModified: r.lastModified,
      datastore: current?.datastore ?? null,
      source: current?.source ?? null,
      extras: r.extras,
      mirror: r.mirror,
      ...(current?.pushed ? { pushed: current.pushed } : {}),
    };
    catalogue.putResource(next);
    if (r.table) {
      const t = r.table;
      const previous = current?.datastore ?? null;
      const succession = succeed(current ?? next, previous, previous ? 'sync' : 'mirror', keep, r.mirror.via === 'datastore');
      const datastore: DatastoreRecord = {
        generation: t.generation,
        fields: t.fields,
        primaryKey: [],
        indexes: [],
        aliases: current?.datastore?.aliases ?? [],
        ftsLanguage: t.ftsLanguage,
        rowCount: t.rows,
        sizeBytes: t.sizeBytes,
        updated: new Date().toISOString(),
        version: succession.version,
        olderVersions: succession.olderVersions,
      };
      catalogue.setDatastore(r.id, datastore);
      next.source = t.source;
      published.push({ resourceId: r.id, generation: t.generation, kept: succession.olderVersions.map((v) => v.generation) });
    } else if (r.dropTable && current?.datastore) {
      catalogue.setDatastore(r.id, null);
      published.push({ resourceId: r.id, generation: 0, kept: [] });
    }
  }
  for (const id of p.detach) {
    const r = catalogue.findResource(id);
    if (r?.packageId === pkg.id) delete r.mirror;
  }
  return published;
}

/** Makes a mirrored dataset (and its resources) or one mirrored resource ordinary and local. */
export function detachMirror(catalogue: Catalogue, id: string): { detached: string[] } {
  const pkg = catalogue.findPackage(id);
  if (pkg) {
    const ids = [pkg.id];
    delete pkg.mirror;
    delete pkg.syncSchedule; // a local dataset has nothing to sync
    for (const r of catalogue.resourcesOf(pkg.id)) {
      if (r.mirror) ids.push(r.id);
      delete r.mirror;
    }
    return { detached: ids };
  }
  const r = catalogue.findResource(id);
  if (!r) throw new NotFoundError('Dataset or resource was not found.');
  const had = r.mirror !== undefined;
  delete r.mirror;
  return { detached: had ? [r.id] : [] };
}

/** Remembers where a resource was pushed (or that a push is under way: `complete: false`). */
export function recordPush(catalogue: Catalogue, resourceId: string, link: PushLink): void {
  const r = catalogue.findResource(resourceId);
  if (!r) throw new NotFoundError('Resource was not found.');
  r.pushed = link;
}
