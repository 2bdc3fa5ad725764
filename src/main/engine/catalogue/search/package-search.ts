import { SearchError, SearchQueryError } from '../../../errors';
import type { CkanFacetItem, CkanPackageSearchResult } from '../../../../shared/wire/ckan-catalogue';
import { DEFAULT_LICENSES } from '../../../../shared/wire/ckan-licenses';
import { fieldKind, packageDocument, type PackageDocument } from './package-document';
import { compileDismax, compileLucene, type Matcher } from './solr-query';

/**
 * package_search over the catalogue (docs/ckan-contract.md §10.4): CKAN's parameters, run as
 * its Solr set-up runs them — `q` with a colon through the standard parser (default field
 * `text`, AND between words), without one through dismax over `name^4 title^4 tags^2
 * groups^2 text`; `fq` always the standard parser; score, then the `sort` fields; facets
 * counted over every match.
 */
export interface PackageSearchRequest {
  readonly q: string;
  readonly fq: readonly string[];
  readonly rows: number;
  readonly start: number;
  /** As sent, or CKAN's default `score desc, metadata_modified desc`. */
  readonly sort: string;
  readonly facet: boolean;
  readonly facetFields: readonly string[];
  /** -1 for every value. */
  readonly facetLimit: number;
  readonly facetMinCount: number;
  /** Only these members of each result (`fl`), or every member. */
  readonly fl: readonly string[] | null;
  /** `edismax` makes even a `q` with a colon go through the dismax fields. */
  readonly defType: string | null;
}

interface SortKey {
  readonly field: string;
  readonly descending: boolean;
}

function parseSort(sort: string): SortKey[] {
  return sort
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const m = /^(\S+)\s+(asc|desc)$/i.exec(part);
      // Solr's wording for a clause without a direction; CKAN turns it into Search Query Error.
      if (!m) throw new SearchQueryError('Invalid "sort" parameter');
      const field = m[1]!;
      if (field !== 'score' && field !== 'title_string' && fieldKind(field) === 'string' && !SORTABLE_STRINGS.has(field)) {
        throw new SearchError(`SOLR returned an error running query: sort param field can't be found: ${field}`);
      }
      return { field, descending: m[2]!.toLowerCase() === 'desc' };
    });
}

const SORTABLE_STRINGS = new Set(['name', 'id', 'organization', 'license_id', 'state', 'owner_org', 'dataset_type', 'url', 'version']);

function sortValue(doc: PackageDocument, field: string, score: number): string | number {
  if (field === 'score') return score;
  switch (fieldKind(field)) {
    case 'date':
      return doc.dates.get(field) ?? -Infinity;
    case 'number':
      return doc.numbers.get(field) ?? -Infinity;
    default:
      return doc.strings.get(field)?.[0] ?? '';
  }
}

function matcherFor(query: string, defType: string | null): Matcher {
  const q = query.trim();
  if (q === '' || q === '*:*' || q === '""' || q === "''") return () => 1;
  return q.includes(':') && defType !== 'edismax' ? compileLucene(q) : compileDismax(q);
}

function displayName(field: string, value: string, titles: ReadonlyMap<string, string>): string {
  if (field === 'groups' || field === 'organization') return titles.get(value)?.trim() || value;
  if (field === 'license_id') return DEFAULT_LICENSES.find((l) => l.id === value)?.title ?? value;
  return value;
}

function facetCounts(docs: readonly PackageDocument[], field: string, req: PackageSearchRequest): [string, number][] {
  const counts = new Map<string, number>();
  for (const doc of docs) {
    const values = fieldKind(field) === 'text' ? (doc.texts.get(field) ?? []).map((t) => t.term) : (doc.strings.get(field) ?? []);
    for (const value of new Set(values)) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  // Solr's facet.sort=count: by count, ties in index (byte) order.
  const sorted = [...counts]
    .filter(([, n]) => n >= req.facetMinCount)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return req.facetLimit < 0 ? sorted : sorted.slice(0, req.facetLimit);
}

/**
 * `dicts` are the datasets as package_show shows them; `groupTitles` maps organization and
 * group names to titles for the facets' display names.
 */
export function searchPackageDicts<Dataset extends Record<string, unknown>>(
  dicts: readonly Dataset[],
  req: PackageSearchRequest,
  groupTitles: ReadonlyMap<string, string>,
): CkanPackageSearchResult<Dataset> {
  const sortKeys = parseSort(req.sort);
  const q = matcherFor(req.q, req.defType);
  const filters = req.fq.filter((f) => f.trim() !== '').map((f) => compileLucene(f));
  const matches: { doc: PackageDocument; dict: Dataset; score: number }[] = [];
  for (const dict of dicts) {
    const doc = packageDocument(dict);
    const score = q(doc);
    if (score === null || filters.some((f) => f(doc) === null)) continue;
    matches.push({ doc, dict, score });
  }
  matches.sort((a, b) => {
    for (const key of sortKeys) {
      const x = sortValue(a.doc, key.field, a.score);
      const y = sortValue(b.doc, key.field, b.score);
      if (x !== y) return (x < y ? -1 : 1) * (key.descending ? -1 : 1);
    }
    return 0;
  });
  const page = matches.slice(req.start, req.start + req.rows).map((m) => m.dict);
  // `fl` names the members a client wants (CKAN's Solr field list): the contract's result
  // describes the whole dict, which is what a client without `fl` gets.
  const results = req.fl ? page.map((d) => Object.fromEntries(req.fl!.map((f) => [f, d[f] ?? null])) as Dataset) : page;

  const facets: Record<string, Record<string, number>> = {};
  const searchFacets: Record<string, { title: string; items: CkanFacetItem[] }> = {};
  if (req.facet) {
    const docs = matches.map((m) => m.doc);
    for (const field of req.facetFields) {
      const counts = facetCounts(docs, field, req);
      facets[field] = Object.fromEntries(counts);
      // CKAN orders search_facets items by display name, descending (get.py package_search).
      searchFacets[field] = {
        title: field,
        items: counts
          .map(([name, count]) => ({ name, display_name: displayName(field, name, groupTitles), count }))
          .sort((a, b) => (a.display_name < b.display_name ? 1 : a.display_name > b.display_name ? -1 : 0)),
      };
    }
  }
  return { count: matches.length, facets, results, sort: req.sort, search_facets: searchFacets };
}
