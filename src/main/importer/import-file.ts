import { basename } from 'node:path';
import { StreamedVersionWriter, ensureDir, fieldTypeOf, sqlitePath } from '../engine/importer-api';
import type { ImportPhase } from '../../shared/wire/import';
import { importFileSize } from './file-source';
import { formatOf } from './formats';
import { cleanHeader, reportedRenames } from './header';
import { message } from '../../shared/messages';
import { ImportInputError, importCancelled } from './import-errors';
import type { ImportedField, ImportOptions, ImportResult } from './import-types';
import { forcedTypeOf } from './sniff-file';
import { ImportHelper, type SpilledTexts } from './import-helper';
import { SpillTarget, type ChunkColumns, type ChunkPlace } from './row-spill';
import { decideType, inferColumn, typedParts } from './type-columns';
import { typedChunk } from './typed-chunks';

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
  // read back once the types are known: memory does not grow with the file. A second worker
  // (import-helper.ts) indexes texts while the file is read, then writes the table file.
  ensureDir(opts.dir);
  const label = `import-${opts.generation}`;
  const helper = opts.textIndexWorker ? new ImportHelper(opts.textIndexWorker, opts.dir, label, opts.ftsLanguage) : null;
  const early = helper ? new EarlyTexts(helper, opts) : null;
  const spill = new SpillTarget(
    opts.dir,
    label,
    early ? (place, first, rows, columns) => early.chunk(place, first, rows, columns) : undefined,
  );
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
    const textRuns = helper && table.spill ? await helper.textsDone(table.spill.path) : {};
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
      // The user's type, else the one the file gives the column (a spreadsheet's cells), else the inferred one.
      const decision = decideType(inferred, forcedTypeOf(opts.types, h), table.fileTypes?.[i]);
      fields.push({ id: h.id, type: decision.type, info: { label: h.label, notes: '' }, reason: decision.reason });
      return { raw, inferred, forced: decision.given, typed: typedParts(h.id, raw, inferred, decision.given) };
    });
    endPhase('typing');
    checkCancelled();

    report('indexing');
    const columns = header.columns.map((h, i) => {
      const { raw, typed } = parts[i]!;
      return {
        id: h.id,
        type: fieldTypeOf(typed.type),
        mayRepeat: typed.mayRepeat,
        dictionary: typed.dictionary,
        entries: typed.dictionary.length + raw.spilledCount,
      };
    });
    const spilled = table.spill!;
    // The second worker writes the table file from the same spilled rows meanwhile.
    const tableWritten = helper?.table({
      spill: { path: spilled.path, length: spilled.length, chunks: spilled.chunkCount },
      path: sqlitePath(opts.dir, opts.generation),
      table: opts.resourceId,
      columns: columns.map((c, i) => {
        const { inferred, forced, typed } = parts[i]!;
        return {
          id: c.id,
          type: typed.type,
          inferred,
          ...(forced ? { forced } : {}),
          dictionary: c.dictionary,
          entries: c.entries,
          remap: typed.remap,
        };
      }),
    });
    tableWritten?.catch(() => {}); // awaited below; a failure must not go unhandled meanwhile
    const writer = new StreamedVersionWriter({
      resourceId: opts.resourceId,
      dir: opts.dir,
      generation: opts.generation,
      rows: table.rows,
      ftsLanguage: opts.ftsLanguage,
      columns,
      tableElsewhere: tableWritten !== undefined,
      // Texts indexed early serve only a column that is text in the end (the file's own types,
      // a spreadsheet's, are known only once it is read).
      indexedElsewhere: early?.indexedFrom(header.columns.map((h, i) => (parts[i]!.typed.type === 'text' ? h.id : ''))) ?? new Map(),
    });
    let storedBytes: number;
    try {
      const reader = spilled.reader();
      let rows = 0;
      for (let chunk = reader.next(); chunk; chunk = reader.next()) {
        writer.addRows(
          chunk.rows,
          typedChunk(
            chunk,
            parts.map((p) => p.typed),
          ),
        );
        rows += chunk.rows;
        checkCancelled();
        progress = { ...progress, rows };
        report('indexing');
      }
      endPhase('indexing');
      report('writing');
      const early = writer.indexedElsewhere;
      const elsewhere = writer.indexedColumns.flatMap((id) => (early.has(id) && textRuns[id] ? [textRuns[id]] : []));
      storedBytes = writer.finish(elsewhere).storedBytes + ((await tableWritten) ?? 0);
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
    await helper?.stop();
    spill.removeAll();
  }
}

/**
 * Which spilled texts the second worker indexes while the file is read: those of a column
 * whose new values leave with every chunk (mostly unique) and that is text whatever follows
 * (a value was neither number, date nor boolean) — unless the user forces another type. From
 * the chunk it starts on, the version writer leaves those values to the worker's runs.
 */
/** Columns indexed early at most: each holds an index run in the second worker's memory. */
const MAX_EARLY_COLUMNS = 4;

class EarlyTexts {
  /** Per column position: the first row of the chunk its texts started being indexed from. */
  private readonly from = new Map<number, number>();
  private spill = '';
  private ids: string[] | null = null;

  constructor(
    private readonly helper: ImportHelper,
    private readonly opts: ImportOptions,
  ) {}

  chunk(place: ChunkPlace, firstRow: number, _rows: number, columns: ChunkColumns): void {
    if (place.path !== this.spill) {
      this.spill = place.path; // the file is read again (another encoding, stray quotes): start over
      this.from.clear();
      this.ids = cleanHeader([...columns.header]).columns.map((h) => {
        const forced = forcedTypeOf(this.opts.types, h);
        return forced === undefined || forced === 'text' ? h.id : '';
      });
    }
    const texts: SpilledTexts[] = [];
    columns.columns.forEach((c, i) => {
      const id = this.ids![i];
      if (!id || !c.spilling || (!this.from.has(i) && (!c.settledText || this.from.size >= MAX_EARLY_COLUMNS))) return;
      if (!this.from.has(i)) this.from.set(i, firstRow);
      texts.push({ column: i, id, spillStart: c.spillStart });
    });
    if (texts.length) this.helper.texts(place, firstRow, texts);
  }

  /** Per column id, the row from which its spilled texts are indexed by the worker. */
  indexedFrom(ids: readonly string[]): Map<string, number> {
    const out = new Map<string, number>();
    for (const [i, row] of this.from) if (ids[i] && ids[i] === this.ids?.[i]) out.set(ids[i], row);
    return out;
  }
}
