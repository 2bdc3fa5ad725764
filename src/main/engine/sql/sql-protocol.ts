import type { FromCallWorker } from '../worker-calls';
import type { SqlOutcome, SqlPlan } from './search-sql';

/** Messages between the main thread (sql-runner.ts) and the SQL worker (sql-worker.ts). */
export interface ToSqlWorker {
  readonly id: number;
  readonly plan: SqlPlan;
  /** The query's time limit, counted from when the worker receives it. */
  readonly timeoutMs: number;
}

export type FromSqlWorker = FromCallWorker<SqlOutcome>;
