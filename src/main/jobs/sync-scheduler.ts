import type { PortalJobStatus } from '../../shared/portal';
import type { EngineApi } from '../engine/engine-api';
import type { Logger } from '../logger';

/**
 * Syncs mirrored datasets on their schedule while Deskstore runs (docs/versions.md, "Sync on
 * a schedule"): every minute it asks the engine which datasets have a schedule and starts a
 * sync job (marked `scheduled`, so the window can tell the user what changed) for each one
 * whose last sync is older than its period. A dataset whose job is still queued or running is
 * left alone, and one that was just tried waits a whole period again, whether its sync worked
 * or not (a portal that is down is not asked every minute).
 */
export interface SyncSchedulerOptions {
  readonly engine: Pick<EngineApi, 'scheduledSyncs'>;
  /** Starts a scheduled sync job of one dataset. */
  readonly startSync: (datasetId: string) => PortalJobStatus;
  /** A job's status now (null: forgotten). */
  readonly jobStatus: (jobId: string) => PortalJobStatus | null;
  readonly logger: Logger;
  /** How long an hour of a schedule is (tests shorten it) and how often to look. */
  readonly hourMs?: number;
  readonly checkEveryMs?: number;
  readonly now?: () => number;
}

const HOUR_MS = 3_600_000;
const CHECK_EVERY_MS = 60_000;

export class SyncScheduler {
  private timer: NodeJS.Timeout | null = null;
  private readonly started = new Map<string, { jobId: string; at: number }>();
  private ticking: Promise<string[]> | null = null;

  constructor(private readonly opts: SyncSchedulerOptions) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.opts.checkEveryMs ?? CHECK_EVERY_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Starts the syncs that are due; answers their dataset ids. */
  tick(): Promise<string[]> {
    this.ticking ??= this.startDue().finally(() => {
      this.ticking = null;
    });
    return this.ticking;
  }

  private async startDue(): Promise<string[]> {
    const now = (this.opts.now ?? Date.now)();
    const hour = this.opts.hourMs ?? HOUR_MS;
    let schedules;
    try {
      schedules = await this.opts.engine.scheduledSyncs();
    } catch (err) {
      this.opts.logger.warn(`sync schedule: could not read the schedules (${(err as Error).message})`);
      return [];
    }
    const due: string[] = [];
    for (const s of schedules) {
      const previous = this.started.get(s.id);
      const job = previous ? this.opts.jobStatus(previous.jobId) : null;
      if (job && (job.status === 'pending' || job.status === 'running')) continue;
      const last = Math.max(Date.parse(s.lastSync.endsWith('Z') ? s.lastSync : `${s.lastSync}Z`) || 0, previous?.at ?? 0);
      if (now - last < s.everyHours * hour) continue;
      const started = this.opts.startSync(s.id);
      this.started.set(s.id, { jobId: started.job_id, at: now });
      due.push(s.id);
    }
    return due;
  }
}
