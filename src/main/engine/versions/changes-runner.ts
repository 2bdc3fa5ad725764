import { StorageError } from '../../errors';
import type { Logger } from '../../logger';
import { WorkerCalls } from '../worker-calls';
import type { ChangesAnswer, ChangesTask, ToChangesWorker } from './changes-protocol';

/** The worker goes away after this long without a request, and the diff it kept with it. */
const IDLE_STOP_MS = 120_000;
/** Its JavaScript heap: two versions' decoded texts of a few million rows fit well within. */
const HEAP_MB = 3072;

/**
 * The main thread's side of the changes worker (changes-worker.ts): one request at a time, the
 * worker started on the first and stopped when idle, so its memory is held only while someone
 * looks at changes. A worker that dies (out of memory, say) fails the request it was running
 * and the next request starts a new one.
 */
export class ChangesRunner {
  private readonly calls: WorkerCalls<ChangesAnswer>;
  private idle: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(workerUrl: URL, logger: Logger) {
    this.calls = new WorkerCalls<ChangesAnswer>(workerUrl, logger, {
      name: 'the changes worker',
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
      stopped: (code, outOfHeap) =>
        new StorageError(
          outOfHeap
            ? `Comparing these versions needed more than the ${HEAP_MB} MB of memory the changes worker has`
            : `The changes worker stopped (exit code ${code})`,
        ),
    });
  }

  run(task: ChangesTask): Promise<ChangesAnswer> {
    return this.calls.serially(async () => {
      if (this.closed) throw new StorageError('Deskstore is closing');
      if (this.idle) clearTimeout(this.idle);
      try {
        return await this.calls.call((id) => ({ id, task }) satisfies ToChangesWorker, undefined);
      } finally {
        this.idle = setTimeout(() => void this.calls.stop(), IDLE_STOP_MS);
        this.idle.unref();
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.idle) clearTimeout(this.idle);
    await this.calls.stop();
  }
}
