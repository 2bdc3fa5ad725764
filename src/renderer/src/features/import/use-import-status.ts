import { useEffect, useState } from 'react';
import { call } from '../../api/client';
import { isAbort } from '../../api/errors';
import type { ImportJobStatus } from '../../../../shared/wire/import';
import { addSample, isFinished, type ProgressSample } from './progress-math';

const POLL_MS = 400;

export interface StatusPoll {
  readonly status: ImportJobStatus | null;
  /** The last status seen while the job was still pending or running. */
  readonly lastActive: ImportJobStatus | null;
  readonly samples: readonly ProgressSample[];
  readonly error: unknown;
}

/** Polls deskstore_import_status until the job ends; keeps recent samples for the rate. */
export function useImportStatus(resourceId: string): StatusPoll {
  const [poll, setPoll] = useState<StatusPoll & { id: string }>({
    id: resourceId,
    status: null,
    lastActive: null,
    samples: [],
    error: null,
  });
  useEffect(() => {
    let timer = 0;
    let stopped = false;
    const controller = new AbortController();
    const tick = () => {
      call('deskstore_import_status', { resource_id: resourceId }, { signal: controller.signal }).then(
        (status) => {
          if (stopped) return;
          const sample = { at: performance.now(), rows: status.rows_done, bytes: status.bytes_done };
          setPoll((p) => {
            const same = p.id === resourceId;
            return {
              id: resourceId,
              status,
              error: null,
              lastActive: isFinished(status) ? (same ? p.lastActive : null) : status,
              samples: addSample(same ? p.samples : [], sample),
            };
          });
          if (!isFinished(status)) timer = window.setTimeout(tick, POLL_MS);
        },
        (error: unknown) => {
          if (stopped || isAbort(error)) return;
          setPoll((p) => ({ ...p, id: resourceId, error }));
          // the server may be busy or restarting: keep trying, more slowly
          timer = window.setTimeout(tick, POLL_MS * 5);
        },
      );
    };
    tick();
    return () => {
      stopped = true;
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [resourceId]);
  return poll.id === resourceId ? poll : { status: null, lastActive: null, samples: [], error: null };
}
