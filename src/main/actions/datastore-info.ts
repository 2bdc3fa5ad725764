import { ValidationError } from '../errors';
import type { ActionDeps } from './action-deps';
import type { ActionDefinition } from './types';
import { isMissing } from './validators';

/** datastore_info (2.11.3+: `resource_id` or `id`). */
export function datastoreInfoAction(deps: ActionDeps): ActionDefinition {
  return {
    name: 'datastore_info',
    sideEffectFree: true,
    async run(params) {
      const id = isMissing(params.resource_id) ? params.id : params.resource_id;
      if (isMissing(id)) throw new ValidationError({ resource_id: ['Missing value'] });
      return deps.engine.info(String(id));
    },
  };
}
