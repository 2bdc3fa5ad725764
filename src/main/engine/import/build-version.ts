import type { Column } from '../column-store/column';
import { TableStore } from '../column-store/table-store';
import type { TextSearchLanguage } from '../fts';
import { writeTableFromStore } from '../sqlite/table-file-writer';
import { sqlitePath, writeColumnsFile } from '../storage/resource-files';
import { chooseIndexedColumns } from '../text-index/text-layout';
import { buildTextIndexOnTwoCores, type TextIndexHelper } from './text-index-task';

/**
 * The engine's one entry point for imports: typed columns in, a complete new generation of a
 * resource's files out (docs/importing.md, "How an import runs"). Whatever format the rows
 * came from, the importer hands over columns and the engine decides how they are stored:
 * the full-text index, the columns file (enough to search: `onSearchable` fires, and the
 * caller publishes), then the SQLite table (for writes and SQL; the engine rebuilds it from
 * the columns file if asked first). Publishing in the catalogue stays the caller's step.
 */

/** The phases the engine runs, in order, each reported as it starts. */
export type VersionPhase = 'indexing' | 'writing' | 'storing';

export interface VersionInput {
  readonly resourceId: string;
  readonly dir: string;
  readonly generation: number;
  /** One column per field, each holding a code for rows 1..rows (0 unused). */
  readonly columns: readonly Column[];
  /** The highest row id (`_id`). */
  readonly rows: number;
  /** Which row ids hold a row (a portal's `_id`s may have gaps); default: every one of 1..rows. */
  readonly live?: Uint8Array;
  readonly ftsLanguage: TextSearchLanguage;
  /** Builds half of the full-text index on another core; without it the index is built here. */
  readonly textIndexHelper?: TextIndexHelper;
  /** Checked between phases: throws to stop (the caller's cancellation). */
  readonly checkCancelled?: () => void;
  readonly onPhase?: (phase: VersionPhase) => void;
  /** The columns file is written; the promise lets the caller publish before the table is filled. */
  readonly onSearchable?: (storedBytes: number) => Promise<void>;
}

export interface VersionOutput {
  /** Bytes of both files. */
  readonly storedBytes: number;
  readonly seconds: Readonly<Record<VersionPhase, number>>;
}

export async function buildResourceVersion(input: VersionInput): Promise<VersionOutput> {
  const seconds: Record<VersionPhase, number> = { indexing: 0, writing: 0, storing: 0 };
  const check = input.checkCancelled ?? (() => {});
  let started = performance.now();
  const phase = (next: VersionPhase, previous?: VersionPhase): void => {
    const now = performance.now();
    if (previous) seconds[previous] = (now - started) / 1000;
    started = now;
    input.onPhase?.(next);
  };
  const live = input.live ?? allRows(input.rows);
  const store = new TableStore([...input.columns], live, input.rows);

  phase('indexing');
  const indexed = new Set(chooseIndexedColumns(store));
  const textIndex = await buildTextIndexOnTwoCores(input.textIndexHelper, store, input.ftsLanguage, indexed);
  check();

  phase('writing', 'indexing');
  let storedBytes = writeColumnsFile(input.dir, input.generation, {
    store,
    textIndex,
    indexedColumns: [...indexed],
    ftsLanguage: input.ftsLanguage,
  });
  seconds.writing = (performance.now() - started) / 1000;
  await input.onSearchable?.(storedBytes);
  check();

  phase('storing');
  storedBytes += await storeTable(input, store);
  seconds.storing = (performance.now() - started) / 1000;
  return { storedBytes, seconds };
}

function allRows(rows: number): Uint8Array {
  const live = new Uint8Array(rows + 1).fill(1);
  live[0] = 0;
  return live;
}

/** Writes the generation's table file from the column store (sqlite/table-file-writer.ts). */
function storeTable(input: VersionInput, store: TableStore): Promise<number> {
  const fields = store.columns.map((c) => ({ id: c.id, type: c.type }));
  return Promise.resolve(writeTableFromStore(sqlitePath(input.dir, input.generation), input.resourceId, fields, store));
}
