import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { MirrorOutcome, SyncSummary } from '../../shared/portal';
import { isActionError } from '../errors';
import { PRIVATE_DIR_MODE } from '../storage/data-paths';
import { PortalClient, type PortalClientOptions } from './portal-client';
import { isPortalError } from './portal-errors';
import { portalToken, rememberPortal, savePortalToken } from './portal-memory';
import { discoverPortal, parsePortalSource, type PortalSource } from './portal-source';
import { failureReason } from './mirror-resource';
import { mirrorDataset, type MirrorContext } from './mirror-dataset';
import { str } from './remote-dicts';

/**
 * Where mirror, sync and push meet the data directory: the portal's client with its remembered
 * token, the remembered portals, and the folder for temporary downloads. docs/portal.md.
 */
export type PortalSettings = Omit<PortalClientOptions, 'token' | 'userAgent'>;

export function userAgent(version: string): string {
  return `Deskstore/${version} (CKAN DataStore on the desktop)`;
}

/**
 * Temporary downloads: under the jobs folder, which a server sweeps at start; CLIs sweep their
 * own. Private like the rest of the data folder (0700; the files in it 0600).
 */
export function portalWorkDir(dataDir: string, sweep: boolean): string {
  const dir = join(dataDir, 'jobs', 'portal');
  if (sweep) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  for (const folder of [join(dataDir, 'jobs'), dir]) chmodSync(folder, PRIVATE_DIR_MODE);
  return dir;
}

/** The portal a URL points at (API base found by probing), with the token given now or remembered. */
export async function connectPortal(
  dataDir: string,
  url: string,
  version: string,
  settings: PortalSettings,
  token?: string,
): Promise<{ client: PortalClient; source: PortalSource }> {
  const source = parsePortalSource(url);
  const options = { ...settings, userAgent: userAgent(version) };
  // Found without a token (status_show is public); the token is the one of the base found.
  const found = await discoverPortal(source, options);
  const known = token ?? portalToken(dataDir, found.base);
  const client = known ? new PortalClient(found.base, { ...options, token: known }) : found;
  if (token) savePortalToken(dataDir, found.base, token);
  let title = client.base;
  try {
    const status = await client.action<Record<string, unknown>>('status_show');
    title = str(status.site_title) || title;
  } catch {
    // the title is only for the list of remembered portals
  }
  rememberPortal(dataDir, client.base, title);
  return { client, source };
}

/** A client for a portal already known by its API base (sync). */
export function portalClientFor(dataDir: string, base: string, version: string, settings: PortalSettings): PortalClient {
  const token = portalToken(dataDir, base);
  return new PortalClient(base, { ...settings, userAgent: userAgent(version), ...(token ? { token } : {}) });
}

export interface SyncReport {
  readonly lines: MirrorOutcome[];
  readonly summary: SyncSummary;
}

/** Re-checks every mirrored dataset (or the named ones) against its portal. */
export async function syncMirrors(
  ctx: MirrorContext,
  dataDir: string,
  version: string,
  settings: PortalSettings,
  only: readonly string[] = [],
  full = false,
  onDataset?: (outcome: MirrorOutcome) => void,
): Promise<SyncReport> {
  const names = await ctx.engine.packageList(null, 0);
  const lines: MirrorOutcome[] = [];
  for (const name of names) {
    const local = await ctx.engine.packageShow(name, ctx.siteUrl);
    const mirror = local.deskstore_mirror as { portal: string; page: string } | undefined;
    if (!mirror || (only.length && !only.includes(name) && !only.includes(str(local.id)))) continue;
    let outcome: MirrorOutcome;
    try {
      outcome = await mirrorDataset(ctx, portalClientFor(dataDir, mirror.portal, version, settings), {
        dataset: str(local.id),
        source: mirror.page,
        full,
      });
    } catch (err) {
      if (ctx.signal?.aborted || !(isPortalError(err) || isActionError(err))) throw err;
      const reason = failureReason(err);
      outcome = {
        package_id: str(local.id),
        name,
        source: mirror.page,
        metadata_changed: false,
        resources: [{ resource_id: '', name: '', status: 'failed', rows: 0, reason: reason.text, message: reason }],
      };
    }
    lines.push(outcome);
    onDataset?.(outcome);
  }
  return { lines, summary: syncSummary(lines) };
}

/** How many datasets a sync updated, found unchanged, or failed on (a dataset with any failed resource failed). */
export function syncSummary(lines: readonly MirrorOutcome[]): SyncSummary {
  const summary = { datasets: lines.length, updated: 0, unchanged: 0, failed: 0 };
  for (const outcome of lines) {
    const statuses = outcome.resources.map((r) => r.status);
    if (statuses.includes('failed')) summary.failed++;
    else if (outcome.metadata_changed || statuses.some((s) => s === 'updated' || s === 'mirrored')) summary.updated++;
    else summary.unchanged++;
  }
  return summary;
}
