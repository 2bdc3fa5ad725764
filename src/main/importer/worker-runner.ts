import { Worker } from 'node:worker_threads';
import { fromWireError } from '../errors';
import { importCancelled } from './import-errors';
import type { ImportChoices, ImportRunner } from './import-job';
import type { ImportWorkerMessage, ImportWorkerTask } from './import-worker-protocol';
import type { ImportPreview } from '../../shared/wire/import';

/** Runs one task in a new worker until `onMessage` returns its answer; failures and aborts reject. */
export function runTask<T>(
  workerUrl: URL, task: ImportWorkerTask, onMessage: (m: ImportWorkerMessage) => T | undefined, signal?: AbortSignal,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl, { workerData: task });
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      fn();
      void worker.terminate();
    };
    const onAbort = () => finish(() => reject(importCancelled()));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort);
    worker.on('message', (m: ImportWorkerMessage) => {
      if (m.kind === 'failed') return finish(() => reject(fromWireError(m.error)));
      const value = onMessage(m);
      if (value !== undefined) finish(() => resolve(value));
    });
    worker.on('error', (err) => finish(() => reject(err)));
    worker.on('exit', (code) => finish(() => reject(new Error(`the import worker stopped (exit code ${code})`))));
  });
}

/** An ImportRunner that runs each import in its own worker; aborting terminates it. */
export function workerImportRunner(workerUrl: URL, signal?: AbortSignal): ImportRunner {
  return async (options, onProgress, onSearchable) => {
    let publishing: Promise<void> | null = null;
    const result = await runTask(workerUrl, { mode: 'import', options }, (m) => {
      if (m.kind === 'progress') onProgress(m.progress);
      if (m.kind === 'searchable') {
        publishing = onSearchable(m.result);
        publishing.catch(() => {}); // awaited below
      }
      return m.kind === 'done' ? m.result : undefined;
    }, signal);
    if (publishing) await publishing;
    return result;
  };
}

export function previewInWorker(workerUrl: URL, path: string, choices: ImportChoices): Promise<ImportPreview> {
  return runTask(workerUrl, { mode: 'preview', path, choices }, (m) => (m.kind === 'preview' ? m.preview : undefined));
}
