import { basename } from 'node:path';
import type { EngineApi } from '../engine/engine-api';
import { optional } from '../../shared/optional';
import type { ImportChoices, ImportProgress, ImportResult, ImportTask } from './import-types';
import { importSourceOf } from './import-report';

/**
 * Runs importFile somewhere: in this thread (CLI) or in an import worker (server).
 * `onSearchable` publishes the generation as soon as it can be searched; the runner's
 * promise settles once the table file is written too (and after `onSearchable` finished).
 */
export type ImportRunner = (
  options: ImportTask,
  onProgress: (p: ImportProgress) => void,
  onSearchable: (result: ImportResult) => Promise<void>,
) => Promise<ImportResult>;

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
  /** What the new version is called (docs/versions.md); default: `replace` when the resource had data. */
  readonly versionSource?: 'import' | 'replace';
}

export async function importIntoResource(
  engine: EngineApi,
  file: string,
  resourceId: string,
  choices: ImportChoices,
  run: ImportRunner,
  hooks: ImportHooks = {},
): Promise<ImportResult> {
  const { dir, generation } = await engine.prepareImport(resourceId);
  const ftsLanguage = choices.ftsLanguage ?? 'english';
  const name = hooks.displayName ?? basename(file);
  let published = false;
  const publish = async (result: ImportResult): Promise<void> => {
    await hooks.beforePublish?.();
    await engine.publishImport({
      resourceId,
      generation,
      fields: result.fields.map((f) => ({ id: f.id, type: f.type, info: f.info })),
      rows: result.rows,
      ftsLanguage,
      source: importSourceOf(result, result.entry ? `${name}/${result.entry}` : name),
      ...optional('versionSource', hooks.versionSource),
    });
    published = true;
    hooks.onPublished?.();
  };
  try {
    return await run(
      {
        path: file,
        name,
        resourceId,
        dir,
        generation,
        ftsLanguage,
        ...optional('encoding', choices.encoding),
        ...optional('delimiter', choices.delimiter),
        ...optional('skipLines', choices.skipLines),
        ...optional('types', choices.types),
        ...optional('trim', choices.trim),
        ...optional('repairs', choices.repairs),
        ...optional('sheet', choices.sheet),
        ...optional('entry', choices.entry),
      },
      hooks.onProgress ?? (() => {}),
      publish,
    );
  } catch (err) {
    // Once published, the generation stays: it is complete for searching, and the engine
    // builds the table itself if its file could not be written.
    if (!published) await engine.abandonImport(resourceId, generation);
    throw err;
  }
}
