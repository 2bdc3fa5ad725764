import { message } from '../../shared/messages';
import type { MirroredResource, MirrorOutcome, PortalJobItem, ResourceMirror } from '../../shared/portal';
import type { EngineApi, MirrorResource } from '../engine/engine-api';
import { NotFoundError, ValidationError, isActionError } from '../errors';
import { resourceIdProblem } from '../storage/data-paths';
import type { PortalClient } from './portal-client';
import {
  failureReason,
  fetchDatastoreResource,
  fetchFileResource,
  isTabular,
  type ResourceFetch,
  type ResourceWork,
} from './mirror-resource';
import { mirrorPackage, mirrorResource, remoteResources, resourcePage, resourceSignals, str, type RemoteDict } from './remote-dicts';
import { PortalError } from './portal-errors';

/**
 * Mirror (or re-sync) one dataset of a portal: its metadata, and each chosen resource's rows
 * as a new version built aside. Everything that succeeded is published in one catalogue
 * commit at the end, so a failure or a kill at any point leaves every resource as it was or
 * as it is now on the portal, never a mix. docs/portal.md.
 */
export interface MirrorRequest {
  /** The dataset's id or name on the portal. */
  readonly dataset: string;
  /** Only these resource ids (default: all). */
  readonly resources?: readonly string[];
  /** What the user gave, echoed as `source`. */
  readonly source: string;
  /** Re-download even when nothing seems to have changed. */
  readonly full?: boolean;
}

export interface MirrorContext extends Omit<ResourceWork, 'client' | 'onProgress'> {
  readonly siteUrl: string;
  /** Progress for a terminal (CLI) or a job. */
  readonly onItem?: (item: PortalJobItem) => void;
  readonly log?: (line: string) => void;
}

const PACKAGE_ID = /^[A-Za-z0-9_-]{1,100}$/;

interface LocalState {
  readonly mirrorPortal: string | null;
  readonly metadataModified: string | null;
  readonly resources: Map<string, { mirror?: ResourceMirror }>;
}

async function localState(engine: EngineApi, id: string, siteUrl: string): Promise<LocalState | null> {
  let dict: RemoteDict;
  try {
    dict = await engine.packageShow(id, siteUrl);
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
  const mirror = dict.deskstore_mirror as { portal: string; metadataModified: string | null } | undefined;
  const resources = new Map<string, { mirror?: ResourceMirror }>();
  for (const r of remoteResources(dict)) {
    resources.set(str(r.id), { ...(r.deskstore_mirror ? { mirror: r.deskstore_mirror as ResourceMirror } : {}) });
  }
  return { mirrorPortal: mirror?.portal ?? null, metadataModified: mirror?.metadataModified ?? null, resources };
}

export async function mirrorDataset(ctx: MirrorContext, client: PortalClient, req: MirrorRequest): Promise<MirrorOutcome> {
  const portal = client.base;
  const pkg = await client.action<RemoteDict>('package_show', { id: req.dataset }, 'GET', ctx.signal);
  if (typeof pkg !== 'object' || pkg === null || !PACKAGE_ID.test(str(pkg.id))) {
    throw new PortalError(
      message('mirror.bad_package', `The portal's answer for dataset ${req.dataset} has no usable id.`, { dataset: req.dataset }),
    );
  }
  const packageId = str(pkg.id);
  const all = remoteResources(pkg);
  const wanted = req.resources?.length ? all.filter((r) => req.resources!.includes(str(r.id))) : all;
  for (const id of req.resources ?? []) {
    if (!all.some((r) => str(r.id) === id))
      throw new ValidationError({ resource: [`Dataset ${str(pkg.name)} has no resource ${id} on ${portal}`] });
  }
  const outcomes: MirroredResource[] = [];
  const valid = wanted.filter((r) => {
    const problem = resourceIdProblem(str(r.id));
    if (!problem) return true;
    const reason = message(
      'mirror.bad_resource_id',
      `The portal's resource id ${JSON.stringify(str(r.id)).slice(0, 120)} cannot be used here: ${problem}.`,
      { problem },
    );
    outcomes.push({
      resource_id: str(r.id).slice(0, 120),
      name: str(r.name),
      status: 'failed',
      rows: 0,
      reason: reason.text,
      message: reason,
    });
    return false;
  });
  const local = await localState(ctx.engine, packageId, ctx.siteUrl);
  await ctx.engine.checkMirrorTarget(
    portal,
    packageId,
    str(pkg.name),
    valid.filter((r) => !local || local.resources.get(str(r.id))?.mirror || !local.resources.has(str(r.id))).map((r) => str(r.id)),
  );
  // Only a re-sync can say the metadata changed; a first mirror has nothing to compare with.
  const metadataChanged = local !== null && local.metadataModified !== (str(pkg.metadata_modified) || null);

  const publications: MirrorResource[] = [];
  const built: { id: string; generation: number }[] = [];
  // Nothing of a mirror that fails or is cancelled part-way is published, and nothing it built
  // aside stays: a new resource's folder goes with its files (issue 21: folders were left).
  try {
    for (const resource of valid) {
      const id = str(resource.id);
      const name = str(resource.name);
      const existing = local?.resources.get(id);
      if (existing && !existing.mirror) {
        const reason = message('mirror.detached', 'Detached here: sync no longer touches it.');
        outcomes.push({ resource_id: id, name, status: 'skipped', rows: 0, reason: reason.text, message: reason });
        continue;
      }
      const previous = existing?.mirror;
      const previousGeneration = previous ? await currentGeneration(ctx.engine, id) : undefined;
      const base = { portal, page: resourcePage(portal, pkg, resource), fetchedAt: new Date().toISOString(), ...resourceSignals(resource) };
      const item = (phase: PortalJobItem['phase'], rows: number, bytes: number, total: number | null) =>
        ctx.onItem?.({ resource_id: id, name, phase, rows_done: rows, rows_total: total, bytes_done: bytes });
      const work: ResourceWork = { ...ctx, client, onProgress: (phase, rows, bytes, total) => item(phase, rows, bytes, total) };
      ctx.log?.(`${name || id}: ${resource.datastore_active === true ? 'DataStore' : str(resource.format) || 'file'}`);
      let fetched: ResourceFetch;
      try {
        if (resource.datastore_active === true) {
          fetched = await fetchDatastoreResource(work, resource, base, previous, previousGeneration, req.full ?? false);
        } else if (isTabular(resource)) {
          fetched = await fetchFileResource(work, resource, base, previous, previousGeneration, req.full ?? false);
        } else {
          const reason = message('mirror.not_tabular', `Not tabular (format ${str(resource.format) || 'unknown'}): metadata only.`, {
            format: str(resource.format),
          });
          fetched = {
            kind: 'skipped',
            reason,
            mirror: { ...base, via: 'metadata', rows: null, maxId: null, fieldsHash: null, etag: null, httpLastModified: null, reason },
          };
        }
      } catch (err) {
        if (ctx.signal?.aborted) throw err;
        if (isActionError(err) && !(err instanceof ValidationError)) throw err; // the local side failed: stop
        const reason = failureReason(err);
        ctx.log?.(`${name || id}: failed: ${reason.text}`);
        outcomes.push({ resource_id: id, name, status: 'failed', rows: 0, reason: reason.text, message: reason });
        item('done', 0, 0, null);
        continue;
      }
      item('done', fetched.mirror.rows ?? 0, 0, fetched.mirror.rows);
      if (fetched.kind === 'built') {
        built.push({ id, generation: fetched.table.generation });
        publications.push(mirrorResource(resource, fetched.mirror, fetched.table));
        outcomes.push({
          resource_id: id,
          name,
          status: previous ? 'updated' : 'mirrored',
          rows: fetched.table.rows,
          ...(fetched.changes ? { changes: fetched.changes } : {}),
        });
      } else if (fetched.kind === 'unchanged') {
        publications.push(mirrorResource(resource, fetched.mirror, null));
        outcomes.push({ resource_id: id, name, status: 'unchanged', rows: fetched.mirror.rows ?? 0 });
      } else {
        publications.push(mirrorResource(resource, fetched.mirror, null, previousGeneration !== undefined));
        outcomes.push({ resource_id: id, name, status: 'skipped', rows: 0, reason: fetched.reason.text, message: fetched.reason });
      }
    }
    // Resources this mirror had that the portal no longer lists: kept, as local resources.
    const listed = new Set(all.map((r) => str(r.id)));
    const detach = [...(local?.resources.entries() ?? [])].filter(([id, r]) => r.mirror && !listed.has(id)).map(([id]) => id);
    for (const id of detach) {
      const reason = message('mirror.removed_on_portal', 'No longer on the portal: kept here as a local resource.');
      outcomes.push({ resource_id: id, name: '', status: 'updated', rows: 0, reason: reason.text, message: reason });
    }
    await ctx.engine.publishMirror({ package: mirrorPackage(portal, pkg), resources: publications, detach });
  } catch (err) {
    for (const b of built) await ctx.engine.abandonImport(b.id, b.generation).catch(() => undefined);
    throw err;
  }
  const c = client.counts;
  ctx.log?.(`${str(pkg.name)}: ${c.downloads} downloads (${c.notModified} not modified), ${c.actions} API calls, ${c.retries} retries`);
  return { package_id: packageId, name: str(pkg.name), source: req.source, metadata_changed: metadataChanged, resources: outcomes };
}

async function currentGeneration(engine: EngineApi, id: string): Promise<number | undefined> {
  return (await engine.tableFacts(id))?.generation;
}
