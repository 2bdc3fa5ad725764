/**
 * CKAN's catalogue dicts as Deskstore's actions return them (docs/ckan-contract.md §10): the
 * members clients and the UI read. Every dict may carry more members than listed.
 */

/** A tag as package_show lists it (free tags: no vocabulary). */
export interface CkanTag {
  readonly id: string;
  readonly name: string;
  readonly display_name: string;
  readonly state: 'active';
  readonly vocabulary_id: null;
}

/** An organization or a group as organization_show / group_show return it (datasets left out). */
export interface CkanGroup {
  readonly id: string;
  readonly name: string;
  readonly title: string;
  readonly display_name: string;
  readonly description: string;
  readonly image_url: string;
  readonly image_display_url: string;
  readonly created: string;
  readonly is_organization: boolean;
  readonly type: 'organization' | 'group';
  readonly state: 'active';
  readonly approval_status: 'approved';
  readonly package_count: number;
  readonly num_followers: number;
}

/** The organization inside a dataset dict. */
export interface CkanPackageOrganization {
  readonly id: string;
  readonly name: string;
  readonly title: string;
  readonly type: 'organization';
  readonly description: string;
  readonly image_url: string;
  readonly created: string;
  readonly is_organization: true;
  readonly approval_status: 'approved';
  readonly state: 'active';
}

/** A group inside a dataset dict. */
export interface CkanPackageGroup {
  readonly id: string;
  readonly name: string;
  readonly title: string;
  readonly display_name: string;
  readonly description: string;
  readonly image_display_url: string;
}

/** One value of a facet, in `search_facets`. */
export interface CkanFacetItem {
  readonly name: string;
  readonly display_name: string;
  readonly count: number;
}

/** package_search's result. `results` are package_show dicts. */
export interface CkanPackageSearchResult<Dataset = Record<string, unknown>> {
  readonly count: number;
  readonly facets: Readonly<Record<string, Readonly<Record<string, number>>>>;
  readonly results: readonly Dataset[];
  readonly sort: string;
  readonly search_facets: Readonly<Record<string, { readonly title: string; readonly items: readonly CkanFacetItem[] }>>;
}
