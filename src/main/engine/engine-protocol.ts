import type { WireError } from '../errors';
import type { EngineOptions } from './engine';
import type { EngineMethod } from './engine-api';

/** Messages between the main thread (EngineClient) and the engine worker. */
export type ToEngine =
  /** `announce`: say when the call starts running (its time limit counts from then). */
  | { readonly kind: 'call'; readonly id: number; readonly method: EngineMethod; readonly args: unknown[]; readonly announce: boolean }
  | { readonly kind: 'close' };

export type FromEngine =
  | { readonly kind: 'ready' }
  | { readonly kind: 'failed'; readonly error: WireError }
  | { readonly kind: 'started'; readonly id: number }
  | { readonly kind: 'result'; readonly id: number; readonly value: unknown }
  | { readonly kind: 'error'; readonly id: number; readonly error: WireError }
  | { readonly kind: 'closed' }
  | { readonly kind: 'log'; readonly level: 'warn' | 'error'; readonly message: string; readonly detail?: string };

export interface EngineWorkerData {
  readonly options: EngineOptions;
  /** The call gate's slot (call-gate.ts): which call runs, shared with the client. */
  readonly gate: SharedArrayBuffer;
}
