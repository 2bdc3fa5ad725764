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
}
