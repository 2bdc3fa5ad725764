import type { ActionDeps } from './action-deps';
import type { HandlersFor } from './types';
import { resourceIdOf } from '../params/validators';

/** datastore_info (2.11.3+: `resource_id` or `id`). */
export function datastoreInfoAction(deps: ActionDeps): HandlersFor<'datastore_info'> {
  return {
    async datastore_info(params) {
      return deps.engine.info(resourceIdOf(params));
    },
  };
}
