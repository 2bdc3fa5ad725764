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

/**
 * One `deskstore <name>` command. It owns its argument spec (parsed by node:util's parseArgs
 * with strict checking) and its usage lines; cli.ts only picks the command and reports how it
 * ended. A new command is a file exporting one of these and a line in cli.ts's table.
 */
export interface CliCommand {
  readonly name: string;
  /** Usage lines shown by `deskstore --help`, starting with `deskstore <name>`. */
  readonly usage: string;
  readonly options: NonNullable<ParseArgsConfig['options']>;
  /** How many positional arguments the command takes (default: none). */
  readonly positionals?: { readonly min: number; readonly max: number; readonly name: string };
  run(values: OptionValues, positionals: readonly string[], env: CliEnvironment): Promise<void>;
}

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
