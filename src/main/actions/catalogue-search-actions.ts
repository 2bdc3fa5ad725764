import { packageWithoutLocalPaths } from './public-view';
import type { ActionDeps } from './action-deps';
import type { HandlersFor } from './types';
import { toBoolean } from '../params/validators';
import { DEFAULT_LICENSES } from '../../shared/wire/ckan-licenses';
import { parseGroupList, parsePackageSearch, text } from '../params/catalogue-params';

/**
 * The catalogue's read actions portals' clients call (docs/ckan-contract.md §10):
 * package_search with CKAN's Solr parameters, organization_list/show, group_list/show,
 * tag_list, license_list; and organization_create / group_create, which a portal mirror
 * and `ckanapi load organizations` use (token only, like every write).
 */

type CatalogueSearchAction = 'package_search' | `${'organization' | 'group'}_${'list' | 'show' | 'create'}` | 'tag_list' | 'license_list';

export function catalogueSearchActions(deps: ActionDeps): HandlersFor<CatalogueSearchAction> {
  const { engine } = deps;
  return {
    async package_search(params, ctx) {
      const found = await engine.packageSearch(parsePackageSearch(params), ctx.siteUrl);
      // Paths on this machine only for the token holder (docs/security.md).
      if (ctx.authorized || !Array.isArray(found.results)) return found;
      return { ...found, results: found.results.map((p) => packageWithoutLocalPaths(p)) };
    },
    organization_list: async (params) => engine.groupList(parseGroupList(params, true)),
    organization_show: async (params) => engine.groupShow(params.id, true),
    organization_create: async (params) => engine.groupCreate(params, true),
    group_list: async (params) => engine.groupList(parseGroupList(params, false)),
    group_show: async (params) => engine.groupShow(params.id, false),
    group_create: async (params) => engine.groupCreate(params, false),
    async tag_list(params) {
      return engine.tagList(text(params.query), toBoolean(params.all_fields ?? false));
    },
    async license_list() {
      return DEFAULT_LICENSES;
    },
  };
}
