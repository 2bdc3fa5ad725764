import { basename } from 'node:path';
import { StreamedVersionWriter, ensureDir, fieldTypeOf, type ColumnChunk } from '../engine/importer-api';
import type { ImportPhase } from '../../shared/wire/import';
import { importFileSize } from './file-source';
import { formatOf } from './formats';
import { cleanHeader, reportedRenames } from './header';
import { message } from '../../shared/messages';
import { ImportInputError, importCancelled } from './import-errors';
import type { ImportedField, ImportOptions, ImportResult } from './import-types';
import { forcedTypeOf } from './sniff-file';
import type { RawColumnBuilder } from './raw-columns';
import { SpillTarget, type RowSpillWriter } from './row-spill';
import { FORCED_REASON, inferColumn, typedParts, type TypedParts } from './type-columns';

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
  // Rows read are spilled into the resource's folder a chunk at a time (row-spill.ts), then
  // read back once the types are known: memory does not grow with the file.
  ensureDir(opts.dir);
  const spill = new SpillTarget(opts.dir, `import-${opts.generation}`);
  try {
    const table = await format.read({
      path: opts.path,
      name,
      choices: opts,
      spill,
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
    const parts = header.columns.map((h, i) => {
      const raw = table.columns[i]!;
      const inferred = inferColumn(raw, table.layout.decimalComma);
      const forced = forcedTypeOf(opts.types, h);
      fields.push({
        id: h.id,
        type: forced ?? inferred.type,
        info: { label: h.label, notes: '' },
        reason: forced ? FORCED_REASON : inferred.reason,
      });
      return { raw, typed: typedParts(h.id, raw, inferred, forced) };
    });
    endPhase('typing');
    checkCancelled();

    report('indexing');
    const writer = new StreamedVersionWriter({
      resourceId: opts.resourceId,
      dir: opts.dir,
      generation: opts.generation,
      rows: table.rows,
      ftsLanguage: opts.ftsLanguage,
      columns: header.columns.map((h, i) => {
        const { raw, typed } = parts[i]!;
        return {
          id: h.id,
          type: fieldTypeOf(typed.type),
          mayRepeat: typed.mayRepeat,
          dictionary: typed.dictionary,
          entries: typed.dictionary.length + raw.spilledCount,
        };
      }),
    });
    let storedBytes: number;
    try {
      writeRows(table.spill!, parts, writer, (rows) => {
        checkCancelled();
        progress = { ...progress, rows };
        report('indexing');
      });
      endPhase('indexing');
      report('writing');
      storedBytes = writer.finish().storedBytes;
    } catch (err) {
      writer.abort();
      throw err;
    }
    endPhase('writing');

    const { layout } = table;
    const result: ImportResult = {
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
    };
    await opts.onSearchable?.(result);
    return result;
  } finally {
    spill.removeAll();
  }
}

/**
 * The spilled rows, chunk by chunk, typed and handed to the version writer: raw codes remapped
 * to typed ones, spilled values converted (a column's spilled values are its codes past its
 * in-memory dictionary, one per cell, in row order).
 */
function writeRows(
  spill: RowSpillWriter,
  parts: readonly { raw: RawColumnBuilder; typed: TypedParts }[],
  writer: StreamedVersionWriter,
  onChunk: (rows: number) => void,
): void {
  const reader = spill.reader();
  let rows = 0;
  for (let chunk = reader.next(); chunk; chunk = reader.next()) {
    const columns: ColumnChunk[] = parts.map(({ typed }, c) => {
      const codes = chunk.codes[c] ?? new Uint32Array(chunk.rows); // a column added halfway: NULL before
      const remap = typed.remap;
      if (remap) for (let i = 0; i < codes.length; i++) codes[i] = remap[codes[i]!]!;
      const spilled = chunk.values[c] ?? [];
      return spilled.length ? { codes, values: spilled.map(typed.convert) } : { codes };
    });
    writer.addRows(chunk.rows, columns);
    rows += chunk.rows;
    onChunk(rows);
  }
}
