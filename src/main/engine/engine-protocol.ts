import type { WireError } from '../errors';
import type { EngineOptions } from './engine';
import type { EngineMethod } from './engine-api';

/** Messages between the main thread (EngineClient) and the engine worker. */
export type ToEngine =
  /** `writeId`: a write's id (engine-api.ts, WRITE_METHODS), saved by the commit that saves its change. */
  | { readonly kind: 'call'; readonly id: number; readonly method: EngineMethod; readonly args: unknown[]; readonly writeId?: string }
  | { readonly kind: 'close' };

export type FromEngine =
  | { readonly kind: 'ready' }
  | { readonly kind: 'failed'; readonly error: WireError }
  | { readonly kind: 'result'; readonly id: number; readonly value: unknown }
  | { readonly kind: 'error'; readonly id: number; readonly error: WireError }
  | { readonly kind: 'closed' }
  | { readonly kind: 'log'; readonly level: 'warn' | 'error'; readonly message: string; readonly detail?: string };

export interface EngineWorkerData {
  readonly options: EngineOptions;
  /** The call gate's slot (call-gate.ts): which call runs, shared with the client. */
  readonly gate: SharedArrayBuffer;
}
