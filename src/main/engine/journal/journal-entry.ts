import type { StoredValue } from '../values/coerce';

/**
 * One journal entry = the physical effect of one write request: whole rows put, cells set,
 * rows deleted, or every row removed. Replaying entries in order rebuilds the exact state,
 * with the `_id`s that were acknowledged.
 */
export type JournalOp =
  | { readonly t: 'put'; readonly id: number; readonly v: Readonly<Record<string, StoredValue>> }
  | { readonly t: 'set'; readonly id: number; readonly v: Readonly<Record<string, StoredValue>> }
  | { readonly t: 'del'; readonly ids: readonly number[] }
  | { readonly t: 'truncate' };

export interface JournalEntry {
  readonly ops: readonly JournalOp[];
  /**
   * The id the main thread gave the write request, when it gave one: if the engine worker
   * crashes during the request, the restarted one finds the id in the journal (the write was
   * saved) or does not (it was not), so the answer is certain (engine-client.ts).
   */
  readonly w?: string;
}
