import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { TableStore } from '../column-store/table-store';
import { encodeIndex, openIndex, type InvertedIndex } from '../fts';
import { encodeContainer, CorruptContainerError, uint32View } from './binary-container';
import { blockReads } from './block-reads';
import { FileSections } from './file-sections';
import { StorageError } from '../../errors';
import { decodeColumns, encodeColumns, type ColumnsHeader } from './column-codec';
import { writeFileDurably } from './durable-files';
import type { FieldType } from '../field-types';
import { writeTableFromStore } from '../sqlite/table-file-writer';
import { storageFailure } from '../../storage/storage-failure';
import { PRIVATE_DIR_MODE } from '../../storage/data-paths';
import type { TextSearchLanguage } from '../fts';
import {
  buildStoreColumnTerms,
  writeColumnTerms,
  type BuiltColumnTerms,
  type StoredColumnTerms,
  type StoredColumnTermsHeader,
} from '../text-index/stored-column-terms';

/**
 * The files of one version ("generation") of a resource, in `resources/<id>/`:
 *   <generation>.sqlite   the table: the durable truth
 *   <generation>.columns  column store + full-text index, derived from the table
 * A new generation is written completely and fsynced before the catalogue points at it, so a
 * crash leaves the old version or the new one. Files of other generations are garbage.
 * The folder itself comes from storage/data-paths.ts, which checks the id.
 */

export const sqlitePath = (dir: string, generation: number): string => join(dir, `${generation}.sqlite`);
export const columnsPath = (dir: string, generation: number): string => join(dir, `${generation}.columns`);

export interface ColumnsFileHeader {
  readonly columns: ColumnsHeader;
  readonly text: {
    meta: unknown;
    sections: number[];
    indexedColumns: string[];
    /** The dictionary-searched columns' lexeme → codes tables (text-index/stored-column-terms.ts); absent in older files. */
    dictionaryTerms?: StoredColumnTermsHeader[];
  };
  readonly ftsLanguage: string;
}

export interface ResourceImage {
  readonly store: TableStore;
  readonly textIndex: InvertedIndex;
  /** The columns the inverted index covers (text-layout.ts). */
  readonly indexedColumns: readonly string[];
  readonly ftsLanguage: string;
  /** The dictionary-searched columns' tables, when the caller built them (to keep using them); else built here. */
  readonly columnTerms?: readonly BuiltColumnTerms[];
}

/**
 * Writes both files of a generation durably from the column store (a checkpoint, a new
 * table): the table file page by page (sqlite/table-file-writer.ts), with `fields` in table
 * order and AUTOINCREMENT's high-water mark at the store's highest `_id` ever; then the
 * columns file. Returns their total size in bytes.
 */
export function writeResourceFiles(
  dir: string,
  generation: number,
  table: string,
  fields: readonly { readonly id: string; readonly type: FieldType }[],
  image: ResourceImage,
): number {
  ensureDir(dir);
  const tableBytes = writeTableFromStore(sqlitePath(dir, generation), table, fields, image.store, image.store.maxRowId);
  return tableBytes + writeColumnsFile(dir, generation, image);
}

/** Creates a resource's folder (private) if it is not there yet. */
export function ensureDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch (err) {
    throw storageFailure(`Could not create ${dir}`, err);
  }
}

/** The column store and full-text index of a generation; enough to search it. */
export function writeColumnsFile(dir: string, generation: number, image: ResourceImage): number {
  ensureDir(dir);
  const sections: Uint8Array[] = [];
  const columns = encodeColumns(image.store, sections);
  const encodedText = encodeIndex(image.textIndex);
  const textSections = encodedText.buffers.map((b) => sections.push(b) - 1);
  const terms = image.columnTerms ?? buildStoreColumnTerms(image.store, image.ftsLanguage as TextSearchLanguage, new Set(image.indexedColumns));
  const dictionaryTerms = writeColumnTerms(terms, (b) => sections.push(b) - 1);
  const header: ColumnsFileHeader = {
    columns,
    text: { meta: encodedText.meta, sections: textSections, indexedColumns: [...image.indexedColumns], dictionaryTerms },
    ftsLanguage: image.ftsLanguage,
  };
  const parts = encodeContainer({ ...header }, sections);
  writeFileDurably(columnsPath(dir, generation), parts);
  return parts.reduce((n, p) => n + p.byteLength, 0);
}

export function sqliteFileExists(dir: string, generation: number): boolean {
  return existsSync(sqlitePath(dir, generation));
}

/** A generation's columns file as loaded: the full-text index is read on first use. */
export interface LoadedColumns {
  readonly store: TableStore;
  readonly textIndex: InvertedIndex | (() => InvertedIndex);
  readonly indexedColumns: readonly string[];
  readonly ftsLanguage: string;
  /** Per dictionary-searched column, its lexeme → codes table, opened on first use (none in older files). */
  readonly dictionaryTerms: ReadonlyMap<string, () => StoredColumnTerms>;
}

/**
 * Reads what every search needs (codes, live rows, number dictionaries, where text values
 * end) and leaves in the file what only some need: text values (read per cell, or whole when
 * scanned) and the full-text index (read at the first `q`). file-sections.ts says why.
 * `columnsNow` reads the column values whole at once, for a reader that cannot count on the
 * file staying there (an import diffing against the previous generation, which a checkpoint
 * may replace meanwhile).
 */
export function readColumnsFile(dir: string, generation: number, columnsNow = false): LoadedColumns {
  const path = columnsPath(dir, generation);
  const reading = <T>(read: () => T): T => {
    try {
      return read();
    } catch (err) {
      if (err instanceof CorruptContainerError) throw err;
      throw storageFailure(`Could not read ${path}`, err);
    }
  };
  const file = reading(() => FileSections.open(path));
  const h = file.header as unknown as ColumnsFileHeader;
  if (!h.columns || !h.text) throw new CorruptContainerError(`${path} lacks its column or text sections`);
  const store = decodeColumns(h.columns, {
    whole: (i) => reading(() => file.read(i)),
    lazy: (i) =>
      columnsNow
        ? reading(() => file.read(i))
        : {
            length: file.length(i),
            // Cells' values through 4 KB blocks (block-reads.ts): a page's values lie close together.
            range: blockReads(file.length(i), (start, end) => reading(() => file.readRange(i, start, end))),
            whole: () => reading(() => file.read(i)),
          },
    // Codes too are read when asked for: one row's for a page of results, all for a scan.
    codes: (i) => {
      const bytes = file.length(i);
      if (columnsNow) return uint32View(reading(() => file.read(i)));
      if (bytes % 4 !== 0) throw new CorruptContainerError(`${path}: codes section ${i} is not whole 32-bit codes`);
      const range = blockReads(bytes, (start, end) => reading(() => file.readRange(i, start, end)));
      return {
        length: bytes / 4,
        at: (rowId) => range(rowId * 4, rowId * 4 + 4).readUInt32LE(0),
        whole: () => uint32View(reading(() => file.read(i))),
      };
    },
  });
  const textSections = h.text.sections;
  for (const i of textSections) file.length(i); // a missing section fails at load, not at the first q
  // The term table is read at the first `q`, each term's postings when a query asks for them.
  const damaged = (err: unknown): StorageError =>
    err instanceof StorageError
      ? err
      : new StorageError(
          `The full-text index in ${path} could not be read (${(err as Error).message}); ` +
            'restore the folder from a backup, or delete the resource and import it again',
        );
  const guarded = <T>(read: () => T): T => {
    try {
      return read();
    } catch (err) {
      throw damaged(err);
    }
  };
  const textIndex = (): InvertedIndex =>
    guarded(() =>
      openIndex(h.text.meta, textSections, {
        whole: (i) => reading(() => file.read(i)),
        range: (i, start, end) => reading(() => file.readRange(i, start, end)),
        damaged,
      }),
    );
  const dictionaryTerms = new Map<string, () => StoredColumnTerms>();
  for (const entry of h.text.dictionaryTerms ?? []) {
    for (const i of entry.sections) file.length(i);
    const open = (): StoredColumnTerms => ({
      entries: entry.entries,
      index: guarded(() =>
        openIndex(entry.meta, entry.sections, {
          whole: (i) => reading(() => file.read(i)),
          range: (i, start, end) => reading(() => file.readRange(i, start, end)),
          damaged,
        }),
      ),
    });
    dictionaryTerms.set(entry.column, open);
  }
  return {
    store,
    textIndex,
    indexedColumns: h.text.indexedColumns ?? store.columns.map((c) => c.id),
    ftsLanguage: h.ftsLanguage,
    dictionaryTerms,
  };
}

/** A table's file, whole (sql.js opens a database from its bytes). */
export function readSqliteFile(dir: string, generation: number): Uint8Array {
  const path = sqlitePath(dir, generation);
  try {
    return readFileSync(path);
  } catch (err) {
    // Imports refuse files past the largest table (importer/limits.ts); a table can still grow
    // past it by writes, or a file of mostly empty cells can make a bigger table than itself.
    if ((err as NodeJS.ErrnoException).code === 'ERR_FS_FILE_TOO_LARGE') {
      throw new StorageError(
        `The table file ${path} is larger than 2 GB, the most Deskstore's SQL engine reads: ` +
          'searches and writes on this table work, SQL on it does not. Import a smaller part of the data to use SQL on it',
      );
    }
    throw storageFailure(`Could not read ${path}`, err);
  }
}

export function generationSize(dir: string, generation: number): number {
  let size = 0;
  for (const p of [sqlitePath(dir, generation), columnsPath(dir, generation)]) {
    try {
      size += statSync(p).size;
    } catch {
      // a missing file is reported when it is read
    }
  }
  return size;
}

/**
 * Removes the files of generations no longer needed: older than the newest needed one and
 * neither `current` nor a kept earlier version's (`kept`, whose journals are obsolete: a
 * version is kept only once its writes are in its files). Newer ones are left alone: an
 * import may be writing one right now.
 */
export function removeUnneededGenerations(dir: string, current: number, kept: readonly number[] = []): void {
  const newest = Math.max(current, ...kept);
  removeMatchingFiles(dir, (generation, kind) => {
    if (generation === null || generation === current) return false; // a temporary file: an import may be writing it
    if (kept.includes(generation)) return kind === 'journal';
    return generation < newest;
  });
}

/** At start-up, before any import runs: everything but the generations named, crash leftovers included. */
export function removeAllGenerationsBut(dir: string, current: number | null, kept: readonly number[] = []): void {
  removeMatchingFiles(dir, (generation, kind) => {
    if (generation === null || current === null) return true;
    if (generation === current) return false;
    return kept.includes(generation) ? kind === 'journal' : true;
  });
}

/**
 * Removes one generation's files (an abandoned import), the temporary files of its writing
 * (`.<generation>.columns.….tmp`, an import's spills `.import-<generation>.….tmp`): a
 * cancelled import worker is terminated before it can remove them itself.
 */
export function removeGenerationFiles(dir: string, generation: number): void {
  removeMatchingFiles(dir, (g) => g === generation, true);
}

type FileKind = 'sqlite' | 'columns' | 'journal' | 'temporary';

function removeMatchingFiles(
  dir: string,
  shouldRemove: (generation: number | null, kind: FileKind) => boolean,
  temporariesByGeneration = false,
): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const generation = /^(\d+)\.(sqlite|columns|journal)$/.exec(name);
    const temporary = /^\..*\.tmp$/.test(name);
    if (!generation && !temporary) continue;
    const ofGeneration = temporary && temporariesByGeneration ? /^\.(?:import-)?(\d+)\./.exec(name) : generation;
    const kind = generation ? (generation[2] as FileKind) : 'temporary';
    if (shouldRemove(ofGeneration ? Number(ofGeneration[1]) : null, kind)) rmSync(join(dir, name), { force: true });
  }
}
