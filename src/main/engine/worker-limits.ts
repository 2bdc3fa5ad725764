import { getHeapStatistics } from 'node:v8';
import type { ResourceLimits } from 'node:worker_threads';
import { defaultMemoryBudgetBytes } from './memory-budget';

/**
 * Heap limits for every worker (docs/security.md, "worker memory"). A worker without
 * `resourceLimits` shares V8's fatal out-of-memory with the whole process: one query that ran
 * out of heap in the SQL worker ended the server. With them, a worker whose heap fills up is
 * stopped alone (`ERR_WORKER_OUT_OF_MEMORY`) and its owner answers the request it was running
 * and starts another. One thing they cannot do: a single allocation larger than what is left
 * (a text or an array of gigabytes in one go) is still fatal to the process in V8, which is
 * why what user input can make is capped before it is built (engine/sql/sql-limits.ts, the
 * import limits).
 */
const MiB = 1024 * 1024;

/** This process's own heap limit (V8's default from the machine's memory, or --max-old-space-size). */
function processHeapLimitMb(): number {
  return Math.round(getHeapStatistics().heap_size_limit / MiB);
}

/**
 * The SQL worker's JS heap holds nothing big for long: its table copies and answers are
 * outside it (SQLite's memory and transferable buffers), and every text a query builds is
 * capped at a few megabytes. 1 GiB leaves room for many of those at once.
 */
export const SQL_WORKER_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 1024 };

/**
 * An import worker's young generation (V8 makes it three semi-spaces): 4 MB semi-spaces
 * instead of V8's default 16. An import allocates a string per cell, and the threads' young
 * generations were a large part of an import's peak (issue 24, the 1M-row bench file with
 * V8's `--max-semi-space-size` on the CLI, alternating runs at load 9–17: 8 MB 561–580 MB
 * against 602–648; 4 MB 509–525 MB against 587–588); scavenges are more frequent but each is
 * smaller, and CPU time stayed within the runs' noise. The CLI runs the import itself on its
 * main thread (V8's default young generation): there this applies to the second worker.
 */
const IMPORT_YOUNG_GENERATION_MB = 12;

/**
 * Import workers read whole files into typed columns: as much heap as a worker had before
 * there were limits (the process's own), so that no import that worked fails now; what
 * changes is that running out of it stops that import only.
 */
export function importWorkerLimits(): ResourceLimits {
  return { maxOldGenerationSizeMb: processHeapLimitMb(), maxYoungGenerationSizeMb: IMPORT_YOUNG_GENERATION_MB };
}

/**
 * The engine worker holds the open resources, up to the memory budget (memory-budget.ts): at
 * least the process's own heap limit (what it had before), and more when the budget asks for
 * more, so that a large legitimate budget is not cut short by V8's default. Running out of it
 * restarts the engine worker, which reloads from disk (engine-client.ts).
 */
export function engineWorkerLimits(budgetBytes: number = defaultMemoryBudgetBytes()): ResourceLimits {
  return { maxOldGenerationSizeMb: Math.max(processHeapLimitMb(), Math.ceil(budgetBytes / MiB) + 1024) };
}

/** Whether a worker's `error` is Node stopping it at its heap limit. */
export function isWorkerOutOfMemory(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
}
