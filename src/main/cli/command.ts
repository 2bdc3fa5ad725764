import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ParseArgsConfig } from 'node:util';

/** A mistake in how a command was called: told with the usage, exit status 2. */
export class UsageError extends Error {}

/** What every command may need of the built program around it. */
export interface CliEnvironment {
  /** A file beside the built CLI (`out/main/`), e.g. a worker entry. */
  readonly here: (relative: string) => URL;
  readonly version: string;
}

/** The values `node:util` parseArgs produces for an option table. */
export type OptionValues = Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;

export type OptionSpecs = NonNullable<ParseArgsConfig['options']>;

/** What `--help` and docs/cli.md say of one option. */
export interface OptionHelp {
  /** The value's name in the usage line (`DIR`, `N`); none for a switch. */
  readonly value?: string;
  readonly text: string;
  /** The command cannot run without it (shown without brackets). */
  readonly required?: true;
}

/**
 * One `deskstore <name>` command. It owns its argument spec (parsed by node:util's parseArgs
 * with strict checking) and what its help says of each option; cli.ts only picks the command
 * and reports how it ended. The usage lines of `deskstore --help` and the reference in
 * docs/cli.md are generated from these (cli/reference.ts), so they cannot drift from what is
 * parsed. A new command is a file exporting one of these and a line in cli/commands.ts.
 */
export interface CliCommand<Options extends OptionSpecs = OptionSpecs> {
  readonly name: string;
  /** One sentence: what the command does. */
  readonly summary: string;
  readonly options: Options;
  /** Every option's help: an option without one does not compile. */
  readonly help: { readonly [K in keyof Options]: OptionHelp };
  /** The positional arguments the command takes (default: none). */
  readonly positionals?: { readonly min: number; readonly max: number; readonly name: string; readonly text: string };
  /** Paragraphs after the options (exit statuses, what goes to stdout). */
  readonly notes?: readonly string[];
  run(values: OptionValues, positionals: readonly string[], env: CliEnvironment): Promise<void>;
}

/** A command whose help covers every option (checked by the compiler), as the table takes it. */
export function defineCommand<Options extends OptionSpecs>(command: CliCommand<Options>): CliCommand {
  return command;
}

/** What every command's --data says. */
export const DATA_DIR_HELP =
  'The data directory (created if missing, kept private: 0700, files 0600). Default: $DESKSTORE_DATA, else $XDG_DATA_HOME/deskstore (~/.local/share/deskstore).';

/** --data's default: $DESKSTORE_DATA, else the XDG data folder. */
export function defaultDataDir(): string {
  return process.env.DESKSTORE_DATA ?? join(process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'deskstore');
}

/** A whole-number option, or undefined when absent. */
export function integerOption(value: unknown, name: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d+$/.test(value) || Number(value) < min) {
    throw new UsageError(`${name} must be a whole number ≥ ${min}, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

/** A string option, or undefined when absent. */
export function stringOption(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** `--keep-versions N` (serve, import, mirror, sync): versions of each resource's data kept in all. */
export const KEEP_VERSIONS_OPTION = { 'keep-versions': { type: 'string' } } as const;

export const KEEP_VERSIONS_HELP = {
  'keep-versions': {
    value: 'N',
    text: "Versions of each resource's data kept in all, the current one included: earlier ones answer deskstore_changes (docs/versions.md). Default 3; 1 keeps only the current one.",
  },
} as const;

export function keepVersionsOption(values: OptionValues): number | undefined {
  return integerOption(values['keep-versions'], '--keep-versions', 1);
}
