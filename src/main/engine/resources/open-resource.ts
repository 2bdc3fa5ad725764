import { transaction } from '../sqlite/transaction';
import type { Logger } from '../../logger';
import { join } from 'node:path';
import type { Database, SqlJsStatic } from 'sql.js';
import type { TableStore } from '../column-store/table-store';
import { fieldTypeOf, type FieldType } from '../field-types';
import type { MutableTextIndex, TextSearchLanguage } from '../fts';
import type { DatastoreRecord } from '../catalogue/records';
import { Journal } from '../journal/journal';
import type { JournalEntry } from '../journal/journal-entry';
import type { SearchableResource } from '../search/execute-search';
import type { ResourceTextIndex } from '../search/full-text';
import { SearchCache } from '../search/search-cache';
import { loadSqlJs } from '../sqlite/sql-js';
import { insertFromStore } from '../sqlite/bulk-insert';
import { createTableSql, uniqueIndexSql } from '../sqlite/table-sql';
import { sqliteFileExists } from '../storage/resource-files';
import { openTableFile } from './table-file';
import { ResourceText } from '../text-index/resource-text';

export interface ResourceField {
  readonly id: string;
  readonly type: FieldType;
  readonly info?: Record<string, unknown>;
}

export const journalPath = (dir: string, generation: number): string => join(dir, `${generation}.journal`);

/**
 * A resource loaded in the engine: column store and full-text index in memory (with the
 * journal already replayed into them), the SQLite table opened only when something needs
 * SQL. Journal entries newer than the table file wait in `pendingSql` until then.
 */
export class OpenResource implements SearchableResource {
  text: ResourceTextIndex;
  fields: ResourceField[] = [];
  readonly searchCache = new SearchCache();
  /** Write ids of the journal entries replayed when the resource was loaded (journal-entry.ts). */
  readonly replayedWriteIds = new Set<string>();
  /** The generation's table file failed to open: SQL runs here, on the table rebuilt from the columns. */
  tableFileUnusable = false;
  private db: Database | null = null;
  private pendingSql: JournalEntry[] = [];
  private log: Journal | null = null;

  constructor(
    readonly id: string,
    readonly dir: string,
    public record: DatastoreRecord,
    readonly store: TableStore,
    public textIndex: MutableTextIndex,
    public indexedColumns: ReadonlySet<string>,
    private readonly logger: Logger,
  ) {
    this.refreshFields();
    this.text = new ResourceText(textIndex, store, this.ftsLanguage, indexedColumns);
  }

  get ftsLanguage(): TextSearchLanguage {
    return this.record.ftsLanguage as TextSearchLanguage;
  }

  get generation(): number {
    return this.record.generation;
  }

  /** Re-reads the typed field list after `record.fields` changed. */
  refreshFields(): void {
    this.fields = this.record.fields.map((f) => ({ id: f.id, type: fieldTypeOf(f.type), ...(f.info ? { info: f.info } : {}) }));
  }

  replaceTextIndex(index: MutableTextIndex, indexedColumns: ReadonlySet<string> = this.indexedColumns): void {
    this.textIndex = index;
    this.indexedColumns = indexedColumns;
    this.text = new ResourceText(index, this.store, this.ftsLanguage, indexedColumns);
  }

  /** The journal of the current generation, opened on first use. */
  journal(): Journal {
    this.log ??= Journal.open(journalPath(this.dir, this.generation)).journal;
    return this.log;
  }

  /** Adopts an already replayed journal and the entries the table file does not have yet. */
  attachJournal(journal: Journal, unappliedToSql: JournalEntry[]): void {
    this.log = journal;
    this.pendingSql = unappliedToSql;
  }

  /** After a checkpoint: the old journal is obsolete, the new generation starts empty. */
  startNewJournal(): void {
    this.log?.close();
    this.log = null;
    this.pendingSql = [];
    this.tableFileUnusable = false; // the new generation's file was just written from this table
  }

  /**
   * The SQLite table: the generation's file with journal entries replayed on top; or, when
   * the file is not there (an import still writing it, or lost), built from the column
   * store, which already holds every journalled write.
   */
  async sqlite(): Promise<Database> {
    if (!this.db && !sqliteFileExists(this.dir, this.generation)) this.adoptDatabase(this.tableFromStore(await loadSqlJs()));
    if (!this.db) {
      const SQL = await loadSqlJs();
      try {
        this.db = openTableFile(SQL, this.dir, this.generation, this.id, this.pendingSql);
        this.pendingSql = [];
      } catch (err) {
        // The table file is damaged: the column store has everything (journal included).
        this.tableFileUnusable = true;
        this.logger.warn(`resource ${this.id}: table file unusable (${(err as Error).message}); rebuilt from the column store`);
        this.adoptDatabase(this.tableFromStore(SQL));
      }
    }
    return this.db!;
  }

  private tableFromStore(SQL: SqlJsStatic): Database {
    const db = new SQL.Database();
    db.exec(createTableSql(this.id, this.fields));
    if (this.record.primaryKey.length) db.exec(uniqueIndexSql(this.id, this.record.primaryKey));
    transaction(db, () => insertFromStore(SQL, db, this.id, this.store));
    return db;
  }

  /** Takes over a database built in memory (a table just created), instead of reading a file. */
  adoptDatabase(db: Database): void {
    this.db?.close();
    this.db = db;
    this.pendingSql = [];
  }

  /** Rough bytes held in memory, for the cache's budget. */
  memoryEstimate(): number {
    let bytes = this.store.live.byteLength;
    for (const c of this.store.columns) bytes += c.codes.byteLength + c.dictionaryBytes();
    const base = this.textIndex.baseIndexIfLoaded;
    if (base) {
      bytes += base.termBytes.byteLength + base.termOffsets.byteLength + base.offsets.byteLength + base.rowIds.byteLength + base.tfs.byteLength;
    }
    bytes += this.textIndex.deltaRowCount * 256;
    return bytes + (this.db ? this.record.sizeBytes : 0);
  }

  close(): void {
    this.db?.close();
    this.db = null;
    this.log?.close();
    this.log = null;
  }
}
