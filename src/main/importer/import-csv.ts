import { transaction } from '../engine/sqlite/transaction';
import { importFileSize, openByteStream } from './file-source';
import { TableStore } from '../engine/column-store/table-store';
import type { TextSearchLanguage } from '../engine/fts';
import { loadSqlJs } from '../engine/sqlite/sql-js';
import { insertFromStore } from '../engine/sqlite/bulk-insert';
import { createTableSql } from '../engine/sqlite/table-sql';
import { writeColumnsFile, writeSqliteFile } from '../engine/storage/resource-files';
import { chooseIndexedColumns } from '../engine/text-index/text-layout';
import { cleanHeader, reportedRenames } from './header';
import { importCancelled } from './import-errors';
import { buildTextIndexOnTwoCores } from './text-index-task';
import { readCsv, type CsvReadResult } from './read-csv';
import type { Delimiter } from './sniff-dialect';
import { forcedTypeOf, sniffFile } from './sniff-file';
import { createUtf8Validator } from './sniff-encoding';
import { inferColumn, typedColumn } from './type-columns';
import type { ImportPhase, ImportType } from '../../shared/wire/import';

/**
 * A CSV/TSV file → a new generation of a resource's files, written durably: first the
 * column store with the full-text index (enough to search: `onSearchable` fires and the
 * caller publishes it), then the SQLite table (needed for writes and SQL; the engine builds
 * it from the column store if asked first). Publishing in the catalogue is the caller's
 * step: until then nothing of the import is visible, and a failed or cancelled import leaves
 * nothing behind but unpublished files.
 */

export interface CsvImportOptions {
  readonly path: string;
  readonly resourceId: string;
  readonly dir: string;
  readonly generation: number;
  readonly encoding?: string;
  readonly delimiter?: Delimiter;
  readonly skipLines?: number;
  readonly types?: Readonly<Record<string, ImportType>>;
  readonly ftsLanguage: TextSearchLanguage;
  /** Remove spaces and tabs around cells (ISTAT pads codes: `" 001 "`). Default true. */
  readonly trim?: boolean;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ImportProgress) => void;
  /** The import worker's own entry: the full-text index is then built in a second worker. */
  readonly textIndexWorker?: URL;
  /** The columns file is written: the generation can be published and searched. */
  readonly onSearchable?: (result: CsvImportResult) => Promise<void>;
}


export interface ImportProgress {
  readonly phase: ImportPhase;
  readonly rows: number;
  readonly bytes: number;
  readonly totalBytes: number;
}

export interface ImportedField {
  readonly id: string;
  readonly type: string;
  readonly info: { label: string; notes: string };
  readonly reason: string;
}

export interface CsvImportResult {
  readonly rows: number;
  readonly fields: ImportedField[];
  readonly renamed: { from: string; to: string; reason: string }[];
  readonly encoding: string;
  readonly delimiter: string;
  readonly skipLines: number;
  readonly bytes: number;
  readonly storedBytes: number;
  readonly warnings: string[];
  readonly seconds: Record<ImportPhase, number>;
}

async function isWholeFileUtf8(path: string): Promise<boolean> {
  const validator = createUtf8Validator();
  for await (const chunk of openByteStream(path, 1 << 20)) {
    if (!validator.push(chunk as Buffer)) return false;
  }
  return validator.end();
}

export async function importCsv(opts: CsvImportOptions): Promise<CsvImportResult> {
  const totalBytes = importFileSize(opts.path);
  const seconds: Record<ImportPhase, number> = { reading: 0, typing: 0, indexing: 0, writing: 0, storing: 0 };
  let phaseStart = performance.now();
  const endPhase = (phase: ImportPhase): void => {
    const now = performance.now();
    seconds[phase] = (now - phaseStart) / 1000;
    phaseStart = now;
  };
  const report = (phase: ImportPhase, rows: number, bytes: number) => opts.onProgress?.({ phase, rows, bytes, totalBytes });
  const checkCancelled = () => {
    if (opts.signal?.aborted) throw importCancelled();
  };

  const sniffed = await sniffFile(opts.path, opts);
  const { dialect } = sniffed;
  let encoding = sniffed.encoding;
  const read = (enc: string): Promise<CsvReadResult> => readCsv({
    path: opts.path, encoding: enc, delimiter: dialect.delimiter, skipLines: dialect.skipLines, newline: dialect.newline, trim: opts.trim ?? true,
    ...(opts.signal ? { signal: opts.signal } : {}),
    onProgress: (rows, chars) => report('reading', rows, Math.min(totalBytes, chars)),
  });
  let csv = await read(encoding);
  const warnings: string[] = [];
  if (csv.sawReplacementCharacter && !opts.encoding && encoding === 'utf-8' && !(await isWholeFileUtf8(opts.path))) {
    // The sample was valid UTF-8 but a later byte is not: the file is really Windows-1252.
    warnings.push('The file is not valid UTF-8 after its first 64 KB; it was read as Windows-1252.');
    encoding = 'windows-1252';
    csv = await read(encoding);
  }
  if (csv.shortRows) warnings.push(`${csv.shortRows} rows had fewer cells than the header; the missing cells are empty.`);
  endPhase('reading');
  checkCancelled();

  report('typing', csv.rows, totalBytes);
  const header = cleanHeader(csv.header);
  const decimalComma = dialect.delimiter !== ',';
  const fields: ImportedField[] = [];
  const columns = header.columns.map((h, i) => {
    const raw = csv.columns[i]!;
    const inferred = inferColumn(raw, decimalComma);
    const forced = forcedTypeOf(opts.types, h);
    const column = typedColumn(h.id, raw, inferred, forced, csv.rows);
    csv.columns[i] = null as never; // let the raw dictionary go before the next column is typed
    fields.push({ id: h.id, type: column.type.name, info: { label: h.label, notes: '' }, reason: forced ? 'forced by the user' : inferred.reason });
    return column;
  });
  const live = new Uint8Array(csv.rows + 1).fill(1);
  live[0] = 0;
  const store = new TableStore(columns, live, csv.rows);
  endPhase('typing');
  checkCancelled();

  report('indexing', csv.rows, totalBytes);
  const indexed = new Set(chooseIndexedColumns(store));
  const textIndex = await buildTextIndexOnTwoCores(opts.textIndexWorker, store, opts.ftsLanguage, indexed);
  endPhase('indexing');
  checkCancelled();

  report('writing', csv.rows, totalBytes);
  let storedBytes = writeColumnsFile(opts.dir, opts.generation, {
    store, textIndex, indexedColumns: [...indexed], ftsLanguage: opts.ftsLanguage,
  });
  endPhase('writing');
  const summary = (): CsvImportResult => ({
    rows: csv.rows,
    fields,
    renamed: reportedRenames(header),
    encoding,
    delimiter: dialect.delimiter,
    skipLines: dialect.skipLines,
    bytes: totalBytes,
    storedBytes,
    warnings,
    seconds,
  });
  await opts.onSearchable?.(summary());
  checkCancelled();

  report('storing', csv.rows, totalBytes);
  storedBytes += await storeTable(opts, store);
  endPhase('storing');
  return summary();
}

/** Fills the SQLite table from the column store and writes it as the generation's table file. */
async function storeTable(opts: CsvImportOptions, store: TableStore): Promise<number> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  try {
    db.exec(createTableSql(opts.resourceId, store.columns.map((c) => ({ id: c.id, type: c.type }))));
    transaction(db, () => insertFromStore(SQL, db, opts.resourceId, store));
    return writeSqliteFile(opts.dir, opts.generation, db.export());
  } finally {
    db.close();
  }
}
