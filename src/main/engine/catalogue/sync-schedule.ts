import { message } from '../../../shared/messages';
import { ValidationError, withMessage } from '../../errors';
import type { Catalogue } from './catalogue';
import { findPackageOrThrow } from './catalogue-operations';

/**
 * A mirrored dataset can be synced on its own every N hours while Deskstore runs
 * (docs/versions.md, "Sync on a schedule"): the setting lives on the dataset in the catalogue,
 * the scheduler (jobs/sync-scheduler.ts) reads which are due.
 */
export interface ScheduledSync {
  readonly id: string;
  readonly name: string;
  readonly everyHours: number;
  /** When it was last synced (or mirrored), from the mirror's provenance. */
  readonly lastSync: string;
}

/** Sets (hours ≥ 1) or stops (null) a mirrored dataset's schedule; a local dataset is refused. */
export function setSyncSchedule(
  catalogue: Catalogue,
  idOrName: unknown,
  everyHours: number | null,
): { id: string; every_hours: number | null } {
  const p = findPackageOrThrow(catalogue, idOrName);
  if (!p.mirror) {
    throw withMessage(
      new ValidationError({ id: [`Dataset ${p.name} is not mirrored from a portal: there is nothing to sync`] }),
      message('changes.not_a_mirror', `Dataset ${p.name} is not mirrored from a portal: there is nothing to sync.`, { name: p.name }),
    );
  }
  if (everyHours === null) delete p.syncSchedule;
  else p.syncSchedule = { everyHours };
  return { id: p.id, every_hours: everyHours };
}

export function scheduledSyncs(catalogue: Catalogue): ScheduledSync[] {
  return catalogue
    .listPackages()
    .filter((p) => p.mirror && p.syncSchedule)
    .map((p) => ({ id: p.id, name: p.name, everyHours: p.syncSchedule!.everyHours, lastSync: p.mirror!.fetchedAt }));
}
