import { Worker, type ResourceLimits } from 'node:worker_threads';
import { fromWireError } from '../errors';
import type { EncodedTextIndex, TextIndexHelper } from '../engine/engine-api';
import type { ImportPreview } from '../../shared/wire/import';
import type { RowChanges } from '../../shared/portal';
import { message } from '../../shared/messages';
import { importWorkerLimits, isWorkerOutOfMemory } from '../engine/importer-api';
import { ImportInputError, importCancelled } from './import-errors';
import type { ImportRunner } from './import-job';
import type { ImportChoices } from './import-types';
import type { ImportWorkerMessage, ImportWorkerTask } from './import-worker-protocol';
import type { TypedImportOptions, TypedImportResult } from './typed-import';

/**
 * Runs one task in a new worker until `onMessage` returns its answer; failures and aborts
 * reject. The worker has a heap limit: running out of memory stops it alone and rejects with
 * a worded error (engine/worker-limits.ts).
 */
export function runTask<T>(
  workerUrl: URL,
  task: ImportWorkerTask,
  onMessage: (m: ImportWorkerMessage) => T | undefined,
  signal?: AbortSignal,
  limits: ResourceLimits = importWorkerLimits(),
): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl, { workerData: task, resourceLimits: limits });
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      fn();
      // Terminating the worker is what gives a cancelled import's memory back.
      void worker.terminate();
    };
    const onAbort = () => finish(() => reject(importCancelled()));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort);
    worker.on('message', (m: ImportWorkerMessage) => {
      if (m.kind === 'failed') return finish(() => reject(m.worded ? new ImportInputError(m.worded) : fromWireError(m.error)));
      const value = onMessage(m);
      if (value !== undefined) finish(() => resolve(value));
    });
    worker.on('error', (err) => finish(() => reject(isWorkerOutOfMemory(err) ? importOutOfMemory(limits) : err)));
    worker.on('exit', (code) => finish(() => reject(new Error(`the import worker stopped (exit code ${code})`))));
  });
}

function importOutOfMemory(limits: ResourceLimits): ImportInputError {
  const max = `${limits.maxOldGenerationSizeMb} MB`;
  return new ImportInputError(
    message(
      'limits.out_of_memory',
      `Importing this file needed more memory than an import may use (${max}); nothing was changed. Split the file, or import it as CSV.`,
      { max },
    ),
  );
}

/** An ImportRunner that runs each import in its own worker; aborting terminates it. */
export function workerImportRunner(workerUrl: URL, signal?: AbortSignal): ImportRunner {
  return async (options, onProgress, onSearchable) => {
    let publishing: Promise<void> | null = null;
    const result = await runTask(
      workerUrl,
      { mode: 'import', options },
      (m) => {
        if (m.kind === 'progress') onProgress(m.progress);
        if (m.kind === 'searchable') {
          publishing = onSearchable(m.result);
          publishing.catch(() => {}); // awaited below
        }
        return m.kind === 'done' ? m.result : undefined;
      },
      signal,
    );
    if (publishing) await publishing;
    return result;
  };
}

export function previewInWorker(workerUrl: URL, path: string, name: string, choices: ImportChoices): Promise<ImportPreview> {
  return runTask(workerUrl, { mode: 'preview', path, name, choices }, (m) => (m.kind === 'preview' ? m.preview : undefined));
}

/** Half of a full-text index built in a second import worker (the engine asks for it). */
export function textIndexHelperIn(workerUrl: URL): TextIndexHelper {
  return (task) =>
    runTask<EncodedTextIndex>(workerUrl, { mode: 'text-index', task }, (m) =>
      m.kind === 'text-index' ? { meta: m.meta, buffers: m.buffers } : undefined,
    );
}

/** importTypedRows in its own worker; aborting terminates it. */
export function typedImportInWorker(
  workerUrl: URL,
  options: Omit<TypedImportOptions, 'onProgress' | 'signal' | 'textIndexWorker'>,
  onProgress: (rows: number) => void,
  signal?: AbortSignal,
): Promise<TypedImportResult> {
  return runTask(
    workerUrl,
    { mode: 'typed', options },
    (m) => {
      if (m.kind === 'typed-progress') onProgress(m.rows);
      return m.kind === 'typed-done' ? m.result : undefined;
    },
    signal,
  );
}

/** What changed between two generations of a resource's files (read in a worker: both may be big). */
export function diffInWorker(workerUrl: URL, dir: string, before: number, after: number): Promise<RowChanges | null> {
  return runTask(workerUrl, { mode: 'diff', dir, before, after }, (m) => (m.kind === 'diff' ? (m.changes ?? null) : undefined));
}
