import { randomUUID } from 'node:crypto';
import { basename, extname, resolve } from 'node:path';
import { DELIMITER_CHOICES, delimiterFromName } from '../../shared/delimiters';
import { foldText } from '../../shared/fold-text';
import { optional } from '../../shared/optional';
import { isTextSearchLanguage } from '../../shared/text-search-languages';
import {
  IMPORT_TYPES,
  REPAIR_ACTIONS,
  REPAIR_KINDS,
  isImportType,
  repairChoiceProblem,
  type ImportType,
  type RepairAction,
  type RepairKind,
  type RepairReport,
} from '../../shared/wire/import';
import {
  type CliCommand,
  DATA_DIR_HELP,
  UsageError,
  defaultDataDir,
  defineCommand,
  integerOption,
  stringOption,
  KEEP_VERSIONS_HELP,
  KEEP_VERSIONS_OPTION,
  keepVersionsOption,
} from './command';
import { DataDirectoryBusyError, acquireDataDirectoryLock, type DataDirectoryLock } from '../app/data-dir-lock';
import type { Message } from '../../shared/messages';
import type { ImportFormat } from '../../shared/import-formats';
import { clientOfRunningServer } from './server-client';
import { importThroughServer } from './server-import';
import { Engine } from '../engine/engine';
import { inProcessEngineApi } from '../engine/engine-api';
import { formatFromFileName, importFileSize } from '../importer/file-source';
import { importFile } from '../importer/import-file';
import { ImportInputError, isImportInputError, wordedFailure } from '../importer/import-errors';
import { isActionError } from '../errors';
import { importIntoResource } from '../importer/import-job';
import type { ImportChoices } from '../importer/import-types';
import { createProgressReporter } from './progress-reporter';
import { RESOURCE_ID_RULE, ensurePrivateDataDir, resourceIdProblem } from '../storage/data-paths';

export interface ImportArgs {
  readonly file: string;
  readonly dataDir: string;
  readonly packageName?: string;
  readonly resourceName?: string;
  readonly resourceId?: string;
  readonly choices: ImportChoices;
  /** The built import worker, to build the full-text index beside the table. */
  readonly importWorker?: URL;
  /** Versions of the resource's data kept in all (docs/versions.md). */
  readonly keepVersions?: number;
}

/** A dataset name from a file name: CKAN allows lowercase letters, digits, `-` and `_`. */
export function packageNameFor(file: string): string {
  const stem = basename(file, extname(file)).replace(/\.csv$/i, '');
  const name = foldText(stem)
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
  return name.length >= 2 ? name : `dataset-${name || 'import'}`;
}

/** The last stdout line of `deskstore import`: what was created, with what it holds. */
export interface ImportSummary {
  readonly package_id: string;
  readonly resource_id: string;
  readonly rows: number;
  readonly format: ImportFormat;
  readonly sheet?: string;
  readonly entry?: string;
  readonly fields: readonly { readonly id: string; readonly type: string }[];
  readonly repairs: readonly Pick<RepairReport, 'kind' | 'action' | 'rows' | 'lines' | 'message'>[];
  readonly warnings: readonly Message[];
}

/**
 * `deskstore import`: progress on stderr, then one JSON line on stdout describing what was
 * created. Runs in this process, holding the data directory lock; when a Deskstore server
 * holds the directory, the import is done by that server through its API instead.
 */
export async function importCommand(args: ImportArgs): Promise<void> {
  importFileSize(args.file); // a missing file is told before any lock or catalogue work
  ensurePrivateDataDir(args.dataDir);
  const packageName = args.packageName ?? packageNameFor(args.file);
  let lock: DataDirectoryLock;
  try {
    lock = acquireDataDirectoryLock(args.dataDir, 'import');
  } catch (err) {
    const server = err instanceof DataDirectoryBusyError ? await clientOfRunningServer(args.dataDir, err.holder) : null;
    if (!server) throw err;
    console.error(`${args.dataDir} is in use by the Deskstore server at ${server.url}: importing through it`);
    if (args.keepVersions !== undefined)
      console.error('note: --keep-versions applies only when no server holds the data directory: ignored');
    const summary = await importThroughServer(server, args, packageName);
    console.error(`imported ${summary.rows.toLocaleString('en')} rows into resource ${summary.resource_id} through ${server.url}`);
    process.stdout.write(`${JSON.stringify(summary)}\n`);
    return;
  }
  const engine = new Engine({ dataDir: args.dataDir, ...optional('keepVersions', args.keepVersions) });
  try {
    const api = inProcessEngineApi(engine);
    const siteUrl = 'http://127.0.0.1';
    const resourceId = args.resourceId ?? randomUUID();
    let packageId = '';
    // The dataset and resource are created only once the data is written: a failed import
    // leaves the catalogue exactly as it was.
    const createEntries = async () => {
      const existing = engine.catalogue.findResource(resourceId);
      if (existing) {
        packageId = existing.packageId;
        return;
      }
      const pkg =
        engine.catalogue.findPackage(packageName) ?? (await api.packageCreate({ name: packageName, title: packageName }, siteUrl));
      packageId = String(pkg.id);
      await api.resourceCreate(
        {
          package_id: packageId,
          id: resourceId,
          name: args.resourceName ?? basename(args.file),
          url: basename(args.file),
          url_type: 'upload',
          format: formatFromFileName(args.file),
        },
        siteUrl,
      );
    };
    const progress = createProgressReporter();
    // Measured from process start, so the figure covers everything a user waits for.
    let searchableAfter = 0;
    const result = await importIntoResource(
      api,
      args.file,
      resourceId,
      args.choices,
      (options, onProgress, onSearchable) =>
        importFile({
          ...options,
          onProgress,
          onSearchable,
          ...(args.importWorker ? { textIndexWorker: args.importWorker } : {}),
        }).catch((err: unknown) => {
          // As in the import worker: a failure no reader worded is told in words, not a stack.
          if (isImportInputError(err) || isActionError(err)) throw err;
          throw Object.assign(new ImportInputError(wordedFailure(err)), { cause: err });
        }),
      {
        onProgress: (p) => progress.update(p),
        beforePublish: createEntries,
        // `deskstore import --resource-id` makes an `import` version even of a resource with data (docs/versions.md)
        versionSource: 'import',
        onPublished: () => {
          searchableAfter = performance.now() / 1000;
        },
      },
    );
    progress.done();
    for (const w of result.warnings) console.error(`warning: ${w.text}`);
    for (const r of result.repairs) {
      console.error(`repaired: ${r.message.text} Lines ${r.lines.join(', ')}${r.rows > r.lines.length ? ', …' : ''}.`);
    }
    for (const r of result.renamed) console.error(`renamed column: ${JSON.stringify(r.from)} → ${r.to} (${r.reason})`);
    const seconds = Object.values(result.seconds).reduce((a, b) => a + b, 0);
    const peakMb = process.resourceUsage().maxRSS / 1024;
    console.error(
      `imported ${result.rows.toLocaleString('en')} rows in ${seconds.toFixed(1)} s ` +
        `(${result.encoding}, delimiter ${JSON.stringify(result.delimiter)}, ${result.skipLines} preamble lines skipped), ` +
        `peak memory ${peakMb.toFixed(0)} MB`,
    );
    console.error(
      `phases: ${Object.entries(result.seconds)
        .map(([k, v]) => `${k} ${v.toFixed(1)} s`)
        .join(', ')}`,
    );
    console.error(
      `searchable after ${searchableAfter.toFixed(2)} s, complete after ${(performance.now() / 1000).toFixed(2)} s ` +
        '(since the process started)',
    );
    const summary: ImportSummary = {
      package_id: packageId,
      resource_id: resourceId,
      rows: result.rows,
      format: result.format,
      ...optional('sheet', result.sheet),
      ...optional('entry', result.entry),
      fields: result.fields.map((f) => ({ id: f.id, type: f.type })),
      repairs: result.repairs.map((r) => ({ kind: r.kind, action: r.action, rows: r.rows, lines: r.lines, message: r.message })),
      warnings: result.warnings,
    };
    process.stdout.write(`${JSON.stringify(summary)}\n`);
  } finally {
    await engine.close();
    lock.release();
  }
}

/** `--type COLUMN=TYPE`, repeatable. */
function forcedTypes(specs: readonly string[]): Record<string, ImportType> {
  const types: Record<string, ImportType> = {};
  for (const spec of specs) {
    const at = spec.lastIndexOf('=');
    const type = spec.slice(at + 1);
    if (at <= 0 || !isImportType(type)) {
      throw new UsageError(`--type wants COLUMN=TYPE with TYPE one of ${IMPORT_TYPES.join(', ')}, got ${JSON.stringify(spec)}`);
    }
    types[spec.slice(0, at)] = type;
  }
  return types;
}

/** `--repair KIND=ACTION`, repeatable. */
function repairChoices(specs: readonly string[]): Partial<Record<RepairKind, RepairAction>> {
  const choices: Partial<Record<RepairKind, RepairAction>> = {};
  for (const spec of specs) {
    const [kind = '', action = ''] = spec.split('=');
    const problem = repairChoiceProblem(kind, action);
    if (problem) throw new UsageError(`--repair wants KIND=ACTION: ${problem}`);
    choices[kind as RepairKind] = action as RepairAction;
  }
  return choices;
}

export const importCli: CliCommand = defineCommand({
  name: 'import',
  summary:
    'Imports a file (CSV/TSV/TXT, XLSX, ODS, JSON, GeoJSON, a zip of them; text formats also gzipped) into a resource. ' +
    'Progress goes to stderr, one JSON line describing what was created to stdout. ' +
    'When a Deskstore server holds the data directory, the import is done by that server through its API ' +
    '(token: $DESKSTORE_TOKEN, else DIR/api-token); otherwise in this process.',
  options: {
    data: { type: 'string' },
    package: { type: 'string' },
    name: { type: 'string' },
    'resource-id': { type: 'string' },
    encoding: { type: 'string' },
    delimiter: { type: 'string' },
    'skip-lines': { type: 'string' },
    type: { type: 'string', multiple: true },
    language: { type: 'string' },
    'keep-spaces': { type: 'boolean' },
    sheet: { type: 'string' },
    entry: { type: 'string' },
    repair: { type: 'string', multiple: true },
    ...KEEP_VERSIONS_OPTION,
  },
  help: {
    data: { value: 'DIR', text: DATA_DIR_HELP },
    package: { value: 'NAME', text: 'The dataset to add the resource to, created if missing. Default: a name made from the file name.' },
    name: { value: 'TITLE', text: "The resource's name. Default: the file name." },
    'resource-id': {
      value: 'ID',
      text: `The resource's id: an existing resource's data is replaced (its id kept), a new one gets this id (${RESOURCE_ID_RULE}).`,
    },
    encoding: { value: 'ENCODING', text: 'The text encoding (utf-8, windows-1252, iso-8859-1, …). Default: detected.' },
    delimiter: { value: 'D', text: `The field delimiter: ${DELIMITER_CHOICES}. Default: detected.` },
    'skip-lines': { value: 'N', text: 'Lines above the header to skip. Default: detected.' },
    type: { value: 'COLUMN=TYPE', text: `Force a column's type; TYPE is one of ${IMPORT_TYPES.join(', ')}.` },
    language: { value: 'LANGUAGE', text: 'The full-text language: english (default, as CKAN), italian or simple (no stemming).' },
    'keep-spaces': { text: 'Keep spaces and tabs around cells (they are removed by default: ISTAT pads its codes).' },
    sheet: { value: 'NAME', text: 'The sheet of a workbook to import. Default: the first one with a value.' },
    entry: { value: 'NAME', text: 'The file of a zip archive to import. Default: the first one Deskstore can read.' },
    repair: {
      value: 'KIND=ACTION',
      text: `What to do with rows of one kind of problem. KIND: ${REPAIR_KINDS.join(', ')}; ACTION: ${REPAIR_ACTIONS.join(', ')}. Each kind's default keeps every row.`,
    },
    ...KEEP_VERSIONS_HELP,
  },
  positionals: { min: 1, max: 1, name: 'FILE', text: 'The file to import.' },
  async run(values, positionals, env) {
    const delimiterName = stringOption(values.delimiter);
    const delimiter = delimiterName === undefined ? undefined : delimiterFromName(delimiterName);
    if (delimiterName !== undefined && !delimiter) {
      throw new UsageError(`--delimiter must be one of ${DELIMITER_CHOICES}, got ${JSON.stringify(delimiterName)}`);
    }
    const types = forcedTypes(Array.isArray(values.type) ? values.type.map(String) : []);
    const language = stringOption(values.language);
    if (language !== undefined && !isTextSearchLanguage(language)) throw new UsageError('--language must be english, simple or italian');
    const skipLines = integerOption(values['skip-lines'], '--skip-lines', 0);
    const encoding = stringOption(values.encoding);
    const packageName = stringOption(values.package);
    const resourceName = stringOption(values.name);
    const resourceId = stringOption(values['resource-id']);
    const repairs = repairChoices(Array.isArray(values.repair) ? values.repair.map(String) : []);
    const sheet = stringOption(values.sheet);
    const entry = stringOption(values.entry);
    const idProblem = resourceId === undefined ? null : resourceIdProblem(resourceId);
    if (idProblem) throw new UsageError(`--resource-id: ${idProblem} (${RESOURCE_ID_RULE})`);
    const keepVersions = keepVersionsOption(values);
    await importCommand({
      ...optional('keepVersions', keepVersions),
      importWorker: env.here('./import-worker.js'),
      file: resolve(positionals[0]!),
      dataDir: resolve(stringOption(values.data) ?? defaultDataDir()),
      ...(packageName ? { packageName } : {}),
      ...(resourceName ? { resourceName } : {}),
      ...(resourceId ? { resourceId } : {}),
      choices: {
        ...(encoding ? { encoding } : {}),
        ...(delimiter ? { delimiter } : {}),
        ...(skipLines !== undefined ? { skipLines } : {}),
        ...(Object.keys(types).length ? { types } : {}),
        ...(language !== undefined && isTextSearchLanguage(language) ? { ftsLanguage: language } : {}),
        ...(values['keep-spaces'] === true ? { trim: false } : {}),
        ...(Object.keys(repairs).length ? { repairs } : {}),
        ...optional('sheet', sheet),
        ...optional('entry', entry),
      },
    });
  },
});
