import { ACTION_NAMES, SIDE_EFFECT_FREE, type ActionName } from '../../shared/wire/actions';
import type { ActionDeps } from './action-deps';
import { catalogueActions } from './catalogue-actions';
import { catalogueSearchActions } from './catalogue-search-actions';
import { datastoreCreateAction } from './datastore-create';
import { datastoreInfoAction } from './datastore-info';
import { datastoreSearchAction } from './datastore-search';
import { datastoreSearchSqlAction } from './datastore-search-sql';
import { datastoreWriteActions } from './datastore-write';
import { facetsAction } from './facets';
import { importActions } from './import-actions';
import { portalActions } from './portal-actions';
import { profileAction } from './profile';
import { groupByAction } from './group-by';
import { mapPointsAction } from './map-points';
import { renameFieldsAction } from './rename-fields';
import { requireToken } from './require-token';
import { tokenCheckAction } from './token-check';
import type { ActionDefinition, ActionHandlers, ActionRegistry } from './types';
import type { ActionParams } from '../params/action-params';
import { versionsActions } from './versions-actions';

/** Every action of the contract (src/shared/wire/actions.ts), each by its handler. */
export function actionHandlers(deps: ActionDeps): ActionHandlers {
  return {
    ...datastoreSearchAction(deps),
    ...datastoreSearchSqlAction(deps),
    ...datastoreInfoAction(deps),
    ...datastoreCreateAction(deps),
    ...datastoreWriteActions(deps),
    ...catalogueActions(deps),
    ...catalogueSearchActions(deps),
    ...importActions(deps),
    ...portalActions(deps),
    ...versionsActions(deps),
    ...renameFieldsAction(deps),
    ...facetsAction(deps),
    ...profileAction(deps),
    ...groupByAction(deps),
    ...mapPointsAction(deps),
    ...tokenCheckAction,
  };
}

/**
 * Anything that changes data needs the token: enforced here for every action that is not
 * side-effect free, so no write action can forget it.
 */
function definition(name: ActionName, handlers: ActionHandlers): ActionDefinition {
  // The handler's parameter type only narrows which names it may read; the values are unknown either way.
  const run = handlers[name] as (params: ActionParams, ctx: Parameters<ActionHandlers[ActionName]>[1]) => Promise<unknown>;
  const sideEffectFree = SIDE_EFFECT_FREE[name];
  return {
    name,
    sideEffectFree,
    requiresToken: !sideEffectFree,
    async run(params, ctx) {
      if (!sideEffectFree) requireToken(ctx, name);
      return run(params, ctx);
    },
  };
}

/** Every action Deskstore answers, by CKAN name. */
export function createActionRegistry(deps: ActionDeps): ActionRegistry {
  const handlers = actionHandlers(deps);
  return new Map(ACTION_NAMES.map((name) => [name, definition(name, handlers)]));
}
