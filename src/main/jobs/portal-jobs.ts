import { randomUUID } from 'node:crypto';
import { message } from '../../shared/messages';
import type { MirrorOutcome, PortalJobItem, PortalJobKind, PortalJobStatus, PushOutcome } from '../../shared/portal';
import { failureReason } from '../portal/mirror-resource';

/**
 * Mirrors, syncs and pushes started through the API run here in the background, one at a
 * time (each holds a portal connection and a core), their progress and outcome readable by
 * job id the way import jobs are (deskstore_portal_job_status). Cancelling aborts the work;
 * what it built aside is dropped and the published versions stay as they were.
 */
export type PortalWork = (signal: AbortSignal, onItem: (item: PortalJobItem) => void) => Promise<MirrorOutcome[] | PushOutcome>;

interface Job {
  status: PortalJobStatus;
  readonly abort: AbortController;
}

const nowIso = (): string => new Date().toISOString().replace('Z', '');

/** Finished jobs kept for their status; older ones are forgotten. */
const KEEP_FINISHED = 100;

export class PortalJobs {
  private readonly jobs = new Map<string, Job>();
  private queue: Promise<void> = Promise.resolve();

  start(kind: PortalJobKind, source: string, work: PortalWork, options: { readonly scheduled?: boolean } = {}): PortalJobStatus {
    const created = nowIso();
    const job: Job = {
      abort: new AbortController(),
      status: {
        job_id: randomUUID(),
        kind,
        ...(options.scheduled ? { scheduled: true } : {}),
        status: 'pending',
        source,
        created,
        last_updated: created,
        items: [],
        result: null,
        error: null,
      },
    };
    this.jobs.set(job.status.job_id, job);
    this.forgetOld();
    this.queue = this.queue.then(() => this.run(job, work));
    return job.status;
  }

  status(jobId: string): PortalJobStatus | null {
    return this.jobs.get(jobId)?.status ?? null;
  }

  list(): PortalJobStatus[] {
    return [...this.jobs.values()].map((j) => j.status).reverse();
  }

  cancel(jobId: string): boolean {
    const job = this.jobs.get(jobId);
    if (!job || (job.status.status !== 'pending' && job.status.status !== 'running')) return false;
    job.abort.abort();
    this.update(job, { status: 'cancelled', error: message('portal.cancelled', 'Cancelled; what was already here is unchanged.') });
    return true;
  }

  cancelAll(): void {
    for (const id of this.jobs.keys()) this.cancel(id);
  }

  /** Resolves once every job started so far has ended (shutdown, tests). */
  idle(): Promise<void> {
    return this.queue;
  }

  private update(job: Job, change: Partial<PortalJobStatus>): void {
    job.status = { ...job.status, ...change, last_updated: nowIso() };
  }

  private async run(job: Job, work: PortalWork): Promise<void> {
    if (job.abort.signal.aborted) return;
    this.update(job, { status: 'running' });
    const onItem = (item: PortalJobItem) => {
      const items = job.status.items.filter((i) => i.resource_id !== item.resource_id);
      const at = job.status.items.findIndex((i) => i.resource_id === item.resource_id);
      items.splice(at < 0 ? items.length : at, 0, item);
      this.update(job, { items });
    };
    try {
      const result = await work(job.abort.signal, onItem);
      if (!job.abort.signal.aborted) this.update(job, { status: 'complete', result });
    } catch (err) {
      if (!job.abort.signal.aborted) this.update(job, { status: 'error', error: failureReason(err) });
    }
  }

  private forgetOld(): void {
    const finished = [...this.jobs.values()].filter((j) => !['pending', 'running'].includes(j.status.status));
    for (const j of finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED))) this.jobs.delete(j.status.job_id);
  }
}
