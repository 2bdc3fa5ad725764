import { Worker } from 'node:worker_threads';
import { StorageError, fromWireError } from '../errors';
import type { Logger } from '../logger';
import type { EngineOptions } from './engine';
import { ENGINE_METHODS, type EngineApi, type EngineMethod } from './engine-api';
import type { EngineWorkerData, FromEngine, ToEngine } from './engine-protocol';

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
  timer?: NodeJS.Timeout;
}

export interface CallLimits {
  /** Past this, the worker is terminated and restarted and the call fails with `onTimeout()`. */
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
 * Runs the engine in a worker thread and returns a typed proxy to it. Every call is a
 * message; a call that outlives its limit gets the worker terminated and a fresh one started,
 * which reloads from disk (everything acknowledged is there).
 */
export async function startEngineWorker(options: EngineOptions, workerUrl: URL, logger: Logger): Promise<EngineClient> {
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let closed = false;
  let restarts = 0;
  let worker!: Worker;
  let ready!: Promise<void>;

  const failAll = (err: Error) => {
    for (const p of pending.values()) {
      if (p.timer) clearTimeout(p.timer);
      p.reject(err);
    }
    pending.clear();
  };

  const spawn = (): Promise<void> => {
    const w = new Worker(workerUrl, { workerData: { options } satisfies EngineWorkerData });
    worker = w;
    ready = new Promise<void>((resolve, reject) => {
      w.on('message', (message: FromEngine) => {
        if (message.kind === 'log') {
          if (message.level === 'warn') logger.warn(message.message);
          else logger.error(message.message, message.detail);
        } else if (message.kind === 'ready') resolve();
        else if (message.kind === 'failed') reject(fromWireError(message.error));
        else if (message.kind === 'result' || message.kind === 'error') {
          const p = pending.get(message.id);
          if (!p) return;
          pending.delete(message.id);
          if (p.timer) clearTimeout(p.timer);
          if (message.kind === 'result') p.resolve(message.value);
          else p.reject(fromWireError(message.error));
        }
      });
      w.on('error', (err) => {
        reject(err);
        if (worker === w) failAll(err);
      });
      w.on('exit', (code) => {
        if (closed || worker !== w) return;
        failAll(new StorageError(`The Deskstore engine stopped unexpectedly (exit code ${code}); it is restarting, please retry`));
        restarts++;
        void spawn().catch(() => {});
      });
    });
    return ready;
  };
  await spawn();

  const restartAfterTimeout = async () => {
    const old = worker;
    restarts++;
    failAll(new StorageError('The Deskstore engine was restarted because a query ran too long; please retry'));
    const started = spawn(); // `worker` now points at the new one, so old's exit is ignored
    await old.terminate();
    await started;
  };

  const call = async (method: EngineMethod, args: unknown[], limits?: CallLimits): Promise<unknown> => {
    if (closed) throw new Error('the engine is closed');
    await ready;
    const id = nextId++;
    return new Promise((resolve, reject) => {
      const entry: Pending = { resolve, reject };
      if (limits) {
        entry.timer = setTimeout(() => {
          pending.delete(id);
          reject(limits.onTimeout());
          void restartAfterTimeout();
        }, limits.timeoutMs);
      }
      pending.set(id, entry);
      worker.postMessage({ kind: 'call', id, method, args } satisfies ToEngine);
    });
  };

  const api: Partial<Record<EngineMethod, unknown>> = {};
  for (const method of ENGINE_METHODS) api[method] = (...args: unknown[]) => call(method, args);

  return {
    api: api as EngineApi,
    callWithLimit: ((limits: CallLimits, method: EngineMethod, ...args: unknown[]) => call(method, args, limits)) as EngineClient['callWithLimit'],
    get restarts() {
      return restarts;
    },
    async close() {
      if (closed) return;
      closed = true;
      const w = worker;
      await new Promise<void>((resolve) => {
        w.on('message', (m: FromEngine) => { if (m.kind === 'closed') resolve(); });
        w.once('exit', () => resolve());
        w.postMessage({ kind: 'close' } satisfies ToEngine);
      });
      await w.terminate();
    },
  };
}
