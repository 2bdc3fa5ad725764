import { randomUUID } from 'node:crypto';
import { NotFoundError, invalid } from '../../errors';
import type { CkanGroup, CkanPackageGroup, CkanPackageOrganization } from '../../../shared/wire/ckan-catalogue';
import type { Catalogue } from './catalogue';
import { checkNameFormat } from './names';
import type { GroupRecord } from './records';

/**
 * Organizations and groups (docs/ckan-contract.md §10.3): organization_create / group_create,
 * *_show and *_list with CKAN's parameters and dict shapes. They hold no users here: one
 * token holder owns the whole data directory.
 */

const GROUP_KEYS = new Set(['id', 'name', 'title', 'description', 'image_url', 'type', 'users', 'packages', 'groups', 'tags', 'state']);
const now = (): string => new Date().toISOString().replace('Z', '');
const text = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

/** Names are shared by organizations, groups and datasets' URL rules: CKAN's group_name_validator. */
function checkGroupName(catalogue: Catalogue, raw: unknown, exceptId?: string): string {
  const name = checkNameFormat(raw);
  const taken = catalogue.groupNamed(name);
  if (taken && taken.id !== exceptId) throw invalid('name', 'Group name already exists in database');
  return name;
}

export function createGroup(catalogue: Catalogue, params: Record<string, unknown>, isOrganization: boolean): GroupRecord {
  const name = checkGroupName(catalogue, params.name);
  const id = typeof params.id === 'string' && params.id ? params.id : randomUUID();
  if (catalogue.groupById(id)) throw invalid('id', 'Group id already exists');
  const record: GroupRecord = {
    id,
    isOrganization,
    name,
    title: text(params.title),
    description: text(params.description),
    imageUrl: text(params.image_url),
    created: now(),
    extras: Object.fromEntries(Object.entries(params).filter(([k]) => !GROUP_KEYS.has(k) && !k.startsWith('__'))),
  };
  catalogue.putGroup(record);
  return record;
}

function packageCount(catalogue: Catalogue, group: GroupRecord): number {
  return catalogue.listPackages().filter((p) => (group.isOrganization ? p.ownerOrg === group.id : p.groups?.includes(group.id))).length;
}

/** CKAN's group_dictize without members: what *_show and *_list with all_fields return. */
export function groupDict(catalogue: Catalogue, g: GroupRecord): CkanGroup & Record<string, unknown> {
  return {
    ...g.extras,
    approval_status: 'approved',
    created: g.created,
    description: g.description,
    display_name: g.title || g.name,
    id: g.id,
    image_display_url: g.imageUrl,
    image_url: g.imageUrl,
    is_organization: g.isOrganization,
    name: g.name,
    num_followers: 0,
    package_count: packageCount(catalogue, g),
    state: 'active',
    title: g.title,
    type: g.isOrganization ? 'organization' : 'group',
  };
}

/** The `organization` member of a dataset dict. */
export function packageOrganization(g: GroupRecord): CkanPackageOrganization {
  return {
    id: g.id,
    name: g.name,
    title: g.title,
    type: 'organization',
    description: g.description,
    image_url: g.imageUrl,
    created: g.created,
    is_organization: true,
    approval_status: 'approved',
    state: 'active',
  };
}

/** One of the `groups` of a dataset dict. */
export function packageGroup(g: GroupRecord): CkanPackageGroup {
  return {
    description: g.description,
    display_name: g.title || g.name,
    id: g.id,
    image_display_url: g.imageUrl,
    name: g.name,
    title: g.title,
  };
}

export function showGroup(catalogue: Catalogue, idOrName: unknown, isOrganization: boolean): CkanGroup & Record<string, unknown> {
  if (typeof idOrName !== 'string' || idOrName === '') throw invalid('id', 'Missing value');
  const g = catalogue.findGroup(idOrName, isOrganization);
  if (!g) throw new NotFoundError();
  return { ...groupDict(catalogue, g), users: [], extras: [], tags: [], groups: [] };
}

export interface GroupListRequest {
  readonly isOrganization: boolean;
  readonly allFields: boolean;
  /** `name`, `title` or `package_count`, ascending unless `desc`. */
  readonly sort: { readonly field: 'name' | 'title' | 'package_count'; readonly descending: boolean };
  readonly limit: number | null;
  readonly offset: number;
  /** Only these names (the `groups` parameter). */
  readonly names: readonly string[] | null;
  /** Case-insensitive substring of name, title or description. */
  readonly q: string;
}

export function listGroups(catalogue: Catalogue, req: GroupListRequest): string[] | CkanGroup[] {
  const q = req.q.toLowerCase();
  const rows = catalogue
    .listGroups(req.isOrganization)
    .filter((g) => !req.names || req.names.includes(g.name))
    .filter((g) => !q || [g.name, g.title, g.description].some((t) => t.toLowerCase().includes(q)))
    .map((g) => groupDict(catalogue, g));
  const key = (d: CkanGroup): string | number => (req.sort.field === 'package_count' ? d.package_count : d[req.sort.field]);
  rows.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    const order = x < y ? -1 : x > y ? 1 : a.name.localeCompare(b.name);
    return req.sort.descending ? -order : order;
  });
  // all_fields is CKAN's expensive form: 25 at most; names alone: 1000.
  const max = req.allFields ? 25 : 1000;
  const limit = req.limit === null || req.limit > max ? max : req.limit;
  const page = rows.slice(req.offset, req.offset + limit);
  return req.allFields ? page : page.map((g) => g.name);
}
