import type { ActionDeps } from './action-deps';
import type { ActionDefinition } from './types';
import { resourceIdOf } from './validators';

/** datastore_info (2.11.3+: `resource_id` or `id`). */
export function datastoreInfoAction(deps: ActionDeps): ActionDefinition {
  return {
    name: 'datastore_info',
    sideEffectFree: true,
    async run(params) {
      return deps.engine.info(resourceIdOf(params));
    },
  };
}
