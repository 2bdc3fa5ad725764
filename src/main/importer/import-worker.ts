import { parentPort, workerData } from 'node:worker_threads';
import { toWireError } from '../errors';
import { importCsv } from './import-csv';
import type { ImportWorkerMessage, ImportWorkerTask } from './import-worker-protocol';
import { previewCsv } from './preview';

/**
 * One import (or one preview) per worker: parsing, typing, indexing and writing a million
 * rows never touch the thread that answers HTTP or the engine thread that answers searches.
 * Cancelling an import terminates this worker; it only ever wrote unpublished files.
 */
const port = parentPort;
if (!port) throw new Error('import-worker must run as a worker thread');
const send = (m: ImportWorkerMessage): void => port.postMessage(m);
const task = workerData as ImportWorkerTask;

const work = task.mode === 'preview'
  ? previewCsv(task.path, task.choices).then((preview) => send({ kind: 'preview', preview }))
  : importCsv({ ...task.options, onProgress: (progress) => send({ kind: 'progress', progress }) })
    .then((result) => send({ kind: 'done', result }));
work.catch((err: unknown) => send({ kind: 'failed', error: toWireError(err) }));
