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
import { requireToken } from './require-token';
import { tokenCheckAction } from './token-check';
import type { ActionDefinition, ActionRegistry } from './types';

/**
 * Anything that changes data needs the token: enforced here for every action that is not
 * side-effect free, so no write action can forget it.
 */
function withTokenCheck(action: ActionDefinition): ActionDefinition {
  if (action.sideEffectFree) return action;
  return {
    ...action,
    requiresToken: true,
    async run(params, ctx) {
      requireToken(ctx, action.name);
      return action.run(params, ctx);
    },
  };
}

/** Every action Deskstore answers, by CKAN name. */
export function createActionRegistry(deps: ActionDeps): ActionRegistry {
  const all = [
    datastoreSearchAction(deps),
    datastoreSearchSqlAction(deps),
    datastoreInfoAction(deps),
    datastoreCreateAction(deps),
    ...datastoreWriteActions(deps),
    ...catalogueActions(deps),
    ...catalogueSearchActions(deps),
    ...importActions(deps),
    ...portalActions(deps),
    facetsAction(deps),
    profileAction(deps),
    groupByAction(deps),
    mapPointsAction(deps),
    tokenCheckAction,
  ];
  return new Map(all.map((a) => [a.name, withTokenCheck(a)]));
}
