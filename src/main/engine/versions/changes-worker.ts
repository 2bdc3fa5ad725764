import { parentPort } from 'node:worker_threads';
import { toWireError } from '../../errors';
import type { TableStore } from '../column-store/table-store';
import { readColumnsFile } from '../storage/resource-files';
import { changePage } from './change-records';
import type { ChangesAnswer, ChangesTask, FromChangesWorker, ToChangesWorker } from './changes-protocol';
import { countsOf, diffStores, type RowDiff } from './row-diff';

/**
 * The changes worker: computes `deskstore_changes` (row-diff.ts) away from the engine worker,
 * which goes on answering searches and writes meanwhile. A diff of a million rows takes
 * seconds and pages are asked for one after another (the window's Changes view scrolls), so
 * the last diff is kept with the two versions it compares. Generations never change once
 * written and a diff reads everything it needs from their files while it is computed, so a
 * kept diff stays right even after a checkpoint or a dropped version deletes those files.
 */
const port = parentPort;
if (!port) throw new Error('changes-worker must run as a worker thread');

interface KeptDiff {
  readonly id: string;
  readonly before: TableStore;
  readonly after: TableStore;
  readonly diff: RowDiff;
}

/** One diff is kept: it holds two versions of a resource in memory. */
let kept: KeptDiff | null = null;

function diffFor(task: ChangesTask): KeptDiff {
  const { plan } = task;
  const id = JSON.stringify([plan.dir, plan.from.generation, plan.to.generation, task.key ?? null, plan.primaryKey, plan.rowIdsStable]);
  if (kept?.id !== id) {
    kept = null; // its memory goes before the next diff takes more
    kept = { id, ...compute(task) };
  }
  return kept;
}

function compute(task: ChangesTask): Omit<KeptDiff, 'id'> {
  const { plan } = task;
  const before = readColumnsFile(plan.dir, plan.from.generation).store;
  const after = readColumnsFile(plan.dir, plan.to.generation).store;
  const diff = diffStores(before, after, {
    ...(task.key ? { key: task.key } : {}),
    primaryKey: plan.primaryKey,
    rowIdsStable: plan.rowIdsStable,
  });
  return { before, after, diff };
}

function answer(task: ChangesTask): ChangesAnswer {
  const { before, after, diff } = diffFor(task);
  const page = changePage(diff, before, after, task.change, task.offset, task.limit, task.format);
  return { key: diff.key, keyReason: diff.reason, counts: countsOf(diff), total: page.total, fields: page.fields, records: page.records };
}

port.on('message', ({ id, task }: ToChangesWorker) => {
  let reply: FromChangesWorker;
  try {
    reply = { id, value: answer(task) };
  } catch (err) {
    reply = { id, error: toWireError(err) };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true } satisfies FromChangesWorker);
