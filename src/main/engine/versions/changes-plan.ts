import { message } from '../../../shared/messages';
import { NotFoundError, ValidationError, withMessage } from '../../errors';
import { resourceDir } from '../../storage/data-paths';
import type { Catalogue } from '../catalogue/catalogue';
import { currentStamp, findVersion } from './version-history';

/**
 * What `deskstore_changes` compares, decided by the engine (which owns the catalogue) and
 * carried out elsewhere (the changes worker, which reads the two generations' columns files):
 * `from` defaults to the version kept just before `to`, `to` to the current one.
 */
export interface ChangesPlan {
  readonly resourceId: string;
  readonly dir: string;
  readonly from: PlannedVersion;
  readonly to: PlannedVersion;
  readonly primaryKey: readonly string[];
  /** Both versions' `_id`s are a portal DataStore's (row-diff.ts may match rows by them). */
  readonly rowIdsStable: boolean;
}

export interface PlannedVersion {
  readonly version: number;
  readonly generation: number;
  readonly created: string;
}

export function planChanges(catalogue: Catalogue, dataDir: string, id: string, from: number | null, to: number | null): ChangesPlan {
  const r = catalogue.findResource(id);
  const ds = r?.datastore;
  if (!r || !ds) throw new NotFoundError(`Resource "${id}" was not found.`);
  const kept = [currentStamp(r, ds).number, ...(ds.olderVersions ?? []).map((v) => v.number)];
  const pick = (param: 'from' | 'to', number: number) => {
    const found = findVersion(r, ds, number);
    if (found) return found;
    throw withMessage(
      new ValidationError({ [param]: [`Version ${number} of this resource is not kept; kept versions: ${kept.join(', ')}`] }),
      message('changes.version_not_kept', `Version ${number} of this resource is not kept; kept versions: ${kept.join(', ')}`, {
        version: number,
        kept: kept.join(', '),
      }),
    );
  };
  const target = pick('to', to ?? kept[0]!);
  let source;
  if (from !== null) source = pick('from', from);
  else {
    const earlier = kept.filter((n) => n < target.stamp.number);
    if (!earlier.length) {
      throw withMessage(
        new ValidationError({
          from: [`Version ${target.stamp.number} is the oldest version kept: there is nothing earlier to compare it with`],
        }),
        message(
          'changes.no_earlier_version',
          `Version ${target.stamp.number} is the oldest version kept: there is nothing earlier to compare it with`,
          {
            version: target.stamp.number,
          },
        ),
      );
    }
    source = pick('from', Math.max(...earlier));
  }
  return {
    resourceId: r.id,
    dir: resourceDir(dataDir, r.id),
    from: { version: source.stamp.number, generation: source.generation, created: source.stamp.created },
    to: { version: target.stamp.number, generation: target.generation, created: target.stamp.created },
    primaryKey: ds.primaryKey,
    rowIdsStable: source.stamp.portalIds === true && target.stamp.portalIds === true,
  };
}
