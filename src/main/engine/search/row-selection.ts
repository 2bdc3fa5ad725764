import type { TextSearchLanguage } from '../fts';
import { compileFilter, MATCH_ALL } from './column-predicates';
import type { SearchableResource } from './execute-search';
import { filterColumnsOf, parseFilters } from './filters';
import { rowTextQuery } from './full-text';
import { matchRows } from './match-rows';
import { intersect } from '../fts/posting-ops';
import { matchTypeahead } from './typeahead';

/**
 * The rows a Deskstore summary works on (facets, profiles, group-by, map points): the same
 * `filters`, whole-row `q` and search box (`deskstore_q`) as datastore_search, so a summary
 * always describes the rows the table shows.
 */
export interface RowSelection {
  readonly filters?: unknown;
  readonly q?: string;
  /** Search as you type (typeahead.ts). */
  readonly deskstoreQ?: string;
  readonly plain: boolean;
  readonly language?: string;
}

/** Matching `_id`s, ascending. Throws CKAN's validation errors for bad filters or queries. */
export function selectRows(selection: RowSelection, resource: SearchableResource, defaultLanguage: TextSearchLanguage): Uint32Array {
  const { store } = resource;
  const predicate =
    selection.filters === undefined ? MATCH_ALL : compileFilter(parseFilters(selection.filters, filterColumnsOf(resource.fields)), store);
  const language = (selection.language ?? defaultLanguage) as TextSearchLanguage;
  let candidates = selection.q ? resource.text.match(rowTextQuery(selection.q, selection.plain, language)) : null;
  // search as you type stems with the index's own language, whatever `language` says
  const typeahead = selection.deskstoreQ ? matchTypeahead(selection.deskstoreQ, resource.ftsLanguage, resource.text) : null;
  if (typeahead) candidates = candidates ? intersect(candidates, typeahead) : typeahead;
  return matchRows(predicate, store, candidates);
}
