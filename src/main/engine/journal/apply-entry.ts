import type { Database } from 'sql.js';
import type { TableStore } from '../column-store/table-store';
import type { MutableTextIndex, TextSearchLanguage } from '../fts';

/** What a committed entry is mirrored into. */
export interface MemoryTarget {
  readonly store: TableStore;
  readonly textIndex: MutableTextIndex;
  readonly ftsLanguage: TextSearchLanguage;
  readonly indexedColumns: ReadonlySet<string>;
}
import { quoteIdentifier } from '../sqlite/identifiers';
import { rowDocumentLexemes } from '../text-index/build-text-index';
import { ValidationError } from '../../errors';
import type { JournalEntry } from './journal-entry';

/**
 * Applies a journal entry to the SQLite table (inside the caller's transaction, where
 * constraints are checked) or to the in-memory column store and full-text index. Live
 * writes and start-up replay go through these same two functions.
 */
/**
 * SQLite's constraint failure as PostgreSQL words it, naming the request row and the unique
 * index by the name CKAN gives it (datastore/index-name.ts).
 */
export function constraintError(err: unknown, uniqueIndex: string, row: number): ValidationError | null {
  const message = err instanceof Error ? err.message : String(err);
  if (/UNIQUE constraint failed/i.test(message)) {
    return new ValidationError({
      records: [`duplicate key value violates unique constraint "${uniqueIndex}"`],
      records_row: row,
    });
  }
  return null;
}

export function applyEntryToSqlite(db: Database, table: string, entry: JournalEntry, uniqueIndex = `${table}_pkey`): void {
  const t = quoteIdentifier(table);
  entry.ops.forEach((op, row) => {
    try {
      switch (op.t) {
        case 'put': {
          const names = Object.keys(op.v);
          db.run(
            `INSERT INTO ${t} (${['_id', ...names].map(quoteIdentifier).join(', ')}) VALUES (${['?', ...names.map(() => '?')].join(', ')})`,
            [op.id, ...names.map((n) => op.v[n]!)],
          );
          break;
        }
        case 'set': {
          const names = Object.keys(op.v);
          if (names.length) {
            db.run(`UPDATE ${t} SET ${names.map((n) => `${quoteIdentifier(n)} = ?`).join(', ')} WHERE _id = ?`, [
              ...names.map((n) => op.v[n]!),
              op.id,
            ]);
          }
          break;
        }
        case 'del': {
          const stmt = db.prepare(`DELETE FROM ${t} WHERE _id = ?`);
          try {
            for (const id of op.ids) stmt.run([id]);
          } finally {
            stmt.free();
          }
          break;
        }
        case 'truncate':
          db.run(`DELETE FROM ${t}`);
          break;
      }
    } catch (err) {
      throw constraintError(err, uniqueIndex, row) ?? err;
    }
  });
}

export function applyEntryToMemory(target: MemoryTarget, entry: JournalEntry): void {
  const { store, textIndex: text, ftsLanguage: language, indexedColumns } = target;
  for (const op of entry.ops) {
    switch (op.t) {
      case 'put':
      case 'set': {
        const values = new Map(Object.entries(op.v));
        if (op.t === 'put') store.putRow(op.id, values);
        else store.updateCells(op.id, values);
        text.removeRow(op.id);
        text.addRow(op.id, rowDocumentLexemes(store, op.id, language, indexedColumns));
        break;
      }
      case 'del':
        for (const id of op.ids) {
          store.deleteRow(id);
          text.removeRow(id);
        }
        break;
      case 'truncate':
        for (const id of store.liveRowIds()) text.removeRow(id);
        store.truncate();
        break;
    }
  }
}
