import { StorageError } from '../../errors';
import type { Logger } from '../../logger';
import type { SqlOutcome, SqlPlan } from './search-sql';
import { SQL_WORKER_LIMITS } from '../worker-limits';
import { WorkerCalls } from '../worker-calls';
import { queryError, queryTookTooLong, wrappedStatement } from './sql-errors';
import type { ToSqlWorker } from './sql-protocol';

/** The SQL worker itself stopped (not a query's error): the query is not run anywhere else. */
export class SqlWorkerStopped extends StorageError {}

/**
 * How long past its limit a query that did not stop itself (only recursive steps ask the
 * deadline, runtime-functions.ts) may go on before the worker is terminated.
 */
const STOP_GRACE_MS = 2_000;

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
  /** Each request carries its SQL, for the answer if the worker runs out of heap under it. */
  private readonly calls: WorkerCalls<SqlOutcome, string>;
  private closed = false;

  constructor(
    workerUrl: URL,
    private readonly logger: Logger,
  ) {
    this.calls = new WorkerCalls<SqlOutcome, string>(workerUrl, logger, {
      name: 'the SQL worker',
      // With a heap limit, running out of memory stops this worker alone (../worker-limits.ts).
      resourceLimits: SQL_WORKER_LIMITS,
      stopped: (code, outOfHeap, sql) =>
        sql === undefined
          ? new SqlWorkerStopped(`The SQL worker stopped (exit code ${code})`)
          : outOfHeap
            ? outOfMemory(sql)
            : new SqlWorkerStopped(`The SQL worker stopped unexpectedly (exit code ${code}) while running this query`),
    });
  }

  /** Starts the worker ahead of the first query (it loads sql.js), without waiting for it. */
  warm(): void {
    if (!this.closed) this.calls.warm();
  }

  /** Runs `plan`; past `timeoutMs` from its start it fails with "Query took too long". */
  run(plan: SqlPlan, timeoutMs: number): Promise<SqlOutcome> {
    return this.calls.serially(() => this.runNow(plan, timeoutMs));
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.calls.stop();
  }

  private async runNow(plan: SqlPlan, timeoutMs: number): Promise<SqlOutcome> {
    if (this.closed) throw new Error('the SQL worker is closed');
    let timer: NodeJS.Timeout | undefined;
    try {
      return await this.calls.call(
        (id) => ({ id, plan, timeoutMs }) satisfies ToSqlWorker,
        plan.sql,
        (id) => {
          timer = setTimeout(() => {
            this.calls.abandon(id, queryTookTooLong());
            this.logger.warn('stopping the SQL worker: a query ran too long (searches and writes were not held up)');
            void this.calls.stop();
          }, timeoutMs + STOP_GRACE_MS);
        },
      );
    } finally {
      clearTimeout(timer);
    }
  }
}
