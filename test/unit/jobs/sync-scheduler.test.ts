import { describe, expect, it } from 'vitest';
import type { PortalJobStatus } from '../../../src/shared/portal';
import type { ScheduledSync } from '../../../src/main/engine/catalogue/sync-schedule';
import { SyncScheduler } from '../../../src/main/jobs/sync-scheduler';

/**
 * Issue 25: mirrored datasets are synced on their schedule while Deskstore runs: when their
 * period has passed since the last sync, never twice at once, and a dataset just tried waits a
 * whole period again whether its sync worked or not.
 */
const HOUR = 1000;
const T0 = Date.parse('2026-01-01T00:00:00Z');

function setup(schedules: ScheduledSync[]) {
  let now = T0;
  const jobs = new Map<string, PortalJobStatus['status']>();
  const started: string[] = [];
  const scheduler = new SyncScheduler({
    engine: { scheduledSyncs: async () => schedules },
    startSync: (id) => {
      started.push(id);
      const jobId = `job-${started.length}`;
      jobs.set(jobId, 'pending');
      return { job_id: jobId } as PortalJobStatus;
    },
    jobStatus: (jobId) => (jobs.has(jobId) ? ({ status: jobs.get(jobId) } as PortalJobStatus) : null),
    logger: { warn: () => {}, error: () => {} },
    hourMs: HOUR,
    now: () => now,
  });
  return { scheduler, started, jobs, advance: (ms: number) => (now += ms) };
}

const at = (ms: number) => new Date(T0 + ms).toISOString();

describe('the sync schedule', () => {
  it('starts a sync once its period has passed since the last one', async () => {
    const s = setup([
      { id: 'a', name: 'a', everyHours: 2, lastSync: at(-1 * HOUR) },
      { id: 'b', name: 'b', everyHours: 1, lastSync: at(-3 * HOUR) },
    ]);
    expect(await s.scheduler.tick()).toEqual(['b']);
    s.advance(HOUR);
    expect(await s.scheduler.tick()).toEqual(['a']); // 2 hours since a's last sync
  });

  it('never starts a dataset twice at once, and waits a whole period after a try', async () => {
    const schedules = [{ id: 'a', name: 'a', everyHours: 1, lastSync: at(-5 * HOUR) }];
    const s = setup(schedules);
    expect(await s.scheduler.tick()).toEqual(['a']);
    s.advance(2 * HOUR);
    expect(await s.scheduler.tick()).toEqual([]); // still queued
    s.jobs.set('job-1', 'error'); // the portal was down: lastSync did not move
    expect(await s.scheduler.tick()).toEqual(['a']); // an hour has passed since the try
    s.jobs.set('job-2', 'complete');
    s.advance(HOUR / 2);
    expect(await s.scheduler.tick()).toEqual([]);
    s.advance(HOUR / 2);
    expect(await s.scheduler.tick()).toEqual(['a']);
    expect(s.started).toEqual(['a', 'a', 'a']);
  });

  it('reads a sync time written without a zone as UTC', async () => {
    const s = setup([{ id: 'a', name: 'a', everyHours: 1, lastSync: at(-HOUR / 2).replace('Z', '') }]);
    expect(await s.scheduler.tick()).toEqual([]);
    s.advance(HOUR / 2);
    expect(await s.scheduler.tick()).toEqual(['a']);
  });
});
