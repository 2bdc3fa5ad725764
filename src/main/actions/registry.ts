import type { ActionDeps } from './action-deps';
import { catalogueActions } from './catalogue-actions';
import { datastoreCreateAction } from './datastore-create';
import { datastoreInfoAction } from './datastore-info';
import { datastoreSearchAction } from './datastore-search';
import { datastoreSearchSqlAction } from './datastore-search-sql';
import { datastoreWriteActions } from './datastore-write';
import { facetsAction } from './facets';
import { importActions } from './import-actions';
import { tokenCheckAction } from './token-check';
import type { ActionDefinition, ActionRegistry } from './types';

/** Every action Deskstore answers, by CKAN name. */
export function createActionRegistry(deps: ActionDeps, extra: readonly ActionDefinition[] = []): ActionRegistry {
  const all = [
    datastoreSearchAction(deps),
    datastoreSearchSqlAction(deps),
    datastoreInfoAction(deps),
    datastoreCreateAction(deps),
    ...datastoreWriteActions(deps),
    ...catalogueActions(deps),
    ...importActions(deps),
    facetsAction(deps),
    tokenCheckAction,
    ...extra,
  ];
  return new Map(all.map((a) => [a.name, a]));
}
