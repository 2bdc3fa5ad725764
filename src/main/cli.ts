import { parseArgs } from 'node:util';
import { version } from '../../package.json';
import { DataDirectoryBusyError } from './app/data-dir-lock';
import { type CliCommand, type CliEnvironment, UsageError } from './cli/command';
import { importCli } from './cli/import-command';
import { serveCli } from './cli/serve-command';
import { mirrorCli } from './cli/mirror-command';
import { syncCli } from './cli/sync-command';
import { pushCli } from './cli/push-command';
import { isPortalError } from './portal/portal-errors';
import { isActionError } from './errors';
import { isImportInputError } from './importer/import-errors';
import { PortInUseError } from './server/http-server';

/**
 * The headless entry: `deskstore <command>`. Never imports `electron`; the Electron shell
 * (index.ts) starts the same server through app/deskstore-app.ts. Each command owns its
 * argument spec (cli/*-command.ts); this file only picks one and reports how it ended.
 */
const COMMANDS: readonly CliCommand[] = [serveCli, importCli, mirrorCli, syncCli, pushCli];

const USAGE = `Usage:
${COMMANDS.map((c) => `  ${c.usage}`).join('\n')}

  --data DIR   data directory (default: $DESKSTORE_DATA or ~/.local/share/deskstore); kept private (0700)
  --port N     0 picks any free port (default 8765)
  --token-file FILE
               the API token to require, read from FILE; or set $DESKSTORE_TOKEN. Without either,
               DIR/api-token is used (created on first run). --token TOKEN still works but shows
               the token to every user of the machine in the process list
  --import-folder DIR
               resource_create may load files of DIR by file:// URL (repeatable); otherwise
               local files arrive only as uploads or from the desktop app's file dialog
  TYPE         int4, int8, numeric, bool, date, timestamp or text`;

const environment: CliEnvironment = {
  here: (relative) => new URL(relative, import.meta.url),
  version,
};

async function main(argv: readonly string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(USAGE);
    return;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new UsageError(`unknown command ${JSON.stringify(name)}`);
  const { values, positionals } = parseArgs({
    args: [...rest],
    options: command.options,
    allowPositionals: command.positionals !== undefined,
  });
  const wanted = command.positionals;
  if (wanted && (positionals.length < wanted.min || positionals.length > wanted.max)) {
    throw new UsageError(
      wanted.min === wanted.max && wanted.min === 1
        ? `${command.name} needs exactly one ${wanted.name}`
        : `${command.name} needs ${wanted.min}–${wanted.max} ${wanted.name} arguments`,
    );
  }
  await command.run(values, positionals, environment);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    console.error(`deskstore: ${(err as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (err instanceof PortInUseError) {
    console.error(`deskstore: ${err.message}.\nChoose another port with --port N, or --port 0 for any free one.`);
    process.exit(1);
  }
  // An error worded for people (a mirror's conflict, a portal's refusal) is told in those words.
  const worded = isActionError(err) ? err.deskstoreMessage?.text : undefined;
  console.error(`deskstore: ${worded ?? (err instanceof Error ? err.message : String(err))}`);
  // Expected failures (busy directory, bad file, bad value) are fully told by their message.
  const expected = err instanceof DataDirectoryBusyError || isActionError(err) || isImportInputError(err) || isPortalError(err);
  if (process.env.DESKSTORE_DEBUG || !expected) console.error((err as Error).stack ?? '');
  process.exit(1);
});
