import type { Database } from 'sql.js';

/**
 * Runs `fn` inside one SQLite transaction: COMMIT when it returns, ROLLBACK when it throws (the
 * error is rethrown). Every multi-statement change to a table goes through here, so none can
 * leave a half-applied transaction open on the shared connection.
 */
export function transaction<T>(db: Database, fn: () => T): T {
  db.exec('BEGIN');
  let result: T;
  try {
    result = fn();
  } catch (err) {
    rollback(db);
    throw err;
  }
  db.exec('COMMIT');
  return result;
}

/** Runs `fn` inside a transaction that is always rolled back: a dry run sees its own changes, then none remain. */
export function rolledBack<T>(db: Database, fn: () => T): T {
  db.exec('BEGIN');
  try {
    return fn();
  } finally {
    rollback(db);
  }
}

function rollback(db: Database): void {
  try {
    db.exec('ROLLBACK');
  } catch (err) {
    // SQLite has already rolled back after some errors (a full disk, an interrupt); then there
    // is no transaction left to end, which is the state we want.
    if (!/no transaction is active/i.test((err as Error).message)) throw err;
  }
}
