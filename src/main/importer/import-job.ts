import { basename } from 'node:path';
import type { EngineApi } from '../engine/engine-api';
import type { TextSearchLanguage } from '../engine/fts';
import type { CsvImportOptions, CsvImportResult, ImportProgress } from './import-csv';
import type { Delimiter } from './sniff-dialect';
import type { ImportType } from '../../shared/wire/import';

/** What a user chose for an import; everything else is detected. */
export interface ImportChoices {
  readonly encoding?: string;
  readonly delimiter?: Delimiter;
  readonly skipLines?: number;
  readonly types?: Readonly<Record<string, ImportType>>;
  readonly trim?: boolean;
  readonly ftsLanguage?: TextSearchLanguage;
}

/**
 * Runs importCsv somewhere: in this thread (CLI) or in an import worker (server).
 * `onSearchable` publishes the generation as soon as it can be searched; the runner's
 * promise settles once the table file is written too (and after `onSearchable` finished).
 */
export type ImportRunner = (
  options: Omit<CsvImportOptions, 'onProgress' | 'signal' | 'onSearchable'>,
  onProgress: (p: ImportProgress) => void,
  onSearchable: (result: CsvImportResult) => Promise<void>,
) => Promise<CsvImportResult>;

/**
 * Imports a file into an existing resource: build a new generation of its files, then
 * publish it. Until publishImport returns, searches keep seeing the previous version.
 */
export interface ImportHooks {
  readonly onProgress?: (p: ImportProgress) => void;
  /** Runs after the files are written, before publishing (e.g. create the catalogue entries). */
  readonly beforePublish?: () => Promise<void>;
  /** The new version answers searches (its SQLite table may still be being written). */
  readonly onPublished?: () => void;
  readonly displayName?: string;
}

export async function importIntoResource(
  engine: EngineApi, file: string, resourceId: string, choices: ImportChoices, run: ImportRunner, hooks: ImportHooks = {},
): Promise<CsvImportResult> {
  const { dir, generation } = await engine.prepareImport(resourceId);
  const ftsLanguage = choices.ftsLanguage ?? 'english';
  let published = false;
  const publish = async (result: CsvImportResult): Promise<void> => {
    await hooks.beforePublish?.();
    await engine.publishImport({
      resourceId,
      generation,
      fields: result.fields.map((f) => ({ id: f.id, type: f.type, info: f.info })),
      rows: result.rows,
      ftsLanguage,
      source: {
        file: hooks.displayName ?? basename(file),
        encoding: result.encoding,
        delimiter: result.delimiter,
        skipLines: result.skipLines,
        bytes: result.bytes,
        importedAt: new Date().toISOString(),
        ...(result.renamed.length ? { renamedColumns: result.renamed } : {}),
      },
    });
    published = true;
    hooks.onPublished?.();
  };
  try {
    return await run({
      path: file, resourceId, dir, generation, ftsLanguage,
      ...(choices.encoding ? { encoding: choices.encoding } : {}),
      ...(choices.delimiter ? { delimiter: choices.delimiter } : {}),
      ...(choices.skipLines !== undefined ? { skipLines: choices.skipLines } : {}),
      ...(choices.types ? { types: choices.types } : {}),
      ...(choices.trim !== undefined ? { trim: choices.trim } : {}),
    }, hooks.onProgress ?? (() => {}), publish);
  } catch (err) {
    // Once published, the generation stays: it is complete for searching, and the engine
    // builds the table itself if its file could not be written.
    if (!published) await engine.abandonImport(resourceId, generation);
    throw err;
  }
}
