import { ValidationError, invalid } from '../../errors';
import type { Catalogue } from './catalogue';
import type { PackageRecord } from './records';

/**
 * A dataset's organization, groups, tags and licence (docs/ckan-contract.md §10.2), read from
 * package_create / package_update parameters as CKAN's package schema does, and the keys a
 * client sends back from package_show that are computed, never stored.
 */
export const COMPUTED_PACKAGE_KEYS = [
  'organization',
  'license_title',
  'license_url',
  'num_tags',
  'num_resources',
  'metadata_created',
  'metadata_modified',
  'state',
  'type',
  'private',
  'isopen',
  'creator_user_id',
  'relationships_as_subject',
  'relationships_as_object',
];
export const STRUCTURED_PACKAGE_KEYS = ['owner_org', 'groups', 'tags', 'tag_string', 'license_id'];

type Structured = Pick<PackageRecord, 'ownerOrg' | 'groups' | 'tags' | 'licenseId'>;

const TAG_CHARACTERS = /^[\p{L}\p{N}\s_.-]+$/u;

/** CKAN's tag_length_validator and tag_name_validator; null when the name is fine. */
function tagProblem(name: string): string | null {
  if ([...name].length < 2) return `Tag "${name}" length is less than minimum 2`;
  if ([...name].length > 100) return `Tag "${name}" length is more than maximum 100`;
  if (!TAG_CHARACTERS.test(name)) return `Tag "${name}" must be alphanumeric characters or symbols: -_.`;
  return null;
}

function tagsOf(params: Record<string, unknown>): string[] | undefined {
  if (Array.isArray(params.tags)) {
    const names = params.tags.map((t: unknown) =>
      String(t !== null && typeof t === 'object' ? ((t as { name?: unknown }).name ?? '') : t).trim(),
    );
    // CKAN answers with the messages of the bad tags in one list under `tags`.
    const problems = names.map(tagProblem).filter((p): p is string => p !== null);
    if (problems.length) throw new ValidationError({ tags: problems });
    return [...new Set(names)];
  }
  if (typeof params.tag_string === 'string') {
    const names = params.tag_string
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    const problems = names.map(tagProblem).filter((p): p is string => p !== null);
    if (problems.length) throw new ValidationError({ tag_string: problems });
    return [...new Set(names)];
  }
  return undefined;
}

/**
 * The structured fields given in `params` (missing ones stay undefined, so a patch keeps
 * them). `owner_org` must name an existing organization; groups that do not exist are left
 * out, as CKAN's package_create does.
 */
export function structuredFields(catalogue: Catalogue, params: Record<string, unknown>): Partial<Structured> {
  const out: { -readonly [K in keyof Structured]?: Structured[K] } = {};
  if ('owner_org' in params) {
    const value = params.owner_org;
    if (value === null || value === undefined || value === '') {
      out.ownerOrg = null;
    } else {
      const org = catalogue.findGroup(String(value), true);
      if (!org) throw invalid('owner_org', 'Organization does not exist');
      out.ownerOrg = org.id;
    }
  }
  if (Array.isArray(params.groups)) {
    out.groups = params.groups
      .map((g: unknown) => {
        const ref =
          g !== null && typeof g === 'object' ? ((g as { id?: unknown; name?: unknown }).id ?? (g as { name?: unknown }).name) : g;
        return catalogue.findGroup(String(ref ?? ''), false)?.id;
      })
      .filter((id): id is string => id !== undefined);
  }
  const tags = tagsOf(params);
  if (tags) out.tags = tags;
  if ('license_id' in params) out.licenseId = params.license_id === null || params.license_id === '' ? null : String(params.license_id);
  return out;
}
