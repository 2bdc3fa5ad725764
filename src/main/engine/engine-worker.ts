import { parentPort, workerData } from 'node:worker_threads';
import { toWireError } from '../errors';
import type { Logger } from '../logger';
import { CallGate, MAINTENANCE_ID } from './call-gate';
import { Engine } from './engine';
import { loadSqlJs } from './sqlite/sql-js';
import { isEngineMethod } from './engine-api';
import type { EngineWorkerData, FromEngine, ToEngine } from './engine-protocol';

/**
 * The engine thread: owns the catalogue and every open table, answers calls one at a time.
 * Calls are queued so an async operation (a write exporting its table) finishes before the
 * next one starts: requests never interleave halfway.
 */
const port = parentPort;
if (!port) throw new Error('engine-worker must run as a worker thread');
const send = (message: FromEngine): void => port.postMessage(message);

/** Problems are told to the main thread, whose injected logger decides where they go. */
const logger: Logger = {
  warn: (message) => send({ kind: 'log', level: 'warn', message }),
  error: (message, error) =>
    send({
      kind: 'log',
      level: 'error',
      message,
      ...(error === undefined ? {} : { detail: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    }),
};

let engine!: Engine;
try {
  await loadSqlJs(); // once, before any request: recovery paths need it synchronously
  engine = new Engine((workerData as EngineWorkerData).options, logger);
  send({ kind: 'ready' });
} catch (err) {
  send({ kind: 'failed', error: toWireError(err) });
  throw err;
}

const gate = new CallGate((workerData as EngineWorkerData).gate);

/** Checkpoints hold the call gate too: a crash during one is no call's doing. */
async function maintenanceTask(idleMs?: number): Promise<{ waiting: number }> {
  gate.enter(MAINTENANCE_ID);
  try {
    return await engine.maintenance(idleMs);
  } finally {
    gate.leave(MAINTENANCE_ID);
  }
}

let queue: Promise<void> = Promise.resolve();
let waiting = 0;
let idleTimer: NodeJS.Timeout | null = null;
let sizeCheckpointQueued = false;

const checkpointFailed = (err: unknown) => logger.error('checkpoint failed, the journal keeps the data:', err);

/**
 * When no request has come for a while, fold idle journals into new generations. The timer is
 * not pushed back by every request (steady traffic would postpone it for ever): it fires every
 * few seconds and only waits for a moment when nothing is queued.
 */
function scheduleMaintenance(): void {
  if (idleTimer) return;
  idleTimer = setTimeout(() => {
    idleTimer = null;
    if (waiting > 0) {
      scheduleMaintenance();
      return;
    }
    queue = queue.then(() =>
      maintenanceTask().then(({ waiting: journalsLeft }) => {
        // Journals not yet idle long enough: look again later, even if no request comes.
        if (journalsLeft > 0) scheduleMaintenance();
      }, checkpointFailed),
    );
  }, MAINTENANCE_DELAY_MS);
  idleTimer.unref();
}
const MAINTENANCE_DELAY_MS = 5_000;

/** A journal past its size threshold is checkpointed next in line, busy or not. */
function checkpointIfDue(): void {
  if (sizeCheckpointQueued || !engine.checkpointDue()) return;
  sizeCheckpointQueued = true;
  queue = queue
    .then(() => maintenanceTask(Infinity).then(() => undefined, checkpointFailed))
    .finally(() => {
      sizeCheckpointQueued = false;
    });
}

port.on('message', (message: ToEngine) => {
  if (message.kind === 'close') {
    queue = queue.then(async () => {
      await engine.close();
      send({ kind: 'closed' });
    });
    return;
  }
  const { id, method, args, writeId } = message;
  waiting++;
  queue = queue.then(async () => {
    gate.enter(id);
    if (writeId) engine.catalogue.beginWrite(writeId, args);
    try {
      if (!isEngineMethod(method)) throw new Error(`unknown engine method ${String(method)}`);
      const value = await (engine[method] as (...a: unknown[]) => unknown).apply(engine, args);
      send({ kind: 'result', id, value });
    } catch (err) {
      send({ kind: 'error', id, error: toWireError(err) });
    } finally {
      engine.catalogue.endWrite();
      gate.leave(id);
      checkpointIfDue();
      if (--waiting === 0) scheduleMaintenance();
    }
  });
});
