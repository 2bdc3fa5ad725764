import type { RecordsFormat } from '../../shared/wire/search';
import { CHANGE_KINDS, type ChangeKind } from '../../shared/wire/versions';
import type { ChangesAnswer } from '../engine/engine-api';
import { ValidationError } from '../errors';
import { RawJson } from '../util/raw-json';
import type { ActionDeps } from './action-deps';
import { readCount } from '../params/row-selection-params';
import type { ActionInput, HandlersFor } from './types';
import { SchemaErrors, isMissing, resourceIdOf, toNaturalNumber, toStringList, unquoteName } from '../params/validators';

/** What `deskstore_changes` asks of the engine and the changes worker (app/deskstore-app.ts). */
export interface ChangesRequest {
  readonly resourceId: string;
  readonly from: number | null;
  readonly to: number | null;
  readonly key?: readonly string[];
  readonly change: ChangeKind | null;
  readonly offset: number;
  readonly limit: number;
  /** `objects` (the action's) unless the changes dump asks for another. */
  readonly format?: RecordsFormat;
}

/** Which comparison a request asks for: the versions, the key, the kind of change. */
export type ChangesSelection = Pick<ChangesRequest, 'from' | 'to' | 'key' | 'change'>;

export interface ChangesOutcome {
  readonly resourceId: string;
  readonly from: number;
  readonly to: number;
  readonly answer: ChangesAnswer;
}

/** Records per page unless `limit` says otherwise, and at most (CKAN's default rows_max). */
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 32_000;

type SelectionInput = Pick<ActionInput<'deskstore_changes'>, 'from' | 'to' | 'key' | 'change'>;

function readVersion(params: SelectionInput, name: 'from' | 'to', errors: SchemaErrors): number | null {
  if (isMissing(params[name])) return null;
  return errors.take(name, toNaturalNumber(params[name])) ?? null;
}

/** `from`, `to`, `key` and `change`, as the action and the changes dump both read them. */
export function readChangesSelection(params: SelectionInput, errors: SchemaErrors): ChangesSelection {
  const from = readVersion(params, 'from', errors);
  const to = readVersion(params, 'to', errors);
  const key = isMissing(params.key) ? undefined : errors.take('key', toStringList(params.key, 'key'))?.map(unquoteName);
  let change: ChangeKind | null = null;
  if (!isMissing(params.change)) {
    const value = String(params.change);
    if ((CHANGE_KINDS as readonly string[]).includes(value)) change = value as ChangeKind;
    else errors.add('change', `Must be one of ${CHANGE_KINDS.join(', ')}`);
  }
  return { from, to, ...(key?.length ? { key } : {}), change };
}

/**
 * `deskstore_versions` and `deskstore_changes` (docs/versions.md), both readable with GET like
 * datastore_search: the kept versions of a resource's data, and the rows that differ between
 * two of them; `deskstore_sync_schedule` (token) syncs a mirrored dataset every N hours.
 */
/** The longest sync schedule: a year. */
const MAX_SCHEDULE_HOURS = 8760;

export function versionsActions(deps: ActionDeps): HandlersFor<'deskstore_versions' | 'deskstore_changes' | 'deskstore_sync_schedule'> {
  return {
    async deskstore_sync_schedule(params) {
      const errors = new SchemaErrors();
      if (isMissing(params.id)) errors.add('id', 'Missing value');
      const hours = isMissing(params.every_hours) ? 0 : errors.take('every_hours', toNaturalNumber(params.every_hours));
      if (hours !== undefined && hours > MAX_SCHEDULE_HOURS) errors.add('every_hours', `Must be at most ${MAX_SCHEDULE_HOURS} (a year)`);
      if (errors.any) throw new ValidationError(errors.members);
      return deps.engine.setSyncSchedule(String(params.id), hours ? hours : null);
    },
    async deskstore_versions(params) {
      return deps.engine.versions(resourceIdOf(params));
    },
    async deskstore_changes(params) {
      const resourceId = resourceIdOf(params);
      const errors = new SchemaErrors();
      const selection = readChangesSelection(params, errors);
      const limit = readCount(params, 'limit', DEFAULT_LIMIT, MAX_LIMIT, errors);
      const offset = readCount(params, 'offset', 0, Number.MAX_SAFE_INTEGER, errors);
      if (errors.any) throw new ValidationError(errors.members);
      if (!deps.changes) throw new ValidationError({ resource_id: ['Changes need the Deskstore server'] });
      const outcome = await deps.changes({ resourceId, ...selection, offset, limit });
      const a = outcome.answer;
      return {
        resource_id: outcome.resourceId,
        from: outcome.from,
        to: outcome.to,
        key: a.key,
        ...(a.keyReason ? { key_reason: a.keyReason } : {}),
        counts: a.counts,
        total: a.total,
        fields: a.fields,
        records: new RawJson(a.records),
      };
    },
  };
}
