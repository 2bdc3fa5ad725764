/**
 * Compile-time proof that the server's side of the action contract (src/shared/wire/actions.ts)
 * holds: `npm run typecheck` fails if any line marked `@ts-expect-error` below compiles, i.e. if
 * the registry accepted an action without its handler, a handler under a name the contract does
 * not know, a handler reading a parameter the contract does not declare, or one answering
 * something else than its result. Nothing here runs.
 */
import type { ActionDeps } from '../../src/main/actions/action-deps';
import { actionHandlers } from '../../src/main/actions/registry';
import type { ActionHandlers, HandlersFor } from '../../src/main/actions/types';

/** The real registry's handlers, one taken out: no longer every action of the contract. */
export function registryMissingAnAction(deps: ActionDeps): ActionHandlers {
  const { deskstore_token_check: _taken, ...rest } = actionHandlers(deps);
  // @ts-expect-error: deskstore_token_check is in the contract but has no handler
  return rest;
}

/** A module of actions supplying a handler under a misspelled name. */
export const misnamed: HandlersFor<'status_show'> = {
  // @ts-expect-error: `status_shwo` is not an action of the contract (and status_show is missing)
  async status_shwo() {
    return { site_title: 'x' };
  },
};

export const readsAnUndeclaredParameter: HandlersFor<'datastore_info'> = {
  async datastore_info(params) {
    // @ts-expect-error: datastore_info declares resource_id and id, not resource_idd
    throw new Error(String(params.resource_idd));
  },
};

export const answersTheWrongResult: HandlersFor<'deskstore_import_cancel'> = {
  // @ts-expect-error: the result is { resource_id, cancelled }, not a bare boolean
  async deskstore_import_cancel() {
    return true;
  },
};
