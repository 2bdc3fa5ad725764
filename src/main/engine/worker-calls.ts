import { Worker, type ResourceLimits } from 'node:worker_threads';
import { type WireError, fromWireError } from '../errors';
import type { Logger } from '../logger';
import { isWorkerOutOfMemory } from './worker-limits';

/** What such a worker sends back: `{ready}` once started, then one answer per request id. */
export type FromCallWorker<Answer> =
  { readonly ready: true } | { readonly id: number; readonly value: Answer } | { readonly id: number; readonly error: WireError };

interface Waiting<Answer, Context> {
  readonly context: Context;
  resolve(value: Answer): void;
  reject(err: Error): void;
}

export interface WorkerCallsOptions<Context> {
  /** Which worker, in the log (`the SQL worker`). */
  readonly name: string;
  /** Its heap limit: running out of it stops this worker alone (worker-limits.ts). */
  readonly resourceLimits: ResourceLimits;
  /**
   * The error of a request whose worker stopped under it (`context`: what the request was
   * sent with; undefined when the worker stopped before it was ready), out of heap or not.
   */
  readonly stopped: (code: number, outOfHeap: boolean, context: Context | undefined) => Error;
}

/**
 * The main thread's side of a worker that answers requests one at a time (the SQL worker,
 * the changes worker): started on the first request or ahead of it, requests queued, each
 * answer matched to its request by id. A worker that exits (out of heap, say) fails the
 * requests it held, and the next request starts a new one; stopping it on purpose (a query
 * past its time, idleness) costs only what it held.
 */
export class WorkerCalls<Answer, Context = undefined> {
  private worker: Worker | null = null;
  private ready: Promise<Worker> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly waiting = new Map<number, Waiting<Answer, Context>>();
  private nextId = 1;

  constructor(
    private readonly workerUrl: URL,
    private readonly logger: Logger,
    private readonly options: WorkerCallsOptions<Context>,
  ) {}

  /** Runs `work` once every request queued before it has finished. */
  serially<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /**
   * Sends the message `build(id)` and waits for the answer to `id`; `context` is what the
   * `stopped` error is told; `onSent` gets the id once sent (to abandon the request later).
   */
  async call(build: (id: number) => unknown, context: Context, onSent?: (id: number) => void): Promise<Answer> {
    const worker = await this.started();
    const id = this.nextId++;
    return new Promise<Answer>((resolve, reject) => {
      this.waiting.set(id, { context, resolve, reject });
      worker.postMessage(build(id));
      onSent?.(id);
    });
  }

  /** Fails the request `id` with `err` now (its answer, if it comes, is dropped). */
  abandon(id: number, err: Error): void {
    const waiting = this.waiting.get(id);
    this.waiting.delete(id);
    waiting?.reject(err);
  }

  /** Starts the worker ahead of the first request, without waiting for it. */
  warm(): void {
    this.started().catch(() => undefined);
  }

  private started(): Promise<Worker> {
    if (!this.ready) {
      const { name, resourceLimits, stopped } = this.options;
      const worker = new Worker(this.workerUrl, { resourceLimits });
      this.worker = worker;
      let outOfHeap = false;
      this.ready = new Promise<Worker>((resolve, reject) => {
        worker.on('message', (message: FromCallWorker<Answer>) => {
          if ('ready' in message) return resolve(worker);
          const waiting = this.waiting.get(message.id);
          if (!waiting) return;
          this.waiting.delete(message.id);
          if ('error' in message) waiting.reject(fromWireError(message.error));
          else waiting.resolve(message.value);
        });
        worker.on('error', (err) => {
          outOfHeap = isWorkerOutOfMemory(err);
          reject(err);
          if (outOfHeap) this.logger.warn(`${name} ran out of memory; the next request starts a fresh one`);
          else this.logger.error(`${name} failed:`, err);
        });
        worker.on('exit', (code) => {
          if (this.worker !== worker) return; // stopped on purpose
          this.worker = null;
          this.ready = null;
          reject(stopped(code, outOfHeap, undefined));
          for (const [id, waiting] of this.waiting) {
            this.waiting.delete(id);
            waiting.reject(stopped(code, outOfHeap, waiting.context));
          }
        });
      });
    }
    return this.ready;
  }

  /** Terminates the worker (the next request starts a new one). */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    if (worker) await worker.terminate();
  }
}
