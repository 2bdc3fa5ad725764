import type { PortalJobStatus, RememberedPortal } from '../../shared/portal';
import { NotFoundError, ValidationError, withMessage } from '../errors';
import type { PortalJobs } from '../jobs/portal-jobs';
import { mirrorDataset, type MirrorContext } from '../portal/mirror-dataset';
import { isPortalError } from '../portal/portal-errors';
import type { PortalClient } from '../portal/portal-client';
import { rememberedPortals } from '../portal/portal-memory';
import { connectPortal, portalWorkDir, syncMirrors, type PortalSettings } from '../portal/portal-session';
import { pushResource } from '../portal/push-resource';
import { failureReason } from '../portal/mirror-resource';
import type { ActionDeps } from './action-deps';
import type { HandlersFor } from './types';
import type { ActionParams } from '../params/action-params';
import { isMissing } from '../params/validators';

/**
 * The portal features for scripts and the UI (docs/portal.md §API): deskstore_mirror,
 * deskstore_sync and deskstore_push start background jobs (token required) read back with
 * deskstore_portal_job_status; deskstore_detach makes a mirror local; deskstore_portal_call
 * lets the UI browse a portal's catalogue through this server (read actions only);
 * deskstore_portals lists the portals used before.
 */
export interface PortalDeps {
  readonly dataDir: string;
  readonly importWorker: URL;
  readonly jobs: PortalJobs;
  readonly settings?: PortalSettings;
}

/** The read actions the UI may call on a portal through deskstore_portal_call. */
const BROWSE_ACTIONS = new Set([
  'status_show',
  'package_search',
  'package_show',
  'organization_list',
  'organization_show',
  'group_list',
  'resource_show',
]);

function text(params: ActionParams, key: string, required: true): string;
function text(params: ActionParams, key: string, required?: false): string | undefined;
function text(params: ActionParams, key: string, required = false): string | undefined {
  const v = params[key];
  if (isMissing(v)) {
    if (required) throw new ValidationError({ [key]: ['Missing value'] });
    return undefined;
  }
  if (typeof v !== 'string') throw new ValidationError({ [key]: ['Must be a string'] });
  return v;
}

function list(params: ActionParams, key: string): string[] {
  const v = params[key];
  if (isMissing(v)) return [];
  const items = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : null;
  if (!items || items.some((i) => typeof i !== 'string')) throw new ValidationError({ [key]: ['Must be a list of strings'] });
  return (items as string[]).map((i) => i.trim()).filter(Boolean);
}

/** A portal's refusal as this server's error: CKAN's validation shape, worded for people. */
function asActionError(err: unknown): unknown {
  if (!isPortalError(err)) return err;
  const params = err.portalText ? { ...err.worded.params, portal_message: err.portalText } : err.worded.params;
  return withMessage(new ValidationError({ portal: [err.message] }), { ...err.worded, ...(params ? { params } : {}) });
}

type PortalAction =
  | 'deskstore_mirror'
  | 'deskstore_sync'
  | 'deskstore_push'
  | 'deskstore_portal_job_status'
  | 'deskstore_portal_job_cancel'
  | 'deskstore_detach'
  | 'deskstore_portals'
  | 'deskstore_portal_call';

/** What a mirror or sync job works with. */
function jobContext(deps: ActionDeps, p: PortalDeps, signal: AbortSignal, onItem: MirrorContext['onItem']): MirrorContext {
  return {
    engine: deps.engine,
    importWorker: p.importWorker,
    workDir: portalWorkDir(p.dataDir, false),
    ftsLanguage: 'english',
    maxDownloadBytes: 64 * 1024 ** 3,
    siteUrl: 'http://127.0.0.1',
    signal,
    ...(onItem ? { onItem } : {}),
  };
}

/**
 * A sync of the named mirrored datasets (all of them when none) as a background job: what
 * deskstore_sync starts, and the sync schedule (jobs/sync-scheduler.ts) with `scheduled`.
 */
export function startSyncJob(
  deps: ActionDeps,
  p: PortalDeps,
  datasets: readonly string[],
  options: { readonly full?: boolean; readonly scheduled?: boolean } = {},
): PortalJobStatus {
  return p.jobs.start(
    'sync',
    datasets.join(', ') || 'all mirrors',
    async (signal, onItem) =>
      (await syncMirrors(jobContext(deps, p, signal, onItem), p.dataDir, deps.version, p.settings ?? {}, datasets, options.full ?? false))
        .lines,
    options.scheduled ? { scheduled: true } : {},
  );
}

export function portalActions(deps: ActionDeps): HandlersFor<PortalAction> {
  const portal = deps.portal;
  const need = (): PortalDeps => {
    if (!portal) throw new ValidationError({ portal: ['Portal features need the Deskstore server'] });
    return portal;
  };
  const context = (p: PortalDeps, signal: AbortSignal, onItem: MirrorContext['onItem']): MirrorContext =>
    jobContext(deps, p, signal, onItem);
  const settings = (p: PortalDeps) => p.settings ?? {};
  // The UI browses page after page of one portal: its API base is found once.
  const browsing = new Map<string, PortalClient>();
  return {
    async deskstore_mirror(params): Promise<PortalJobStatus> {
      const p = need();
      const url = text(params, 'url', true);
      const token = text(params, 'token');
      const resources = list(params, 'resources');
      const full = params.full === true || params.full === 'true';
      // Found before the job starts, so a bad URL or an unreachable portal is answered at once.
      const { client, source } = await connectPortal(p.dataDir, url, deps.version, settings(p), token).catch((err: unknown) => {
        throw asActionError(err);
      });
      const dataset = text(params, 'dataset') ?? source.dataset;
      if (!dataset) throw new ValidationError({ dataset: [`${url} names no dataset: give a dataset page URL or dataset`] });
      const wanted = resources.length ? resources : source.resource ? [source.resource] : [];
      return p.jobs.start('mirror', url, async (signal, onItem) => [
        await mirrorDataset(context(p, signal, onItem), client, { dataset, resources: wanted, source: url, full }),
      ]);
    },
    async deskstore_sync(params): Promise<PortalJobStatus> {
      const p = need();
      const datasets = list(params, 'datasets');
      const full = params.full === true || params.full === 'true';
      return startSyncJob(deps, p, datasets, { full });
    },
    async deskstore_push(params): Promise<PortalJobStatus> {
      const p = need();
      const resourceId = text(params, 'resource_id', true);
      const to = text(params, 'to', true);
      const token = text(params, 'token');
      const dataset = text(params, 'dataset');
      const ownerOrg = text(params, 'owner_org');
      const resourceName = text(params, 'resource_name');
      await deps.engine.resourceShow(resourceId, 'http://127.0.0.1'); // a missing resource is told now
      const { client } = await connectPortal(p.dataDir, to, deps.version, settings(p), token).catch((err: unknown) => {
        throw asActionError(err);
      });
      return p.jobs.start('push', to, async (signal, onItem) =>
        pushResource({ engine: deps.engine, siteUrl: 'http://127.0.0.1', signal, onItem }, client, {
          resourceId,
          ...(dataset ? { dataset } : {}),
          ...(ownerOrg ? { ownerOrg } : {}),
          ...(resourceName ? { resourceName } : {}),
        }),
      );
    },
    async deskstore_portal_job_status(params): Promise<PortalJobStatus | PortalJobStatus[]> {
      const p = need();
      const id = text(params, 'job_id');
      if (id === undefined) return p.jobs.list();
      const status = p.jobs.status(id);
      if (!status) throw new NotFoundError(`No portal job ${id}`);
      return status;
    },
    async deskstore_portal_job_cancel(params) {
      const id = text(params, 'job_id', true);
      return { job_id: id, cancelled: need().jobs.cancel(id) };
    },
    async deskstore_detach(params) {
      return deps.engine.detachMirror(text(params, 'id', true));
    },
    async deskstore_portals(): Promise<RememberedPortal[]> {
      return rememberedPortals(need().dataDir);
    },
    async deskstore_portal_call(params) {
      const p = need();
      const url = text(params, 'url', true);
      const action = text(params, 'action', true);
      if (!BROWSE_ACTIONS.has(action))
        throw new ValidationError({ action: [`Only ${[...BROWSE_ACTIONS].join(', ')} can be called on a portal`] });
      const args = params.params ?? {};
      if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new ValidationError({ params: ['Must be an object'] });
      // The portal's failures are part of the answer (worded for the UI): browsing a portal
      // that is down is an expected outcome, not an error of this server.
      try {
        let client = browsing.get(url);
        if (!client) {
          client = (await connectPortal(p.dataDir, url, deps.version, { ...settings(p), retries: 1 })).client;
          browsing.set(url, client);
        }
        return { ok: true, portal: client.base, result: await client.action(action, args as Record<string, unknown>) };
      } catch (err) {
        if (!isPortalError(err)) throw err;
        browsing.delete(url);
        return { ok: false, error: failureReason(err) };
      }
    },
  };
}
