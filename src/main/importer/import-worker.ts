import { parentPort, workerData } from 'node:worker_threads';
import { isActionError, toWireError } from '../errors';
import { diffGenerations, runTextIndexTask } from '../engine/importer-api';
import { optional } from '../../shared/optional';
import { wordedFailure, wordingOf } from './import-errors';
import { importFile } from './import-file';
import { serveImportHelper } from './import-helper';
import type { ImportWorkerMessage, ImportWorkerTask } from './import-worker-protocol';
import { previewFile } from './preview';
import { importTypedRows } from './typed-import';

/**
 * One import (or one preview) per worker: parsing, typing, indexing and writing a million
 * rows never touch the thread that answers HTTP or the engine thread that answers searches.
 * Cancelling an import terminates this worker, which gives its memory back at once; it only
 * ever wrote unpublished files.
 */
const port = parentPort;
if (!port) throw new Error('import-worker must run as a worker thread');
const send = (m: ImportWorkerMessage): void => port.postMessage(m);
const task = workerData as ImportWorkerTask;

const self = new URL(import.meta.url);

async function work(): Promise<void> {
  switch (task.mode) {
    case 'preview':
      send({ kind: 'preview', preview: await previewFile(task.path, task.name, task.choices) });
      return;
    case 'text-index': {
      const { meta, buffers } = runTextIndexTask(task.task);
      port!.postMessage(
        { kind: 'text-index', meta, buffers } satisfies ImportWorkerMessage,
        buffers.map((b) => b.buffer as ArrayBuffer),
      );
      return;
    }
    case 'typed':
      send({
        kind: 'typed-done',
        result: await importTypedRows({
          ...task.options,
          textIndexWorker: self,
          onProgress: (rows) => send({ kind: 'typed-progress', rows }),
        }),
      });
      return;
    case 'helper':
      serveImportHelper(port!);
      return;
    case 'diff':
      // A downloaded file's rows have no ids of their own: they are matched by a key, or whole.
      send({ kind: 'diff', changes: diffGenerations(task.dir, task.before, task.after, { primaryKey: [], rowIdsStable: false }) });
      return;
    case 'import':
      send({
        kind: 'done',
        result: await importFile({
          ...task.options,
          textIndexWorker: self,
          onProgress: (progress) => send({ kind: 'progress', progress }),
          // The parent publishes while this worker goes on to fill the SQLite table.
          onSearchable: async (result) => send({ kind: 'searchable', result }),
        }),
      });
  }
}
// Every failure reaches the user as a coded message (errors of Deskstore's own kinds, such as a
// full disk, keep theirs); a stack trace never does.
work().catch((err: unknown) =>
  send({
    kind: 'failed',
    error: toWireError(err),
    ...optional('worded', wordingOf(err) ?? (isActionError(err) ? undefined : wordedFailure(err))),
  }),
);
