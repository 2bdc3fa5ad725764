import { basename } from 'node:path';
import { buildResourceVersion } from '../engine/importer-api';
import type { ImportPhase } from '../../shared/wire/import';
import { importFileSize } from './file-source';
import { formatOf } from './formats';
import { cleanHeader, reportedRenames } from './header';
import { message } from '../../shared/messages';
import { ImportInputError, importCancelled } from './import-errors';
import type { ImportedField, ImportOptions, ImportResult } from './import-types';
import { forcedTypeOf } from './sniff-file';
import { FORCED_REASON, inferColumn, typedColumn } from './type-columns';
import { textIndexHelperIn } from './worker-runner';

/**
 * Any importable file → a new generation of a resource's files (docs/importing.md, "How an
 * import runs"): the format's reader produces a raw table (repairs made as chosen), the shared
 * path cleans the header and decides each column's type, and the engine's one entry point
 * builds the version. Publishing in the catalogue is the caller's step: until then nothing of
 * the import is visible, and a failed or cancelled import leaves nothing but unpublished files.
 */
export async function importFile(opts: ImportOptions): Promise<ImportResult> {
  const seconds: Record<ImportPhase, number> = { reading: 0, typing: 0, indexing: 0, writing: 0, storing: 0 };
  let phaseStart = performance.now();
  const endPhase = (phase: ImportPhase): void => {
    const now = performance.now();
    seconds[phase] = (now - phaseStart) / 1000;
    phaseStart = now;
  };
  let progress = { rows: 0, bytes: 0, totalBytes: 0, estimated: false };
  const report = (phase: ImportPhase): void => opts.onProgress?.({ phase, ...progress });
  const checkCancelled = (): void => {
    if (opts.signal?.aborted) throw importCancelled();
  };

  const fileBytes = importFileSize(opts.path);
  const name = opts.name ?? basename(opts.path);
  const format = await formatOf(opts.path, name);
  const table = await format.read({
    path: opts.path,
    name,
    choices: opts,
    ...(opts.signal ? { signal: opts.signal } : {}),
    onProgress: (p) => {
      progress = p;
      report('reading');
    },
  });
  endPhase('reading');
  checkCancelled();
  if (table.header.length === 0) {
    throw new ImportInputError(message('import.refused.no_header', 'The file has no header row (it is empty after the skipped lines)'));
  }

  progress = { ...progress, rows: table.rows, bytes: progress.totalBytes };
  report('typing');
  const header = cleanHeader([...table.header]);
  const fields: ImportedField[] = [];
  const rawColumns = [...table.columns];
  const columns = header.columns.map((h, i) => {
    const raw = rawColumns[i]!;
    const inferred = inferColumn(raw, table.layout.decimalComma);
    const forced = forcedTypeOf(opts.types, h);
    const column = typedColumn(h.id, raw, inferred, forced, table.rows);
    rawColumns[i] = null as never; // let the raw dictionary go before the next column is typed
    fields.push({
      id: h.id,
      type: forced ?? inferred.type,
      info: { label: h.label, notes: '' },
      reason: forced ? FORCED_REASON : inferred.reason,
    });
    return column;
  });
  endPhase('typing');
  checkCancelled();

  const { layout } = table;
  const summary = (storedBytes: number): ImportResult => ({
    rows: table.rows,
    fields,
    renamed: reportedRenames(header),
    format: layout.format,
    encoding: layout.encoding,
    delimiter: layout.delimiter,
    skipLines: layout.skipLines,
    ...(layout.sheet !== undefined ? { sheet: layout.sheet } : {}),
    ...(layout.entry !== undefined ? { entry: layout.entry } : {}),
    bytes: fileBytes,
    storedBytes,
    repairs: [...table.repairs],
    warnings: [...table.warnings],
    seconds,
  });
  const version = await buildResourceVersion({
    resourceId: opts.resourceId,
    dir: opts.dir,
    generation: opts.generation,
    columns,
    rows: table.rows,
    ftsLanguage: opts.ftsLanguage,
    ...(opts.textIndexWorker ? { textIndexHelper: textIndexHelperIn(opts.textIndexWorker) } : {}),
    checkCancelled,
    onPhase: (phase) => report(phase),
    onSearchable: async (storedBytes) => opts.onSearchable?.(summary(storedBytes)),
  });
  Object.assign(seconds, version.seconds);
  return summary(version.storedBytes);
}
