import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { version } from '../../package.json';
import { DataDirectoryBusyError } from './app/data-dir-lock';
import { importCommand } from './cli/import-command';
import { serveCommand } from './cli/serve-command';
import { isActionError } from './errors';
import { isImportInputError } from './importer/import-errors';
import type { Delimiter } from './importer/sniff-dialect';
import { IMPORT_TYPES, type ImportType } from './importer/value-parsers';
import { isTextSearchLanguage } from './engine/fts';

/**
 * The headless entry: `deskstore serve` and `deskstore import`. Never imports `electron`;
 * the Electron shell (index.ts) starts the same server through app/deskstore-app.ts.
 */
const USAGE = `Usage:
  deskstore serve  [--data DIR] [--port N] [--host 127.0.0.1] [--token TOKEN] [--no-sample]
                   [--max-upload-mb N] [--sql-timeout-s N]
  deskstore import FILE [--data DIR] [--package NAME] [--name TITLE] [--resource-id UUID]
                   [--encoding E] [--delimiter D] [--skip-lines N] [--type COLUMN=TYPE ...]
                   [--language english|simple|italian] [--keep-spaces]

  --data DIR   data directory (default: $DESKSTORE_DATA or ~/.local/share/deskstore)
  --port N     0 picks any free port (default 8765)
  TYPE         int4, int8, numeric, bool, date, timestamp or text`;

class UsageError extends Error {}

const here = (relative: string): URL => new URL(relative, import.meta.url);

function defaultDataDir(): string {
  return process.env.DESKSTORE_DATA ?? join(process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'deskstore');
}

const DELIMITERS: Record<string, Delimiter> = { ',': ',', ';': ';', '|': '|', '\t': '\t', tab: '\t', '\\t': '\t', comma: ',', semicolon: ';', pipe: '|' };
const TYPES: ReadonlySet<string> = new Set(IMPORT_TYPES);

function integer(value: string | undefined, name: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min) throw new UsageError(`${name} must be a whole number ≥ ${min}, got ${JSON.stringify(value)}`);
  return Number(value);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return;
  }
  if (command === 'serve') {
    const { values } = parseArgs({ args: rest, options: {
      data: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, token: { type: 'string' },
      'no-sample': { type: 'boolean' }, 'max-upload-mb': { type: 'string' }, 'sql-timeout-s': { type: 'string' },
    } });
    const maxUploadMb = integer(values['max-upload-mb'], '--max-upload-mb', 1);
    const sqlTimeoutS = integer(values['sql-timeout-s'], '--sql-timeout-s', 1);
    const host = values.host ?? '127.0.0.1';
    if (!['127.0.0.1', 'localhost', '::1'].includes(host)) {
      throw new UsageError(`--host must be a loopback address (127.0.0.1, ::1 or localhost): Deskstore is a local, single-user server`);
    }
    await serveCommand({
      dataDir: resolve(values.data ?? defaultDataDir()),
      port: integer(values.port, '--port', 0) ?? 8765,
      host,
      ...(values.token !== undefined ? { token: values.token } : {}),
      sample: !values['no-sample'],
      ...(maxUploadMb ? { maxUploadBytes: maxUploadMb * 1024 * 1024 } : {}),
      ...(sqlTimeoutS ? { sqlTimeoutMs: sqlTimeoutS * 1000 } : {}),
    }, {
      engineWorker: here('./engine-worker.js'),
      importWorker: here('./import-worker.js'),
      rendererDir: here('../renderer/'),
      sampleFile: fileURLToPath(here('../../resources/sample/comuni-italiani-nord-est.csv')),
      version,
    });
    return;
  }
  if (command === 'import') {
    const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: {
      data: { type: 'string' }, package: { type: 'string' }, name: { type: 'string' }, 'resource-id': { type: 'string' },
      encoding: { type: 'string' }, delimiter: { type: 'string' }, 'skip-lines': { type: 'string' },
      type: { type: 'string', multiple: true }, language: { type: 'string' }, 'keep-spaces': { type: 'boolean' },
    } });
    if (positionals.length !== 1) throw new UsageError('import needs exactly one FILE');
    const delimiter = values.delimiter === undefined ? undefined : DELIMITERS[values.delimiter];
    if (values.delimiter !== undefined && !delimiter) throw new UsageError(`--delimiter must be one of , ; | tab, got ${JSON.stringify(values.delimiter)}`);
    const types: Record<string, ImportType> = {};
    for (const spec of values.type ?? []) {
      const at = spec.lastIndexOf('=');
      const type = spec.slice(at + 1) as ImportType;
      if (at <= 0 || !TYPES.has(type)) throw new UsageError(`--type wants COLUMN=TYPE with TYPE one of ${[...TYPES].join(', ')}, got ${JSON.stringify(spec)}`);
      types[spec.slice(0, at)] = type;
    }
    if (values.language !== undefined && !isTextSearchLanguage(values.language)) {
      throw new UsageError('--language must be english, simple or italian');
    }
    const skipLines = integer(values['skip-lines'], '--skip-lines', 0);
    await importCommand({
      importWorker: here('./import-worker.js'),
      file: resolve(positionals[0]!),
      dataDir: resolve(values.data ?? defaultDataDir()),
      ...(values.package ? { packageName: values.package } : {}),
      ...(values.name ? { resourceName: values.name } : {}),
      ...(values['resource-id'] ? { resourceId: values['resource-id'] } : {}),
      choices: {
        ...(values.encoding ? { encoding: values.encoding } : {}),
        ...(delimiter ? { delimiter } : {}),
        ...(skipLines !== undefined ? { skipLines } : {}),
        ...(Object.keys(types).length ? { types } : {}),
        ...(values.language && isTextSearchLanguage(values.language) ? { ftsLanguage: values.language } : {}),
        ...(values['keep-spaces'] ? { trim: false } : {}),
      },
    });
    return;
  }
  throw new UsageError(`unknown command ${JSON.stringify(command)}`);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    console.error(`deskstore: ${(err as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  console.error(`deskstore: ${err instanceof Error ? err.message : String(err)}`);
  // Expected failures (busy directory, bad file, bad value) are fully told by their message.
  const expected = err instanceof DataDirectoryBusyError || isActionError(err) || isImportInputError(err);
  if (process.env.DESKSTORE_DEBUG || !expected) console.error((err as Error).stack ?? '');
  process.exit(1);
});
