import { CHANGE_KINDS, type ChangeKind } from '../../shared/wire/versions';
import type { ChangesAnswer } from '../engine/versions/changes-protocol';
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
}

export interface ChangesOutcome {
  readonly resourceId: string;
  readonly from: number;
  readonly to: number;
  readonly answer: ChangesAnswer;
}

/** Records per page unless `limit` says otherwise, and at most (CKAN's default rows_max). */
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 32_000;

function readVersion(params: ActionInput<'deskstore_changes'>, name: 'from' | 'to', errors: SchemaErrors): number | null {
  if (isMissing(params[name])) return null;
  return errors.take(name, toNaturalNumber(params[name])) ?? null;
}

/**
 * `deskstore_versions` and `deskstore_changes` (docs/versions.md), both readable with GET like
 * datastore_search: the kept versions of a resource's data, and the rows that differ between
 * two of them.
 */
export function versionsActions(deps: ActionDeps): HandlersFor<'deskstore_versions' | 'deskstore_changes'> {
  return {
    async deskstore_versions(params) {
      return deps.engine.versions(resourceIdOf(params));
    },
    async deskstore_changes(params) {
      const resourceId = resourceIdOf(params);
      const errors = new SchemaErrors();
      const from = readVersion(params, 'from', errors);
      const to = readVersion(params, 'to', errors);
      const key = isMissing(params.key) ? undefined : errors.take('key', toStringList(params.key, 'key'))?.map(unquoteName);
      let change: ChangeKind | null = null;
      if (!isMissing(params.change)) {
        const value = String(params.change);
        if ((CHANGE_KINDS as readonly string[]).includes(value)) change = value as ChangeKind;
        else errors.add('change', `Must be one of ${CHANGE_KINDS.join(', ')}`);
      }
      const limit = readCount(params, 'limit', DEFAULT_LIMIT, MAX_LIMIT, errors);
      const offset = readCount(params, 'offset', 0, Number.MAX_SAFE_INTEGER, errors);
      if (errors.any) throw new ValidationError(errors.members);
      if (!deps.changes) throw new ValidationError({ resource_id: ['Changes need the Deskstore server'] });
      const outcome = await deps.changes({ resourceId, from, to, ...(key?.length ? { key } : {}), change, offset, limit });
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
