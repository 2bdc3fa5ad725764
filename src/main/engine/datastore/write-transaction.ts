import type { EngineContext } from '../engine-context';
import { applyEntryToMemory } from '../journal/apply-entry';
import type { JournalEntry } from '../journal/journal-entry';
import type { OpenResource } from '../resources/open-resource';
import { injectedCrash } from '../test-faults';
import { ckanIndexName } from './index-name';
import { WriteState } from './write-state';

/**
 * The one path every row write takes (docs/architecture.md §3):
 *   1. `apply` checks the change against the table as this request sees it (the column store
 *      with the request's earlier operations on top: write-state.ts; constraints such as the
 *      primary key are checked there) and returns it as a journal entry;
 *   2. the entry is appended to the journal and fsynced; if that fails, nothing changed;
 *   3. the entry is mirrored into the column store, the full-text index and the key index.
 * Only after step 3 does the caller answer, so an acknowledged write is always on disk, and
 * a failed one left nothing behind. `dryRun` stops after step 1. SQLite is not involved: the
 * SQL worker applies the journal to its own copy of the table when SQL next needs it.
 */
export async function commitWrite(
  ctx: EngineContext,
  resource: OpenResource,
  apply: (state: WriteState) => JournalEntry,
  dryRun = false,
  writeId?: string,
): Promise<JournalEntry> {
  const keyColumns = resource.record.primaryKey;
  const state = new WriteState(resource.store, resource.keyIndex(), ckanIndexName(resource.id, keyColumns, resource.fields));
  const applied = apply(state);
  if (dryRun || applied.ops.length === 0) return applied;
  const entry: JournalEntry = { ...applied, ...(writeId ? { w: writeId } : {}) };
  injectedCrash('before-journal', entry);
  resource.journal().append(entry);
  injectedCrash('after-journal', entry);
  resource.keys?.update(entry);
  applyEntryToMemory(resource, entry);
  ctx.afterWrite(resource);
  return entry;
}
