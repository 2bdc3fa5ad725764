import { Worker } from 'node:worker_threads';
import { StorageError, fromWireError } from '../../errors';
import type { Logger } from '../../logger';
import type { ChangesAnswer, ChangesTask, FromChangesWorker, ToChangesWorker } from './changes-protocol';

/** The worker goes away after this long without a request, and the diff it kept with it. */
const IDLE_STOP_MS = 120_000;
/** Its JavaScript heap: two versions' decoded texts of a few million rows fit well within. */
const HEAP_MB = 3072;

interface Waiting {
  resolve(value: ChangesAnswer): void;
  reject(err: Error): void;
}

/**
 * The main thread's side of the changes worker (changes-worker.ts): one request at a time, the
 * worker started on the first and stopped when idle, so its memory is held only while someone
 * looks at changes. A worker that dies (out of memory, say) fails the request it was running
 * and the next request starts a new one.
 */
export class ChangesRunner {
  private worker: Worker | null = null;
  private ready: Promise<Worker> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private idle: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly workerUrl: URL,
    private readonly logger: Logger,
  ) {}

  run(task: ChangesTask): Promise<ChangesAnswer> {
    const result = this.queue.then(() => this.runNow(task));
    this.queue = result.catch(() => undefined);
    return result;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stop();
  }

  private async runNow(task: ChangesTask): Promise<ChangesAnswer> {
    if (this.closed) throw new StorageError('Deskstore is closing');
    if (this.idle) clearTimeout(this.idle);
    const worker = await this.started();
    const id = this.nextId++;
    try {
      return await new Promise<ChangesAnswer>((resolve, reject) => {
        this.waiting.set(id, { resolve, reject });
        worker.postMessage({ id, task } satisfies ToChangesWorker);
      });
    } finally {
      this.idle = setTimeout(() => void this.stop(), IDLE_STOP_MS);
      this.idle.unref();
    }
  }

  private started(): Promise<Worker> {
    if (!this.ready) {
      const worker = new Worker(this.workerUrl, { resourceLimits: { maxOldGenerationSizeMb: HEAP_MB } });
      this.worker = worker;
      this.ready = new Promise<Worker>((resolve, reject) => {
        worker.on('message', (message: FromChangesWorker) => {
          if ('ready' in message) return resolve(worker);
          const waiting = this.waiting.get(message.id);
          if (!waiting) return;
          this.waiting.delete(message.id);
          if ('error' in message) waiting.reject(fromWireError(message.error));
          else waiting.resolve(message.value);
        });
        worker.on('error', (err) => {
          reject(err);
          this.logger.error('the changes worker failed:', err);
        });
        worker.on('exit', (code) => {
          if (this.worker !== worker) return; // stopped on purpose
          this.worker = null;
          this.ready = null;
          const stopped = new StorageError(`The changes worker stopped (exit code ${code}); the comparison may need more memory than it has`);
          reject(stopped);
          for (const [id, waiting] of this.waiting) {
            this.waiting.delete(id);
            waiting.reject(stopped);
          }
        });
      });
    }
    return this.ready;
  }

  private async stop(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    if (worker) await worker.terminate();
  }
}
