import { useEffect, useState } from 'react';
import type { PortalJobStatus } from '../../../../shared/portal';
import { portalApi } from './portal-api';

const FINISHED = new Set(['complete', 'error', 'cancelled']);

export const isJobFinished = (job: PortalJobStatus): boolean => FINISHED.has(job.status);

/** Follows a portal job until it ends (twice a second while it runs). */
export function usePortalJob(started: PortalJobStatus | null): PortalJobStatus | null {
  const [polled, setPolled] = useState<PortalJobStatus | null>(null);
  useEffect(() => {
    if (!started) return undefined;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = () => {
      portalApi.job(started.job_id, controller.signal).then(
        (next) => {
          setPolled(next);
          if (!isJobFinished(next)) timer = setTimeout(poll, 500);
        },
        () => {
          if (!controller.signal.aborted) timer = setTimeout(poll, 1500);
        },
      );
    };
    poll();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [started]);
  return started && polled?.job_id === started.job_id ? polled : started;
}
