import { parseArgs } from 'node:util';
import { version } from '../../package.json';
import { DataDirectoryBusyError } from './app/data-dir-lock';
import { type CliEnvironment, UsageError } from './cli/command';
import { COMMANDS } from './cli/commands';
import { commandText, overviewText, referenceMarkdown } from './cli/reference';
import { ServerActionError } from './cli/server-client';
import { isPortalError } from './portal/portal-errors';
import { isActionError } from './errors';
import { isImportInputError } from './importer/import-errors';
import { PortInUseError } from './server/http-server';

/**
 * The headless entry: `deskstore <command>`. Never imports `electron`; the Electron shell
 * (index.ts) starts the same server through app/deskstore-app.ts. Each command owns its
 * argument spec and help (cli/*-command.ts, listed in cli/commands.ts); this file only picks
 * one and reports how it ended.
 */
const USAGE = overviewText(COMMANDS);

function commandNamed(name: string) {
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new UsageError(`unknown command ${JSON.stringify(name)}`);
  return command;
}

const environment: CliEnvironment = {
  here: (relative) => new URL(relative, import.meta.url),
  version,
};

async function main(argv: readonly string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h') {
    console.log(USAGE);
    return;
  }
  if (name === 'help') {
    // `help --markdown` writes docs/cli.md (npm run docs:cli)
    if (rest[0] === '--markdown') process.stdout.write(referenceMarkdown(COMMANDS));
    else if (rest[0] === undefined) console.log(USAGE);
    else console.log(commandText(commandNamed(rest[0])));
    return;
  }
  const command = commandNamed(name);
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(commandText(command));
    return;
  }
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
  // A running server's refusal (import, mirror, sync, push or rename-columns done through it) is told by it too.
  const expected =
    err instanceof DataDirectoryBusyError ||
    err instanceof ServerActionError ||
    isActionError(err) ||
    isImportInputError(err) ||
    isPortalError(err);
  if (process.env.DESKSTORE_DEBUG || !expected) console.error((err as Error).stack ?? '');
  process.exit(1);
});
