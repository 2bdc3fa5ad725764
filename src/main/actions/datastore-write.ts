import type { DatastoreDeleteResult, DatastoreUpsertResult } from '../../shared/wire/actions';
import { ValidationError } from '../errors';
import type { UpsertMethod } from '../../shared/wire/actions';
import type { ActionDeps } from './action-deps';
import type { HandlersFor } from './types';
import type { ActionParams } from '../params/action-params';
import { resourceIdOf, toBoolean } from '../params/validators';

const METHODS: readonly UpsertMethod[] = ['upsert', 'insert', 'update'];

/**
 * `filters` exactly as sent: CKAN takes them out of the request before validation, so a
 * string (even JSON text from a form) is not a dict and is refused.
 */
function filtersOf(params: ActionParams): unknown {
  return params.filters;
}

/** Parameters each write action's schema knows (2.11); the rest is CKAN's `__extras`. */
const UPSERT_KEYS = new Set(['resource_id', 'id', 'force', 'method', 'calculate_record_count', 'dry_run', 'records']);
const DELETE_KEYS = new Set(['resource_id', 'id', 'force', 'calculate_record_count', 'filters']);

function extrasOf(params: ActionParams, known: ReadonlySet<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).filter(([k]) => !known.has(k)));
}

/**
 * A filtered delete goes through the search validator, which refuses what it does not know
 * as `{"__extras": ["invalid value \"<first>\""]}` (backend/postgres.py::delete_data).
 */
function refuseExtrasOfFilteredDelete(params: ActionParams): void {
  const unknown = Object.keys(extrasOf(params, DELETE_KEYS));
  if (unknown.length) throw new ValidationError({ __extras: [`invalid value "${unknown[0]!}"`] });
}

/**
 * The upsert result (≤ 2.11): the validated request with `records` as sent (only when there
 * were some), `force` consumed, booleans converted, unknown keys under `__extras`. Key order as
 * CKAN 2.10.10 writes it: the plain keys sorted (navl's unflatten), then `records`.
 */
function upsertEcho(params: ActionParams, resourceId: string): DatastoreUpsertResult {
  const extras = extrasOf(params, UPSERT_KEYS);
  return {
    ...(Object.keys(extras).length ? { __extras: extras } : {}),
    ...(params.calculate_record_count !== undefined ? { calculate_record_count: toBoolean(params.calculate_record_count) } : {}),
    ...(params.dry_run !== undefined ? { dry_run: toBoolean(params.dry_run) } : {}),
    ...(params.method !== undefined ? { method: params.method } : {}),
    resource_id: resourceId,
    ...(Array.isArray(params.records) && params.records.length ? { records: params.records } : {}),
  };
}

/** The delete result as CKAN 2.10.10 writes it: `calculate_record_count` when given, `resource_id`, then the filters. */
function deleteEcho(params: ActionParams, resourceId: string, filters: unknown): DatastoreDeleteResult {
  return {
    ...(params.calculate_record_count !== undefined ? { calculate_record_count: toBoolean(params.calculate_record_count) } : {}),
    resource_id: resourceId,
    ...(filters === undefined || filters === null ? {} : { filters }),
  };
}

/** datastore_upsert, datastore_delete and datastore_records_delete (docs/ckan-contract.md §7–8). */
export function datastoreWriteActions(deps: ActionDeps): HandlersFor<'datastore_upsert' | 'datastore_delete' | 'datastore_records_delete'> {
  return {
    async datastore_upsert(params) {
      const resourceId = resourceIdOf(params);
      const method = (params.method ?? 'upsert') as UpsertMethod;
      if (!METHODS.includes(method)) {
        throw new ValidationError({ method: ["Value must be one of ['upsert', 'insert', 'update']"] });
      }
      await deps.engine.datastoreUpsert({
        resourceId,
        records: params.records,
        method,
        force: toBoolean(params.force ?? false),
        dryRun: toBoolean(params.dry_run ?? false),
      });
      return upsertEcho(params, resourceId);
    },
    async datastore_delete(params) {
      const resourceId = resourceIdOf(params);
      const filters = filtersOf(params);
      if (filters !== undefined && filters !== null) refuseExtrasOfFilteredDelete(params);
      const out = await deps.engine.datastoreDelete({ resourceId, filters, force: toBoolean(params.force ?? false) });
      return deleteEcho(params, out.resourceId, filters);
    },
    async datastore_records_delete(params) {
      const resourceId = resourceIdOf(params);
      const filters = filtersOf(params);
      if (filters === undefined || filters === null) throw new ValidationError({ filters: ['Missing value'] });
      if (typeof filters !== 'object' || Array.isArray(filters)) throw new ValidationError({ filters: ['Must be a dict'] });
      refuseExtrasOfFilteredDelete(params);
      const out = await deps.engine.datastoreDelete({ resourceId, filters, force: toBoolean(params.force ?? false) });
      return deleteEcho(params, out.resourceId, filters);
    },
  };
}
