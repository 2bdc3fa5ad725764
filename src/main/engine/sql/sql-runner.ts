import { Worker } from 'node:worker_threads';
import { StorageError, fromWireError } from '../../errors';
import type { Logger } from '../../logger';
import type { SqlOutcome, SqlPlan } from './search-sql';
import { isWorkerOutOfMemory, SQL_WORKER_LIMITS } from '../worker-limits';
import { queryError, queryTookTooLong, wrappedStatement } from './sql-errors';
import type { FromSqlWorker, ToSqlWorker } from './sql-protocol';

/** The SQL worker itself stopped (not a query's error): the query is not run anywhere else. */
export class SqlWorkerStopped extends StorageError {}

/**
 * How long past its limit a query that did not stop itself (only recursive steps ask the
 * deadline, runtime-functions.ts) may go on before the worker is terminated.
 */
const STOP_GRACE_MS = 2_000;

interface Waiting {
  readonly sql: string;
  resolve(value: SqlOutcome): void;
  reject(err: Error): void;
}

/** What the query running when the SQL worker ran out of heap is answered (CKAN's shape for a failed query). */
function outOfMemory(sql: string): Error {
  const message = `out of memory: the query needed more than the ${SQL_WORKER_LIMITS.maxOldGenerationSizeMb} MB Deskstore gives SQL; select fewer rows or columns, or aggregate`;
  return queryError(message, wrappedStatement(sql));
}

/**
 * The main thread's side of the SQL worker (sql-worker.ts): one query at a time, each with its
 * time limit counted from when it is handed to the idle worker, which runs it with that
 * deadline. A recursive query stops itself there; any other query still running a moment
 * later gets the worker terminated, and the next query starts a fresh one. Nothing else runs
 * there, so stopping it never touches a search, a write or an import: the engine worker goes
 * on answering them.
 */
export class SqlRunner {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly workerUrl: URL,
    private readonly logger: Logger,
  ) {}

  /** Starts the worker ahead of the first query (it loads sql.js), without waiting for it. */
  warm(): void {
    if (!this.closed) this.started().catch(() => undefined);
  }

  /** Runs `plan`; past `timeoutMs` from its start it fails with "Query took too long". */
  run(plan: SqlPlan, timeoutMs: number): Promise<SqlOutcome> {
    const result = this.queue.then(() => this.runNow(plan, timeoutMs));
    this.queue = result.catch(() => undefined);
    return result;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stop();
  }

  private async runNow(plan: SqlPlan, timeoutMs: number): Promise<SqlOutcome> {
    if (this.closed) throw new Error('the SQL worker is closed');
    const worker = await this.started();
    const id = this.nextId++;
    return new Promise<SqlOutcome>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(queryTookTooLong());
        this.logger.warn('stopping the SQL worker: a query ran too long (searches and writes were not held up)');
        void this.stop();
      }, timeoutMs + STOP_GRACE_MS);
      const done = () => clearTimeout(timer);
      this.waiting.set(id, {
        sql: plan.sql,
        resolve: (value) => (done(), resolve(value)),
        reject: (err) => (done(), reject(err)),
      });
      worker.postMessage({ id, plan, timeoutMs } satisfies ToSqlWorker);
    });
  }

  private started(): Promise<Worker> {
    if (!this.ready) {
      // With a heap limit, running out of memory stops this worker alone (../worker-limits.ts).
      const worker = new Worker(this.workerUrl, { resourceLimits: SQL_WORKER_LIMITS });
      this.worker = worker;
      let outOfHeap = false;
      this.ready = new Promise<void>((resolve, reject) => {
        worker.on('message', (message: FromSqlWorker) => {
          if ('ready' in message) return resolve();
          const waiting = this.waiting.get(message.id);
          if (!waiting) return;
          this.waiting.delete(message.id);
          if ('error' in message) waiting.reject(fromWireError(message.error));
          else waiting.resolve(message.value);
        });
        worker.on('error', (err) => {
          outOfHeap = isWorkerOutOfMemory(err);
          reject(err);
          if (outOfHeap) this.logger.warn('the SQL worker ran out of memory; the next query starts a fresh one');
          else this.logger.error('the SQL worker failed:', err);
        });
        worker.on('exit', (code) => {
          if (this.worker !== worker) return; // stopped on purpose
          this.worker = null;
          this.ready = null;
          reject(new SqlWorkerStopped(`The SQL worker stopped (exit code ${code})`));
          for (const [id, waiting] of this.waiting) {
            this.waiting.delete(id);
            waiting.reject(
              outOfHeap
                ? outOfMemory(waiting.sql)
                : new SqlWorkerStopped(`The SQL worker stopped unexpectedly (exit code ${code}) while running this query`),
            );
          }
        });
      });
    }
    return this.ready.then(() => this.worker!);
  }

  private async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    if (worker) await worker.terminate();
  }
}
