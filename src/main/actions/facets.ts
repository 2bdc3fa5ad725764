import { ValidationError } from '../errors';
import type { ActionDeps } from './action-deps';
import type { ActionDefinition } from './types';
import { SchemaErrors, isMissing, toBoolean, toJsonValue, toNaturalNumber } from './validators';

/**
 * `deskstore_facets` (Deskstore's own, GET-able): a column's distinct values with counts,
 * among the rows matching `q` and `filters`. The UI's per-column filter picker uses it.
 */
export function facetsAction(deps: ActionDeps): ActionDefinition {
  return {
    name: 'deskstore_facets',
    sideEffectFree: true,
    async run(params) {
      const errors = new SchemaErrors();
      if (isMissing(params.resource_id)) errors.add('resource_id', 'Missing value');
      if (isMissing(params.field)) errors.add('field', 'Missing value');
      const limit = isMissing(params.limit) ? 50 : errors.take('limit', toNaturalNumber(params.limit));
      const filters = params.filters === undefined ? undefined : errors.take('filters', toJsonValue(params.filters));
      if (errors.any) throw new ValidationError(errors.members);
      return deps.engine.facets({
        resourceId: String(params.resource_id),
        field: String(params.field),
        ...(filters !== undefined ? { filters } : {}),
        ...(isMissing(params.q) ? {} : { q: String(params.q) }),
        ...(isMissing(params.deskstore_q) ? {} : { deskstoreQ: String(params.deskstore_q) }),
        plain: params.plain === undefined ? true : toBoolean(params.plain),
        ...(isMissing(params.language) ? {} : { language: String(params.language) }),
        ...(isMissing(params.contains) ? {} : { contains: String(params.contains) }),
        limit: Math.min(limit ?? 50, 1000),
      });
    },
  };
}
