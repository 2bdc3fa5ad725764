import { totalmem } from 'node:os';

const MiB = 1024 * 1024;

/**
 * How much memory open resources may hold before the least recently used are unloaded, when
 * the user did not say (`deskstore serve --memory-budget-mb`): a quarter of the machine's
 * memory, so that a desktop keeps room for everything else it runs, and never less than
 * 512 MiB (one million-row resource with SQL) nor more than 16 GiB.
 */
export function defaultMemoryBudgetBytes(machineBytes: number = totalmem()): number {
  return Math.round(Math.min(16 * 1024 * MiB, Math.max(512 * MiB, machineBytes / 4)));
}
