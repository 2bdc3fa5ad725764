import type { Logger } from '../../logger';
import { MutableTextIndex } from '../fts';
import type { DatastoreRecord } from '../catalogue/records';
import { applyEntryToMemory } from '../journal/apply-entry';
import { Journal, type JournalDamage } from '../journal/journal';
import type { JournalEntry } from '../journal/journal-entry';
import { StorageError } from '../../errors';
import { sqlJsLoaded } from '../sqlite/sql-js';
import { resourceDir } from '../../storage/data-paths';
import { readColumnsFile, readSqliteFile, sqliteFileExists, writeColumnsFile } from '../storage/resource-files';
import { rebuildColumnsFromSqlite } from './rebuild-columns';
import { journalPath, OpenResource } from './open-resource';

/**
 * Open resources, least recently used first out. Loading a resource reads its generation's
 * column file and replays its journal (the writes acknowledged since). Eviction costs only a
 * reload: everything acknowledged is on disk.
 */
export class ResourceCache {
  private readonly open = new Map<string, OpenResource>();
  private unloadedForBudget = 0;

  constructor(private readonly dataDir: string, readonly budgetBytes: number, private readonly logger: Logger) {}

  /** What the open resources hold, by the cache's estimate, and how often the budget unloaded one. */
  usage(): { usedBytes: number; openResources: number; unloadedForBudget: number } {
    let usedBytes = 0;
    for (const r of this.open.values()) usedBytes += r.memoryEstimate();
    return { usedBytes, openResources: this.open.size, unloadedForBudget: this.unloadedForBudget };
  }

  /**
   * Unloads least recently used resources until the rest fit the budget, keeping the most
   * recently used one whatever its size (unloading it would only reload it on the next
   * request). Called after loads, and after anything that grows an open resource (its SQLite
   * table opened for SQL or writes).
   */
  enforceBudget(): void {
    const newest = [...this.open.keys()].pop();
    if (newest) this.trim(newest);
  }

  get(resourceId: string, record: DatastoreRecord): OpenResource {
    let resource = this.open.get(resourceId);
    if (resource && resource.generation !== record.generation) {
      this.evict(resourceId); // a new version was published (an import finished)
      resource = undefined;
    }
    if (resource) {
      this.open.delete(resourceId);
      this.open.set(resourceId, resource); // most recently used last
      return resource;
    }
    resource = this.load(resourceId, record);
    this.open.set(resourceId, resource);
    this.trim(resourceId);
    return resource;
  }

  private load(resourceId: string, record: DatastoreRecord): OpenResource {
    const dir = resourceDir(this.dataDir, resourceId);
    const { store, textIndex, indexedColumns, dictionaryTerms } = readColumnsOrRebuild(dir, resourceId, record, this.logger);
    const resource = new OpenResource(
      resourceId,
      dir,
      record,
      store,
      new MutableTextIndex(textIndex, store.maxRowId),
      new Set(indexedColumns),
      dictionaryTerms,
    );
    const { journal, entries, damage } = Journal.open<JournalEntry>(journalPath(dir, record.generation));
    if (damage) this.logger.error(describeDamage(resourceId, journal.path, damage));
    for (const entry of entries) {
      applyEntryToMemory(resource, entry);
      if (entry.w) resource.replayedWriteIds.add(entry.w);
    }
    resource.attachJournal(journal);
    return resource;
  }

  openResources(): OpenResource[] {
    return [...this.open.values()];
  }

  put(resource: OpenResource): void {
    if (this.open.get(resource.id) !== resource) this.evict(resource.id);
    this.open.delete(resource.id);
    this.open.set(resource.id, resource);
    this.trim(resource.id);
  }

  evict(resourceId: string): void {
    this.open.get(resourceId)?.close();
    this.open.delete(resourceId);
  }

  closeAll(): void {
    for (const id of [...this.open.keys()]) this.evict(id);
  }

  private trim(keep: string): void {
    let total = 0;
    for (const r of this.open.values()) total += r.memoryEstimate();
    for (const [id, r] of this.open) {
      if (total <= this.budgetBytes) break;
      if (id === keep) continue;
      total -= r.memoryEstimate();
      this.evict(id);
      this.unloadedForBudget++;
    }
  }
}

/** Journal damage in words a person can act on: what was kept, what was not, where it is. */
function describeDamage(resourceId: string, path: string, d: JournalDamage): string {
  const copy = d.keptAs ? `the damaged journal is kept unchanged as ${d.keptAs}` : 'the damaged journal could not be copied aside';
  const refused = d.unrepaired ? `; it could not be rewritten (${d.unrepaired}), so writes to this resource are refused` : '';
  if (!d.lostEntry) {
    return `resource ${resourceId}: the journal ${path} had ${d.recovered} damaged entry header(s) from byte ${d.offset}; `
      + `all ${d.replayed} acknowledged writes were recovered; ${copy}${refused}.`;
  }
  return `resource ${resourceId}: the journal ${path} is DAMAGED at byte ${d.offset}: the ${d.replayed} writes before it were replayed`
    + `${d.recovered ? ` (${d.recovered} repaired)` : ''}, the damaged write`
    + `${d.notReplayed ? ` and the ${d.notReplayed} acknowledged writes after it were` : ' was'} NOT replayed; ${copy}${refused}.`;
}

/**
 * The generation's columns file; if it is missing or damaged, rebuilt from the table file
 * (and written back), so one damaged file does not lose a resource. Both damaged: a clear
 * error for this resource only; the rest of the store keeps working.
 */
function readColumnsOrRebuild(dir: string, resourceId: string, record: DatastoreRecord, logger: Logger): ReturnType<typeof readColumnsFile> {
  let failure: Error;
  try {
    return readColumnsFile(dir, record.generation);
  } catch (err) {
    failure = err as Error;
  }
  if (!sqliteFileExists(dir, record.generation)) {
    throw new StorageError(`The data files of resource ${resourceId} are damaged (${failure.message}) and no table file can replace them; `
      + 'restore the folder from a backup, or delete the resource and import it again');
  }
  let db;
  try {
    db = new (sqlJsLoaded().Database)(readSqliteFile(dir, record.generation));
    const rebuilt = rebuildColumnsFromSqlite(db, resourceId, record);
    logger.warn(`resource ${resourceId}: ${failure.message}; rebuilt its columns file from its table`);
    try {
      writeColumnsFile(dir, record.generation, { ...rebuilt, ftsLanguage: record.ftsLanguage });
    } catch {
      // rebuilding again next time is the worst case
    }
    return { ...rebuilt, ftsLanguage: record.ftsLanguage, dictionaryTerms: new Map() };
  } catch (err) {
    if (err instanceof StorageError) throw err;
    throw new StorageError(`The data files of resource ${resourceId} are damaged (${failure.message}; table: ${(err as Error).message}); `
      + 'restore the folder from a backup, or delete the resource and import it again');
  } finally {
    db?.close();
  }
}
