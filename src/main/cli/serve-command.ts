import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDeskstore, type RunningDeskstore } from '../app/deskstore-app';
import { SQL_FUNCTION_POLICIES, type SqlFunctionPolicy } from '../../shared/ckan-sql-functions';
import { consoleLogger } from '../logger';
import { ensureSampleResource } from '../app/sample-resource';
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

export interface ServeArgs {
  readonly dataDir: string;
  readonly port: number;
  readonly host: string;
  readonly token?: string;
  readonly sample: boolean;
  readonly maxUploadBytes?: number;
  readonly sqlTimeoutMs?: number;
  readonly sqlFunctions?: SqlFunctionPolicy;
  readonly memoryBudgetBytes?: number;
  readonly importFolders: readonly string[];
  readonly keepVersions?: number;
}

export interface BuiltPaths {
  readonly engineWorker: URL;
  readonly importWorker: URL;
  readonly rendererDir: URL;
  readonly sampleFile: string;
  readonly version: string;
}

/**
 * `deskstore serve`: one line on stdout once requests are accepted (other tools wait for it);
 * everything else on stderr. SIGINT/SIGTERM close the server and engine, then exit 0.
 */
export async function serveCommand(args: ServeArgs, paths: BuiltPaths): Promise<void> {
  // Signal handlers first: a supervisor may stop us the moment the listening line appears.
  let app: RunningDeskstore | null = null;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`${signal}: closing Deskstore`);
    const closing = app ? app.close() : Promise.resolve();
    closing.then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  const rendererDir = fileURLToPath(paths.rendererDir);
  app = await startDeskstore({
    dataDir: args.dataDir,
    host: args.host,
    port: args.port,
    ...(args.token ? { token: args.token } : {}),
    ...(existsSync(rendererDir) ? { staticDir: rendererDir } : {}),
    workers: { engine: paths.engineWorker, importer: paths.importWorker },
    version: paths.version,
    ...(args.maxUploadBytes ? { maxUploadBytes: args.maxUploadBytes } : {}),
    ...(args.sqlTimeoutMs ? { sqlTimeoutMs: args.sqlTimeoutMs } : {}),
    ...(args.sqlFunctions ? { sqlFunctions: args.sqlFunctions } : {}),
    ...(args.memoryBudgetBytes ? { memoryBudgetBytes: args.memoryBudgetBytes } : {}),
    importFolders: args.importFolders,
    ...(args.keepVersions !== undefined ? { keepVersions: args.keepVersions } : {}),
    // Tests only: an "hour" of a sync schedule this many milliseconds long.
    ...(process.env.DESKSTORE_SCHEDULE_HOUR_MS ? { scheduleHourMs: Number(process.env.DESKSTORE_SCHEDULE_HOUR_MS) } : {}),
    logger: { ...consoleLogger, request: () => {} },
  });
  if (stopping) {
    await app.close();
    process.exit(0);
  }
  if (args.sample) await ensureSampleResource(app.engine.api, args.dataDir, paths.sampleFile, paths.importWorker);
  if (app.tokenFile) console.error(`API token: ${app.tokenFile} (send it as the Authorization header to write)`);
  process.stdout.write(`Deskstore listening on ${app.url}\n`);
}

const LOOPBACK = ['127.0.0.1', 'localhost', '::1'];

/**
 * The API token, if the user chose one: `--token-file FILE`, or `--token` (kept for old
 * scripts, but visible to every user in `ps`), else `$DESKSTORE_TOKEN` (removed from the
 * environment once read); undefined means the data directory's own token file.
 */
function tokenFromOptions(inline: string | undefined, file: string | undefined): string | undefined {
  const fromEnvironment = process.env.DESKSTORE_TOKEN?.trim();
  delete process.env.DESKSTORE_TOKEN;
  if (inline !== undefined && file !== undefined) throw new UsageError('give --token-file or --token, not both');
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new UsageError(`--token-file: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    const token = text.trim();
    if (!token) throw new UsageError(`--token-file: ${file} is empty`);
    return token;
  }
  if (inline !== undefined) {
    console.error(
      'warning: --token is visible to every user of this machine in the process list; use --token-file FILE or DESKSTORE_TOKEN',
    );
    return inline;
  }
  return fromEnvironment || undefined;
}

export const serveCli: CliCommand = defineCommand({
  name: 'serve',
  summary:
    'Serves a data directory over HTTP on 127.0.0.1: the CKAN action API, the dump and download URLs and the UI. ' +
    'Prints one line on stdout once it accepts requests (`Deskstore listening on http://127.0.0.1:PORT`), the token file on stderr; ' +
    'SIGINT or SIGTERM close it.',
  options: {
    data: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    token: { type: 'string' },
    'token-file': { type: 'string' },
    'no-sample': { type: 'boolean' },
    'max-upload-mb': { type: 'string' },
    'sql-timeout-s': { type: 'string' },
    'sql-functions': { type: 'string' },
    'memory-budget-mb': { type: 'string' },
    'import-folder': { type: 'string', multiple: true },
    ...KEEP_VERSIONS_OPTION,
  },
  help: {
    data: { value: 'DIR', text: DATA_DIR_HELP },
    port: {
      value: 'N',
      text: 'The port to listen on; 0 picks any free one. Default 8765. A port already in use is told, with this option to choose another.',
    },
    host: {
      value: 'ADDRESS',
      text: 'A loopback address to listen on: 127.0.0.1 (default), ::1 or localhost. Deskstore never listens on other addresses.',
    },
    token: {
      value: 'TOKEN',
      text: 'The API token to require. Kept for old scripts: it shows in the process list to every user of the machine, so prefer --token-file or $DESKSTORE_TOKEN.',
    },
    'token-file': {
      value: 'FILE',
      text: 'Require the token written in FILE (or set $DESKSTORE_TOKEN). Without either, DIR/api-token is used, created on the first run.',
    },
    'no-sample': { text: 'Do not import the embedded sample (ISTAT municipalities of the north-east) into a new data directory.' },
    'max-upload-mb': { value: 'N', text: 'The largest upload or URL download accepted, in MB. Default 4096.' },
    'sql-timeout-s': { value: 'N', text: 'How long one datastore_search_sql may run, in seconds. Default 60.' },
    'sql-functions': {
      value: 'ckan|all',
      text: "Which functions datastore_search_sql may call. ckan (default): only those in CKAN's allow-list, checked as CKAN checks them (coalesce(…), CAST(…) and = ANY(…) are calls there), so a query that works here works on a portal. all: every function Deskstore runs, for work that stays on this machine.",
    },
    'memory-budget-mb': {
      value: 'N',
      text: 'What open resources may hold in memory before the least recently used are unloaded, in MB. Default: a quarter of the machine memory; status_show reports it as deskstore_memory.',
    },
    'import-folder': {
      value: 'DIR',
      text: "resource_create may load files of DIR by file:// URL (and deskstore_import_preview by deskstore_local_path). Otherwise local files arrive only as uploads or from the desktop app's file dialog.",
    },
    ...KEEP_VERSIONS_HELP,
  },
  async run(values, _positionals, env) {
    const maxUploadMb = integerOption(values['max-upload-mb'], '--max-upload-mb', 1);
    const sqlTimeoutS = integerOption(values['sql-timeout-s'], '--sql-timeout-s', 1);
    const sqlFunctions = stringOption(values['sql-functions']);
    if (sqlFunctions !== undefined && !SQL_FUNCTION_POLICIES.includes(sqlFunctions as SqlFunctionPolicy)) {
      throw new UsageError('--sql-functions must be ckan or all');
    }
    const memoryBudgetMb = integerOption(values['memory-budget-mb'], '--memory-budget-mb', 1);
    const keepVersions = keepVersionsOption(values);
    const host = stringOption(values.host) ?? '127.0.0.1';
    if (!LOOPBACK.includes(host)) {
      throw new UsageError('--host must be a loopback address (127.0.0.1, ::1 or localhost): Deskstore is a local, single-user server');
    }
    const token = tokenFromOptions(stringOption(values.token), stringOption(values['token-file']));
    const importFolders = (Array.isArray(values['import-folder']) ? values['import-folder'].map(String) : []).map((dir) => {
      if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--import-folder: ${dir} is not a folder`);
      return resolve(dir);
    });
    await serveCommand(
      {
        dataDir: resolve(stringOption(values.data) ?? defaultDataDir()),
        port: integerOption(values.port, '--port', 0) ?? 8765,
        host,
        ...(token !== undefined ? { token } : {}),
        sample: values['no-sample'] !== true,
        ...(maxUploadMb ? { maxUploadBytes: maxUploadMb * 1024 * 1024 } : {}),
        ...(sqlTimeoutS ? { sqlTimeoutMs: sqlTimeoutS * 1000 } : {}),
        ...(sqlFunctions ? { sqlFunctions: sqlFunctions as SqlFunctionPolicy } : {}),
        ...(memoryBudgetMb ? { memoryBudgetBytes: memoryBudgetMb * 1024 * 1024 } : {}),
        importFolders,
        ...(keepVersions !== undefined ? { keepVersions } : {}),
      },
      {
        engineWorker: env.here('./engine-worker.js'),
        importWorker: env.here('./import-worker.js'),
        rendererDir: env.here('../renderer/'),
        sampleFile: fileURLToPath(env.here('../../resources/sample/comuni-italiani-nord-est.csv')),
        version: env.version,
      },
    );
  },
});
