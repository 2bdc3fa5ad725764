import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { DeleteRequest } from './datastore/delete';
import type { UpsertRequest } from './datastore/upsert';
import { StorageError, fromWireError } from '../errors';
import type { Logger } from '../logger';
import { CallGate, MAINTENANCE_ID } from './call-gate';
import type { EngineOptions } from './engine';
import { ENGINE_METHODS, type EngineApi, type EngineMethod } from './engine-api';
import type { EngineWorkerData, FromEngine, ToEngine } from './engine-protocol';

interface Pending {
  readonly method: EngineMethod;
  readonly args: unknown[];
  readonly limits?: CallLimits;
  resolve(value: unknown): void;
  reject(err: Error): void;
  /** The worker the call was sent to (a call sent to a worker being replaced is sent again). */
  sentTo?: Worker;
  timer?: NodeJS.Timeout;
}

export interface CallLimits {
  /**
   * Past this, counted from when the call starts running (not from when it was queued), the
   * worker is terminated and restarted and the call fails with `onTimeout()`.
   */
  readonly timeoutMs: number;
  readonly onTimeout: () => Error;
}

export interface EngineClient {
  readonly api: EngineApi;
  /** A call with a time limit (datastore_search_sql): sql.js cannot be interrupted from outside. */
  callWithLimit<M extends EngineMethod>(limits: CallLimits, method: M, ...args: Parameters<EngineApi[M]>): ReturnType<EngineApi[M]>;
  /** How many times the worker was restarted (a query hit its limit, or the worker died). */
  readonly restarts: number;
  close(): Promise<void>;
}

/**
 * Writes whose outcome a crash must not leave unknown (row writes, which go through the
 * journal; not a dry run, not the drop of a whole table): each gets an id for its entry.
 */
function withWriteId(method: EngineMethod, args: unknown[]): unknown[] {
  if (method === 'datastoreUpsert') {
    const req = args[0] as UpsertRequest;
    if (!req.dryRun) return [{ ...req, writeId: randomUUID() } satisfies UpsertRequest, ...args.slice(1)];
  }
  if (method === 'datastoreDelete') {
    const req = args[0] as DeleteRequest;
    if (req.filters !== undefined && req.filters !== null)
      return [{ ...req, writeId: randomUUID() } satisfies DeleteRequest, ...args.slice(1)];
  }
  return args;
}

function writeIdOf(p: Pending): { resourceId: string; writeId: string } | undefined {
  if (p.method !== 'datastoreUpsert' && p.method !== 'datastoreDelete') return undefined;
  const req = p.args[0] as UpsertRequest | DeleteRequest;
  return req.writeId ? { resourceId: req.resourceId, writeId: req.writeId } : undefined;
}

/** What a saved write would have answered: datastoreUpsert nothing, datastoreDelete the table's id. */
const savedAnswer = (method: EngineMethod, resourceId: string): unknown => (method === 'datastoreDelete' ? { resourceId } : undefined);

const unknownOutcome = (code: number): StorageError =>
  new StorageError(
    `The Deskstore engine stopped unexpectedly (exit code ${code}) while answering this request; it restarted. ` +
      'A write may or may not have been saved: check the data before retrying it.',
  );

/**
 * Runs the engine in a worker thread and returns a typed proxy to it. Every call is a
 * message; the worker runs them one at a time, in order. A call that outlives its limit gets
 * the worker terminated and a fresh one started, which reloads from disk (everything
 * acknowledged is there). The call gate (call-gate.ts) makes that safe for everyone else: the
 * worker is stopped only while the slow call itself runs, so the calls queued behind it never
 * started and are sent again to the fresh worker, with their real answers.
 */
export async function startEngineWorker(options: EngineOptions, workerUrl: URL, logger: Logger): Promise<EngineClient> {
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let closed = false;
  let restarts = 0;
  let worker!: Worker;
  let gate!: CallGate;
  let ready!: Promise<void>;

  const settle = (id: number): Pending | undefined => {
    const p = pending.get(id);
    if (!p) return undefined;
    pending.delete(id);
    if (p.timer) clearTimeout(p.timer);
    return p;
  };

  const send = (id: number, p: Pending): void => {
    p.sentTo = worker;
    worker.postMessage({ kind: 'call', id, method: p.method, args: p.args, announce: p.limits !== undefined } satisfies ToEngine);
  };

  /** Sends again, in order, every call the old worker received but provably never started. */
  const resend = async (old: Worker): Promise<void> => {
    await ready;
    for (const [id, p] of [...pending].sort(([a], [b]) => a - b)) {
      if (p.sentTo === old) send(id, p);
    }
  };

  const startTimer = (id: number): void => {
    const p = pending.get(id);
    if (!p?.limits || p.timer) return;
    const { limits } = p;
    p.timer = setTimeout(() => {
      // Finished meanwhile (its answer is on its way): nothing to stop.
      if (!gate.stopIfRunning(id)) return;
      settle(id)?.reject(limits.onTimeout());
      void restart('a query ran too long');
    }, limits.timeoutMs);
  };

  const spawn = (): Promise<void> => {
    const callGate = new CallGate();
    const w = new Worker(workerUrl, { workerData: { options, gate: callGate.buffer } satisfies EngineWorkerData });
    worker = w;
    gate = callGate;
    ready = new Promise<void>((resolve, reject) => {
      w.on('message', (message: FromEngine) => {
        if (message.kind === 'log') {
          if (message.level === 'warn') logger.warn(message.message);
          else logger.error(message.message, message.detail);
        } else if (message.kind === 'ready') resolve();
        else if (message.kind === 'failed') reject(fromWireError(message.error));
        else if (message.kind === 'started') startTimer(message.id);
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
        const write = crashed && writeIdOf(crashed);
        if (crashed && !write) crashed.reject(unknownOutcome(code));
        restarts++;
        const replaced = w;
        void spawn().then(
          async () => {
            // Before anything else runs on the fresh worker: the journal says whether it was saved.
            if (crashed && write) await answerCrashedWrite(crashed, write, code);
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

  const restart = async (why: string): Promise<void> => {
    const old = worker;
    restarts++;
    logger.warn(`restarting the engine worker: ${why}`);
    const started = spawn(); // `worker` now points at the new one, so old's exit is ignored
    await old.terminate();
    try {
      await started;
    } catch (err) {
      for (const id of [...pending.keys()]) settle(id)?.reject(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    await resend(old);
  };

  /**
   * A write the worker crashed in: saved (its id is in the journal the fresh worker replayed)
   * gets the answer it would have had; not saved gets an error that says so, and that retrying
   * is safe. Only if the fresh worker cannot tell does the answer stay "unknown".
   */
  const answerCrashedWrite = async (crashed: Pending, write: { resourceId: string; writeId: string }, code: number): Promise<void> => {
    let outcome: { saved: boolean; resourceId: string };
    try {
      outcome = (await call('writeSaved', [write.resourceId, write.writeId])) as typeof outcome;
    } catch {
      crashed.reject(unknownOutcome(code));
      return;
    }
    if (outcome.saved) crashed.resolve(savedAnswer(crashed.method, outcome.resourceId));
    else {
      crashed.reject(
        new StorageError(
          `The Deskstore engine stopped unexpectedly (exit code ${code}) while answering this request; it restarted. ` +
            'The write was not saved: nothing of it is in the data, and sending it again is safe.',
        ),
      );
    }
  };

  const call = async (method: EngineMethod, args: unknown[], limits?: CallLimits): Promise<unknown> => {
    if (closed) throw new Error('the engine is closed');
    args = withWriteId(method, args);
    await ready;
    const id = nextId;
    nextId = nextId >= MAINTENANCE_ID - 1 ? 1 : nextId + 1;
    return new Promise((resolve, reject) => {
      const entry: Pending = { method, args, resolve, reject, ...(limits ? { limits } : {}) };
      pending.set(id, entry);
      send(id, entry);
    });
  };

  const api: Partial<Record<EngineMethod, unknown>> = {};
  for (const method of ENGINE_METHODS) api[method] = (...args: unknown[]) => call(method, args);

  return {
    api: api as EngineApi,
    callWithLimit: ((limits: CallLimits, method: EngineMethod, ...args: unknown[]) =>
      call(method, args, limits)) as EngineClient['callWithLimit'],
    get restarts() {
      return restarts;
    },
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
