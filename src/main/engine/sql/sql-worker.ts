import { journalPath } from '../resources/open-resource';
import { parentPort } from 'node:worker_threads';
import type { Database } from 'sql.js';
import { StorageError, toWireError } from '../../errors';
import { Journal } from '../journal/journal';
import type { JournalEntry } from '../journal/journal-entry';
import { openTableFile, replayOntoTable } from '../resources/table-file';
import { loadSqlJs } from '../sqlite/sql-js';
import { runSql, type SqlPlan, type SqlTableFile, type SqlTableSource } from './search-sql';
import type { FromSqlWorker, ToSqlWorker } from './sql-protocol';
import { SQLITE_HEAP_LIMIT_BYTES } from './sql-limits';
import { injectedOutOfMemory } from '../test-faults';

/**
 * The SQL worker: runs `datastore_search_sql` queries planned by the engine (search-sql.ts),
 * so that user SQL never holds the engine worker, which answers searches and writes. It reads
 * each table as the engine acknowledged it: the generation's file plus the journal entries
 * written since, up to the bytes the plan names; kept between queries and brought up to date
 * by the journal's new entries. It writes nothing. A query past its time limit gets this
 * worker terminated (sql-runner.ts), which costs only its own copies of the tables.
 */
const port = parentPort;
if (!port) throw new Error('sql-worker must run as a worker thread');

interface LoadedTable {
  /** The table file it was read from (SqlTableSource.file). */
  readonly file: string;
  journalBytes: number;
  readonly db: Database;
  readonly fileBytes: number;
}

/** Table copies kept between queries, least recently used first; past this, the oldest go. */
const KEPT_BYTES = 1024 * 1024 * 1024;
const tables = new Map<string, LoadedTable>();

/**
 * The table as the plan names it. A kept copy is brought up to date with the journal entries
 * written since; if that fails (the journal was rewritten, say after a repair), the table is
 * read again from its files. An image is used once: it stands for a table whose file is not
 * there yet (an import is writing it) or not usable (the engine's next maintenance writes a
 * new generation).
 */
async function tableFor(source: SqlTableSource): Promise<Database> {
  const SQL = await loadSqlJs();
  if ('image' in source) {
    tables.get(source.id)?.db.close();
    tables.delete(source.id);
    const db = new SQL.Database(source.image);
    images.push(db);
    return db;
  }
  const kept = tables.get(source.id);
  if (kept) {
    tables.delete(source.id);
    if (kept.file === source.file && kept.journalBytes <= source.journalBytes) {
      try {
        catchUp(kept, source);
        tables.set(source.id, kept); // most recently used last
        return kept.db;
      } catch {
        // read it again below
      }
    }
    kept.db.close();
  }
  let table: LoadedTable;
  try {
    const db = openTableFile(SQL, source.dir, source.generation, source.id, journalEntries(source, 0));
    table = { file: source.file, journalBytes: source.journalBytes, db, fileBytes: source.fileBytes };
  } catch (err) {
    // The query is planned again with images of the engine's tables (deskstore-app.ts, runUserSql).
    throw new StorageError(`the SQL worker cannot use the table of ${source.id}: ${(err as Error).message}`);
  }
  tables.set(source.id, table);
  return table.db;
}

/** Tables opened from images for the query running now, closed when it ends. */
const images: Database[] = [];

function journalEntries(source: SqlTableFile, from: number): JournalEntry[] {
  return Journal.entriesBetween<JournalEntry>(journalPath(source.dir, source.generation), from, source.journalBytes);
}

function catchUp(table: LoadedTable, source: SqlTableFile): void {
  replayOntoTable(table.db, source.id, journalEntries(source, table.journalBytes));
  table.journalBytes = source.journalBytes;
}

/** Idle for this long, the worker lets its table copies go (the next query reads them again). */
const IDLE_RELEASE_MS = 5 * 60 * 1000;
let idleTimer: NodeJS.Timeout | null = null;

function releaseWhenIdle(): void {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    for (const t of tables.values()) t.db.close();
    tables.clear();
  }, IDLE_RELEASE_MS);
  idleTimer.unref();
}

function keepWithinBudget(inUse: ReadonlySet<string>): void {
  let total = 0;
  for (const t of tables.values()) total += t.fileBytes;
  for (const [id, t] of tables) {
    if (total <= KEPT_BYTES) break;
    if (inUse.has(id)) continue;
    t.db.close();
    tables.delete(id);
    total -= t.fileBytes;
  }
}

async function run(plan: SqlPlan, deadline: number) {
  injectedOutOfMemory('sql-out-of-memory', plan.sql);
  try {
    const files: string[] = [];
    for (const source of plan.tables) files.push(((await tableFor(source)) as unknown as { filename: string }).filename);
    return await runSql(plan.sql, plan.query, files, { deadline });
  } finally {
    for (const db of images.splice(0)) db.close();
    keepWithinBudget(new Set(plan.tables.map((t) => t.id)));
    releaseWhenIdle();
  }
}

port.on('message', (message: ToSqlWorker) => {
  run(message.plan, Date.now() + message.timeoutMs).then(
    // The chunks are moved, not copied: the answer's memory leaves this worker with it.
    (value) =>
      port.postMessage(
        { id: message.id, value } satisfies FromSqlWorker,
        value.records.map((c) => c.buffer as ArrayBuffer),
      ),
    (err: unknown) => port.postMessage({ id: message.id, error: toWireError(err) } satisfies FromSqlWorker),
  );
});
// Before saying ready: the first query should not wait for the WASM module. SQLite's heap in
// this worker is limited (one setting for the whole module): a query past it fails with
// "out of memory" instead of growing the worker without bound (sql-limits.ts).
const SQL = await loadSqlJs();
const settings = new SQL.Database();
settings.exec(`PRAGMA hard_heap_limit = ${SQLITE_HEAP_LIMIT_BYTES}`);
settings.close();
port.postMessage({ ready: true } satisfies FromSqlWorker);
