import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { DeleteRequest } from './datastore/delete';
import type { UpsertRequest } from './datastore/upsert';
import { StorageError, fromWireError } from '../errors';
import type { Logger } from '../logger';
import { CallGate, MAINTENANCE_ID } from './call-gate';
import type { EngineOptions, WriteOutcome } from './engine';
import { ENGINE_METHODS, WRITE_METHODS, type EngineApi, type EngineMethod } from './engine-api';
import type { EngineWorkerData, FromEngine, ToEngine } from './engine-protocol';
import { engineWorkerLimits } from './worker-limits';

interface Pending {
  readonly method: EngineMethod;
  readonly args: unknown[];
  /** A write's id (WRITE_METHODS): after a crash, how the fresh worker tells whether it was saved. */
  readonly writeId?: string;
  resolve(value: unknown): void;
  reject(err: Error): void;
  /** The worker the call was sent to (a call sent to a worker that died is sent again). */
  sentTo?: Worker;
}

export interface EngineClient {
  readonly api: EngineApi;
  close(): Promise<void>;
}

/**
 * A write's arguments with its id where the journal needs it: a row write (not a dry run, not
 * the drop of a whole table, which a catalogue commit saves) writes it into its entry.
 */
function withJournalWriteId(method: EngineMethod, args: unknown[], writeId: string): unknown[] {
  if (method === 'datastoreUpsert') {
    const req = args[0] as UpsertRequest;
    if (!req.dryRun) return [{ ...req, writeId } satisfies UpsertRequest, ...args.slice(1)];
  }
  if (method === 'datastoreDelete') {
    const req = args[0] as DeleteRequest;
    if (req.filters !== undefined && req.filters !== null) return [{ ...req, writeId } satisfies DeleteRequest, ...args.slice(1)];
  }
  return args;
}

const stoppedWhile = (code: number): string =>
  `The Deskstore engine stopped unexpectedly (exit code ${code}) while answering this request; it restarted. `;

/** Only if the fresh worker cannot tell whether a write was saved (it could not read the table). */
const unknownOutcome = (code: number): StorageError =>
  new StorageError(stoppedWhile(code) + 'The write may or may not have been saved: check the data before retrying it.');

/** A read, or a checkpoint: nothing of the data changed. */
const readStopped = (code: number): StorageError => new StorageError(stoppedWhile(code) + 'Nothing was changed: send the request again.');

/**
 * Runs the engine in a worker thread and returns a typed proxy to it. Every call is a
 * message; the worker runs them one at a time, in order. Nothing user-controlled runs there
 * without bound (user SQL runs in the SQL worker), so no call is ever stopped from outside. If
 * the worker dies, a fresh one is started, which reloads from disk (everything acknowledged
 * is there); the call gate (call-gate.ts) says which call was running: a write is answered
 * from where it would have been saved, and the calls queued behind it, which never started,
 * are sent again to the fresh worker and get their real answers.
 */
export async function startEngineWorker(options: EngineOptions, workerUrl: URL, logger: Logger): Promise<EngineClient> {
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let closed = false;
  let worker!: Worker;
  let ready!: Promise<void>;

  const settle = (id: number): Pending | undefined => {
    const p = pending.get(id);
    if (!p) return undefined;
    pending.delete(id);
    return p;
  };

  const send = (id: number, p: Pending): void => {
    p.sentTo = worker;
    worker.postMessage({
      kind: 'call',
      id,
      method: p.method,
      args: p.args,
      ...(p.writeId ? { writeId: p.writeId } : {}),
    } satisfies ToEngine);
  };

  /** Sends again, in order, every call the old worker received but provably never started. */
  const resend = async (old: Worker): Promise<void> => {
    await ready;
    for (const [id, p] of [...pending].sort(([a], [b]) => a - b)) {
      if (p.sentTo === old) send(id, p);
    }
  };

  const spawn = (): Promise<void> => {
    const callGate = new CallGate();
    // A heap limit: running out of memory restarts the engine worker instead of ending the process.
    const w = new Worker(workerUrl, {
      workerData: { options, gate: callGate.buffer } satisfies EngineWorkerData,
      resourceLimits: engineWorkerLimits(options.memoryBudgetBytes),
    });
    worker = w;
    ready = new Promise<void>((resolve, reject) => {
      w.on('message', (message: FromEngine) => {
        if (message.kind === 'log') {
          if (message.level === 'warn') logger.warn(message.message);
          else logger.error(message.message, message.detail);
        } else if (message.kind === 'ready') resolve();
        else if (message.kind === 'failed') reject(fromWireError(message.error));
        else if (message.kind === 'result') settle(message.id)?.resolve(message.value);
        else if (message.kind === 'error') settle(message.id)?.reject(fromWireError(message.error));
      });
      w.on('error', (err) => {
        reject(err);
        if (worker === w) logger.error('the engine worker failed:', err);
      });
      w.on('exit', (code) => {
        if (closed || worker !== w) return;
        logger.warn(`the engine worker stopped unexpectedly (exit code ${code}); restarting it`);
        // A crash: only the call it was running may have done anything; the rest never started.
        const runningId = callGate.running();
        const crashed = runningId === null ? undefined : settle(runningId);
        if (crashed && !crashed.writeId) crashed.reject(readStopped(code));
        const replaced = w;
        void spawn().then(
          async () => {
            // Before anything else runs on the fresh worker: the journal or the catalogue says whether it was saved.
            if (crashed?.writeId) await answerCrashedWrite(crashed, crashed.writeId, code);
            await resend(replaced);
          },
          (err: unknown) => {
            crashed?.reject(unknownOutcome(code));
            for (const id of [...pending.keys()]) settle(id)?.reject(err instanceof Error ? err : new Error(String(err)));
          },
        );
      });
    });
    return ready;
  };
  await spawn();

  /**
   * A write the worker crashed in: saved (its id is in the journal or the catalogue the fresh
   * worker read) gets the answer it would have had; not saved gets an error that says so, and
   * that retrying is safe. Only if the fresh worker cannot tell does the answer stay "unknown".
   */
  const answerCrashedWrite = async (crashed: Pending, writeId: string, code: number): Promise<void> => {
    let outcome: WriteOutcome;
    try {
      outcome = (await call('writeOutcome', [crashed.method, crashed.args, writeId])) as WriteOutcome;
    } catch {
      crashed.reject(unknownOutcome(code));
      return;
    }
    if (outcome.saved) crashed.resolve(outcome.answer);
    else {
      crashed.reject(
        new StorageError(stoppedWhile(code) + 'The write was not saved: nothing of it is in the data, and sending it again is safe.'),
      );
    }
  };

  const call = async (method: EngineMethod, args: unknown[]): Promise<unknown> => {
    if (closed) throw new Error('the engine is closed');
    const writeId = WRITE_METHODS.has(method) ? randomUUID() : undefined;
    if (writeId) args = withJournalWriteId(method, args, writeId);
    await ready;
    const id = nextId;
    nextId = nextId >= MAINTENANCE_ID - 1 ? 1 : nextId + 1;
    return new Promise((resolve, reject) => {
      const entry: Pending = { method, args, resolve, reject, ...(writeId ? { writeId } : {}) };
      pending.set(id, entry);
      send(id, entry);
    });
  };

  const api: Partial<Record<EngineMethod, unknown>> = {};
  for (const method of ENGINE_METHODS) api[method] = (...args: unknown[]) => call(method, args);

  return {
    api: api as EngineApi,
    async close() {
      if (closed) return;
      closed = true;
      const w = worker;
      await new Promise<void>((resolve) => {
        w.on('message', (m: FromEngine) => {
          if (m.kind === 'closed') resolve();
        });
        w.once('exit', () => resolve());
        w.postMessage({ kind: 'close' } satisfies ToEngine);
      });
      await w.terminate();
    },
  };
}
