import { rolledBack, transaction } from '../sqlite/transaction';
import type { Database } from 'sql.js';
import type { EngineContext } from '../engine-context';
import { applyEntryToMemory } from '../journal/apply-entry';
import type { JournalEntry } from '../journal/journal-entry';
import type { OpenResource } from '../resources/open-resource';
import { injectedCrash } from '../test-faults';

/**
 * The one path every row write takes (docs/architecture.md §3):
 *   1. inside a SQLite transaction, `apply` checks and performs the change and returns it as a
 *      journal entry (constraints such as the primary key are checked here);
 *   2. the entry is appended to the journal and fsynced; if that fails, roll back;
 *   3. COMMIT, then mirror the entry into the column store and the full-text index.
 * Only after step 3 does the caller answer, so an acknowledged write is always on disk, and
 * a failed one left nothing behind. `dryRun` stops after step 1 and rolls back.
 */
export async function commitWrite(
  ctx: EngineContext,
  resource: OpenResource,
  apply: (db: Database) => JournalEntry,
  dryRun = false,
  writeId?: string,
): Promise<JournalEntry> {
  const db = await resource.sqlite();
  if (dryRun) return rolledBack(db, () => apply(db));
  const entry = transaction(db, () => {
    const applied: JournalEntry = { ...apply(db), ...(writeId ? { w: writeId } : {}) };
    if (applied.ops.length > 0) {
      injectedCrash('before-journal', applied);
      resource.journal().append(applied);
      injectedCrash('after-journal', applied);
    }
    return applied;
  });
  if (entry.ops.length === 0) return entry;
  applyEntryToMemory(resource, entry);
  ctx.afterWrite(resource);
  return entry;
}
