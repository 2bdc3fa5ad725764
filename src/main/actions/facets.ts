import { ValidationError } from '../errors';
import type { ActionDeps } from './action-deps';
import { readCount, readRowSelection } from '../params/row-selection-params';
import type { HandlersFor } from './types';
import { SchemaErrors, isMissing } from '../params/validators';

/**
 * `deskstore_facets` (Deskstore's own, GET-able): a column's distinct values with counts,
 * among the rows matching `q` and `filters`. The UI's per-column filter picker uses it.
 */
export function facetsAction(deps: ActionDeps): HandlersFor<'deskstore_facets'> {
  return {
    async deskstore_facets(params) {
      const errors = new SchemaErrors();
      const selection = readRowSelection(params, errors);
      if (isMissing(params.field)) errors.add('field', 'Missing value');
      const limit = readCount(params, 'limit', 50, 1000, errors);
      if (errors.any) throw new ValidationError(errors.members);
      return deps.engine.facets({
        ...selection,
        field: String(params.field),
        ...(isMissing(params.contains) ? {} : { contains: String(params.contains) }),
        limit,
      });
    },
  };
}
