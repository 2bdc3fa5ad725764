import { resolve } from 'node:path';
import type { PortalJobItem, PortalJobStatus } from '../../shared/portal';
import { DataDirectoryBusyError, acquireDataDirectoryLock, type DataDirectoryLock, type LockInfo } from '../app/data-dir-lock';
import { ServerActionError, clientOfRunningServer, type ServerClient } from './server-client';
import { Engine } from '../engine/engine';
import { inProcessEngineApi, type EngineApi } from '../engine/engine-api';
import type { PortalSettings } from '../portal/portal-session';
import { closePortalConnections } from '../portal/portal-client';
import { ensurePrivateDataDir } from '../storage/data-paths';
import { type OptionValues, defaultDataDir, integerOption, stringOption } from './command';

/**
 * What `deskstore mirror`, `sync` and `push` share: the network options, the data directory
 * held with its lock and an engine in this process, and progress lines on stderr.
 */
export const NETWORK_OPTIONS = {
  'timeout-s': { type: 'string' },
  retries: { type: 'string' },
} as const;

/** What --help says of the network options. */
export const NETWORK_HELP = {
  'timeout-s': {
    value: 'N',
    text: "A portal action's whole answer within N seconds; a download's headers within N s, no silence of N s, and from N s on at least 1 KiB/s. Default 30.",
  },
  retries: {
    value: 'N',
    text: 'Retries of a failed portal request (5xx, 429 honouring Retry-After, a dropped connection), with backoff. Default 4.',
  },
} as const;

export function networkSettings(values: OptionValues, log: (line: string) => void): PortalSettings {
  const timeout = integerOption(values['timeout-s'], '--timeout-s', 1);
  const retries = integerOption(values.retries, '--retries', 0);
  return {
    ...(timeout !== undefined ? { timeoutMs: timeout * 1000 } : {}),
    ...(retries !== undefined ? { retries } : {}),
    ...(process.env.DESKSTORE_PORTAL_BACKOFF_MS ? { backoffMs: Number(process.env.DESKSTORE_PORTAL_BACKOFF_MS) } : {}),
    onRetry: (what, attempt, delayMs, reason) => log(`retry ${attempt} of ${what} in ${(delayMs / 1000).toFixed(1)} s: ${reason}`),
  };
}

export function dataDirOption(values: OptionValues): string {
  return resolve(stringOption(values.data) ?? defaultDataDir());
}

/**
 * Runs `work` with the data directory locked and its engine open in this process; when a
 * Deskstore server holds the directory, runs `throughServer` with a client of that server
 * instead (the same work as one of its background jobs).
 */
export async function withLocalEngine<T>(
  dataDir: string,
  role: LockInfo['role'],
  work: (engine: EngineApi) => Promise<T>,
  throughServer?: (server: ServerClient) => Promise<T>,
  keepVersions?: number,
): Promise<T> {
  ensurePrivateDataDir(dataDir);
  let lock: DataDirectoryLock;
  try {
    lock = acquireDataDirectoryLock(dataDir, role);
  } catch (err) {
    const server = throughServer && err instanceof DataDirectoryBusyError ? await clientOfRunningServer(dataDir, err.holder) : null;
    if (!server || !throughServer) throw err;
    stderrLine(`${dataDir} is in use by the Deskstore server at ${server.url}: running the ${role} there`);
    return throughServer(server);
  }
  try {
    const engine = new Engine({ dataDir, ...(keepVersions !== undefined ? { keepVersions } : {}) });
    try {
      return await work(inProcessEngineApi(engine));
    } finally {
      await engine.close();
    }
  } finally {
    lock.release();
    await closePortalConnections();
  }
}

export const stderrLine = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/** Per-resource progress, at most one line a second per resource and phase. */
export function itemReporter(): (item: PortalJobItem) => void {
  const last = new Map<string, number>();
  return (item) => {
    const key = `${item.resource_id}:${item.phase}`;
    const now = performance.now();
    if (item.phase !== 'done' && now - (last.get(key) ?? -Infinity) < 1000) return;
    last.set(key, now);
    const rows =
      item.rows_total !== null
        ? `${item.rows_done.toLocaleString('en')} of ${item.rows_total.toLocaleString('en')} rows`
        : `${item.rows_done.toLocaleString('en')} rows`;
    const bytes = item.bytes_done ? `, ${(item.bytes_done / 1024 / 1024).toFixed(1)} MB` : '';
    stderrLine(`${item.name || item.resource_id}: ${item.phase} ${rows}${bytes}`);
  };
}

/** How often a server's portal job is asked for. */
const JOB_POLL_MS = 500;

/**
 * Follows a portal job a server runs (deskstore_portal_job_status) to its end, reporting each
 * resource's progress as a local run does; a failed or cancelled job is an error in its words.
 */
export async function followPortalJob(server: ServerClient, started: PortalJobStatus): Promise<PortalJobStatus> {
  const report = itemReporter();
  let job = started;
  for (;;) {
    for (const item of job.items) report(item);
    if (job.status === 'complete') return job;
    if (job.status === 'error' || job.status === 'cancelled') {
      throw new ServerActionError(
        'deskstore_portal_job_status',
        409,
        `the ${job.kind} ended: ${job.error?.text ?? job.status}`,
        job.error ?? undefined,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, JOB_POLL_MS));
    const answer = await server.call('deskstore_portal_job_status', { job_id: job.job_id });
    if (Array.isArray(answer)) throw new Error(`deskstore_portal_job_status answered a list for job ${job.job_id}`);
    job = answer as PortalJobStatus;
  }
}

/** Options a local run honours that a server's job does not take: said, not silently dropped. */
export function noteIgnoredOptions(values: OptionValues, names: readonly string[]): void {
  const given = names.filter((name) => values[name] !== undefined);
  if (given.length)
    stderrLine(`note: ${given.map((n) => `--${n}`).join(', ')} apply only when no server holds the data directory: ignored`);
}
