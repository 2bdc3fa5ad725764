import { join } from 'node:path';
import type { TableStore } from '../column-store/table-store';
import { fieldTypeOf, type FieldType } from '../field-types';
import type { MutableTextIndex, TextSearchLanguage } from '../fts';
import type { DatastoreRecord } from '../catalogue/records';
import { Journal } from '../journal/journal';
import type { SearchableResource } from '../search/execute-search';
import type { ResourceTextIndex } from '../search/full-text';
import { SearchCache } from '../search/search-cache';
import { KeyIndex } from '../datastore/write-state';
import { ResourceText } from '../text-index/resource-text';
import type { StoredColumnTerms } from '../text-index/stored-column-terms';

export interface ResourceField {
  readonly id: string;
  readonly type: FieldType;
  readonly info?: Record<string, unknown>;
}

export const journalPath = (dir: string, generation: number): string => join(dir, `${generation}.journal`);

/**
 * A resource loaded in the engine: column store and full-text index in memory, with the
 * journal already replayed into them. The engine holds no SQLite copy of the table: writes
 * are checked against the column store (datastore/write-state.ts), and the SQL worker reads
 * the generation's table file and replays the journal onto its own copy.
 */
export class OpenResource implements SearchableResource {
  text: ResourceTextIndex;
  fields: ResourceField[] = [];
  readonly searchCache = new SearchCache();
  /** Write ids of the journal entries replayed when the resource was loaded (journal-entry.ts). */
  readonly replayedWriteIds = new Set<string>();
  /**
   * The generation's table file could not be used (the SQL worker could not read it): the
   * next maintenance writes a new generation, and SQL reads images of the column store meanwhile.
   */
  tableFileUnusable = false;
  /** The primary key's rows, once a write needed them (datastore/write-state.ts). */
  keys: KeyIndex | null = null;
  private log: Journal | null = null;

  constructor(
    readonly id: string,
    readonly dir: string,
    public record: DatastoreRecord,
    readonly store: TableStore,
    public textIndex: MutableTextIndex,
    public indexedColumns: ReadonlySet<string>,
    /** The columns file's lexeme → codes tables of dictionary-searched columns (text-index/stored-column-terms.ts). */
    dictionaryTerms: ReadonlyMap<string, () => StoredColumnTerms> = new Map(),
  ) {
    this.refreshFields();
    this.text = new ResourceText(textIndex, store, this.ftsLanguage, indexedColumns, dictionaryTerms);
  }

  get ftsLanguage(): TextSearchLanguage {
    return this.record.ftsLanguage as TextSearchLanguage;
  }

  get generation(): number {
    return this.record.generation;
  }

  /** Re-reads the typed field list after `record.fields` changed (the key index follows it). */
  refreshFields(): void {
    this.fields = this.record.fields.map((f) => ({ id: f.id, type: fieldTypeOf(f.type), ...(f.info ? { info: f.info } : {}) }));
    this.keys = null;
  }

  /** The primary key's index (built at its first use), or null for a table without one. */
  keyIndex(): KeyIndex | null {
    const key = this.record.primaryKey;
    if (key.length === 0) return null;
    this.keys ??= new KeyIndex(this.store, key);
    return this.keys;
  }

  /**
   * A new index (a checkpoint's compaction, new columns), with the dictionary term tables the
   * caller built for it (a checkpoint writes them): those read from the previous file are left
   * behind, since that file may be removed; without new ones, dictionary columns are tokenized
   * again when a query needs them.
   */
  replaceTextIndex(
    index: MutableTextIndex,
    indexedColumns: ReadonlySet<string> = this.indexedColumns,
    dictionaryTerms: ReadonlyMap<string, () => StoredColumnTerms> = new Map(),
  ): void {
    this.textIndex = index;
    this.indexedColumns = indexedColumns;
    this.text = new ResourceText(index, this.store, this.ftsLanguage, indexedColumns, dictionaryTerms);
  }

  /** The journal of the current generation, opened on first use. */
  journal(): Journal {
    this.log ??= Journal.open(journalPath(this.dir, this.generation)).journal;
    return this.log;
  }

  /** Adopts an already replayed journal. */
  attachJournal(journal: Journal): void {
    this.log = journal;
  }

  /** After a checkpoint: the old journal is obsolete, the new generation starts empty. */
  startNewJournal(): void {
    this.log?.close();
    this.log = null;
    this.tableFileUnusable = false; // the new generation's file was just written from this table
  }

  /** Rough bytes held in memory, for the cache's budget. */
  memoryEstimate(): number {
    let bytes = this.store.live.byteLength + this.store.rowOrderBytes;
    for (const c of this.store.columns) bytes += c.residentCodeBytes + c.dictionaryBytes() + c.derivedBytes();
    bytes += this.textIndex.baseIndexIfLoaded?.residentBytes ?? 0;
    bytes += this.textIndex.deltaRowCount * 256;
    return bytes;
  }

  close(): void {
    this.log?.close();
    this.log = null;
  }
}
