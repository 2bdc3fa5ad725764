import { ValidationError } from '../errors';
import type { UpsertMethod } from '../engine/datastore/upsert';
import type { ActionDeps } from './action-deps';
import type { ActionDefinition, ActionParams } from './types';
import { resourceIdOf, toBoolean, toJsonValue } from './validators';

const METHODS: readonly UpsertMethod[] = ['upsert', 'insert', 'update'];

/** `filters` may arrive JSON-encoded from a form; undefined/null mean "no filters". */
function filtersOf(params: ActionParams): unknown {
  if (params.filters === undefined || params.filters === null) return params.filters;
  const decoded = toJsonValue(params.filters);
  if (!decoded.ok) throw new ValidationError({ filters: [decoded.error as string] });
  return decoded.value;
}

/** datastore_upsert, datastore_delete and datastore_records_delete (contract §7–8). */
export function datastoreWriteActions(deps: ActionDeps): ActionDefinition[] {
  return [
    {
      name: 'datastore_upsert', sideEffectFree: false,
      async run(params) {
        const resourceId = resourceIdOf(params);
        const method = (params.method ?? 'upsert') as UpsertMethod;
        if (!METHODS.includes(method)) {
          throw new ValidationError({ method: ["Value must be one of ['upsert', 'insert', 'update']"] });
        }
        await deps.engine.datastoreUpsert({
          resourceId, records: params.records, method,
          force: toBoolean(params.force ?? false), dryRun: toBoolean(params.dry_run ?? false),
        });
        // ≤ 2.11 echo the request, records included.
        return { ...params, resource_id: resourceId, method };
      },
    },
    {
      name: 'datastore_delete', sideEffectFree: false,
      async run(params) {
        const resourceId = resourceIdOf(params);
        const filters = filtersOf(params);
        const out = await deps.engine.datastoreDelete({ resourceId, filters, force: toBoolean(params.force ?? false) });
        return filters === undefined || filters === null
          ? { resource_id: out.resourceId }
          : { resource_id: out.resourceId, filters };
      },
    },
    {
      name: 'datastore_records_delete', sideEffectFree: false,
      async run(params) {
        const resourceId = resourceIdOf(params);
        const filters = filtersOf(params);
        if (filters === undefined || filters === null) throw new ValidationError({ filters: ['Missing value'] });
        if (typeof filters !== 'object' || Array.isArray(filters)) throw new ValidationError({ filters: ['Must be a dict'] });
        const out = await deps.engine.datastoreDelete({ resourceId, filters, force: toBoolean(params.force ?? false) });
        return { resource_id: out.resourceId, filters };
      },
    },
  ];
}
