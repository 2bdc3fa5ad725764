import type { Database, SqlJsStatic } from 'sql.js';
import { applyEntryToSqlite } from '../journal/apply-entry';
import type { JournalEntry } from '../journal/journal-entry';
import { transaction } from '../sqlite/transaction';
import { readSqliteFile } from '../storage/resource-files';

/**
 * A generation's table file opened in sql.js, with journal entries replayed on top: what the
 * engine does when a resource first needs SQLite, and what the SQL worker does for its copies.
 * A damaged file fails here (its header is read at once), not in the middle of a write or a
 * query; nothing is left open then.
 */
export function openTableFile(SQL: SqlJsStatic, dir: string, generation: number, table: string, entries: readonly JournalEntry[]): Database {
  const db = new SQL.Database(readSqliteFile(dir, generation));
  try {
    db.exec('SELECT count(*) FROM sqlite_master');
    replayOntoTable(db, table, entries);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** Journal entries applied to an open table, all or none. */
export function replayOntoTable(db: Database, table: string, entries: readonly JournalEntry[]): void {
  if (entries.length) {
    transaction(db, () => {
      for (const entry of entries) applyEntryToSqlite(db, table, entry);
    });
  }
}
