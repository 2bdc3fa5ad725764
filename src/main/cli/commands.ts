import type { CliCommand } from './command';
import { importCli } from './import-command';
import { mirrorCli } from './mirror-command';
import { pushCli } from './push-command';
import { renameCli } from './rename-command';
import { serveCli } from './serve-command';
import { syncCli } from './sync-command';

/** Every `deskstore` command, in the order the help lists them. */
export const COMMANDS: readonly CliCommand[] = [serveCli, importCli, mirrorCli, syncCli, pushCli, renameCli];
