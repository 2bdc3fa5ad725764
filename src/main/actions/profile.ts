import type { ProfileResult } from '../../shared/wire/profile';
import { ValidationError } from '../errors';
import type { ActionDeps } from './action-deps';
import { readCount, readRowSelection } from '../params/row-selection-params';
import type { HandlersFor } from './types';
import { SchemaErrors, toStringList, unquoteName } from '../params/validators';

/**
 * `deskstore_profile` (GET-able): column profiles over the rows `filters` and `q` select,
 * for scripts as for the UI's profile panel. `fields` (list or comma string) picks the
 * columns; `top` (default 10, ≤ 100) and `bins` (default 20, ≤ 100) size the answer.
 */
export function profileAction(deps: ActionDeps): HandlersFor<'deskstore_profile'> {
  return {
    async deskstore_profile(params) {
      const errors = new SchemaErrors();
      const selection = readRowSelection(params, errors);
      const fields = params.fields === undefined ? undefined : errors.take('fields', toStringList(params.fields, 'fields'));
      const top = readCount(params, 'top', 10, 100, errors);
      const bins = Math.max(1, readCount(params, 'bins', 20, 100, errors));
      if (errors.any) throw new ValidationError(errors.members);
      const result = await deps.engine.profile({ ...selection, ...(fields ? { fields: fields.map(unquoteName) } : {}), top, bins });
      return result satisfies ProfileResult;
    },
  };
}
