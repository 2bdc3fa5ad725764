import { randomUUID } from 'node:crypto';
import { NotFoundError, ValidationError, invalid } from '../../errors';
import { checkResourceId } from '../../storage/data-paths';
import type { Catalogue } from './catalogue';
import { packageDict, resourceDict, tagId, type CkanDict } from './ckan-dicts';
import { COMPUTED_PACKAGE_KEYS, STRUCTURED_PACKAGE_KEYS, structuredFields } from './package-fields';
import type { PackageRecord, ResourceRecord } from './records';
import { checkNotMirrored } from './mirror-guard';
import { checkNameFormat } from './names';
import type { PackageDict, ResourceDict } from '../../../shared/wire/catalogue';
import type { TagListEntry } from '../../../shared/wire/actions';

/**
 * The catalogue operations behind CKAN's core actions on datasets and resources that DataStore
 * clients need (the HTTP-facing actions are in actions/catalogue-actions.ts)
 * (docs/ckan-contract.md §10), with CKAN's validation messages.
 */

const PACKAGE_KEYS = new Set(['id', 'name', 'title', 'notes', 'resources', ...STRUCTURED_PACKAGE_KEYS, ...COMPUTED_PACKAGE_KEYS]);
const RESOURCE_KEYS = new Set(['id', 'package_id', 'name', 'description', 'url', 'url_type', 'format', 'upload']);

const now = (): string => new Date().toISOString().replace('Z', '');
const text = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

function extrasOf(params: Record<string, unknown>, known: Set<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).filter(([k]) => !known.has(k) && !k.startsWith('__')));
}

/** CKAN's name rules, shared by datasets, organizations and groups (name_validator). */
export function checkPackageName(catalogue: Catalogue, raw: unknown, exceptId?: string): string {
  const name = checkNameFormat(raw);
  const taken = catalogue.findPackage(name);
  if (taken && taken.id !== exceptId) throw invalid('name', 'That URL is already in use.');
  return name;
}

export function createPackage(catalogue: Catalogue, params: Record<string, unknown>): PackageRecord {
  const name = checkPackageName(catalogue, params.name);
  const id = typeof params.id === 'string' && params.id ? params.id : randomUUID();
  if (catalogue.findPackage(id)) throw invalid('id', 'Dataset id already exists');
  const created = now();
  const structured = structuredFields(catalogue, params);
  const record: PackageRecord = {
    id,
    name,
    title: text(params.title) || name,
    notes: text(params.notes),
    created,
    modified: created,
    ownerOrg: structured.ownerOrg ?? null,
    groups: structured.groups ?? [],
    tags: structured.tags ?? [],
    licenseId: structured.licenseId ?? null,
    extras: extrasOf(params, PACKAGE_KEYS),
  };
  catalogue.putPackage(record);
  if (Array.isArray(params.resources)) createPackageResources(catalogue, id, params.resources);
  return record;
}

/**
 * The resources of a package_create, each checked: CKAN reports them as a list with one dict
 * per resource, empty for the good ones (`{"resources": [{}, {"id": [...]}]}`). The caller's
 * catalogue commit rolls back the ones created before a failure.
 */
function createPackageResources(catalogue: Catalogue, packageId: string, resources: readonly unknown[]): void {
  const errors = resources.map((r): Record<string, unknown> => {
    try {
      createResource(catalogue, { ...(r as Record<string, unknown>), package_id: packageId });
      return {};
    } catch (err) {
      if (err instanceof ValidationError) return err.members;
      throw err;
    }
  });
  if (errors.some((e) => Object.keys(e).length > 0)) throw new ValidationError({ resources: errors });
}

/**
 * CKAN's show, patch and delete actions raise a bare NotFound (`Not found`); its update
 * actions add a detail (`Not found: Package was not found.`), which `detail` carries.
 */
export function findPackageOrThrow(catalogue: Catalogue, idOrName: unknown, detail?: string): PackageRecord {
  if (typeof idOrName !== 'string' || idOrName === '') throw invalid('id', 'Missing value');
  const p = catalogue.findPackage(idOrName);
  if (!p) throw new NotFoundError(detail);
  return p;
}

export function createResource(catalogue: Catalogue, params: Record<string, unknown>): ResourceRecord {
  if (params.package_id === undefined || params.package_id === '') throw invalid('package_id', 'Missing value');
  const pkg = catalogue.findPackage(String(params.package_id));
  if (!pkg) throw new ValidationError({ package_id: ['Not found: Dataset'] });
  const id = newResourceId(catalogue, params.id);
  const created = now();
  const url = text(params.url);
  const record: ResourceRecord = {
    id,
    packageId: pkg.id,
    name: text(params.name),
    description: text(params.description),
    url,
    urlType: params.url_type === undefined || params.url_type === null || params.url_type === '' ? null : String(params.url_type),
    format: text(params.format) || guessFormat(url),
    created,
    lastModified: null,
    datastore: null,
    source: null,
    extras: extrasOf(params, RESOURCE_KEYS),
  };
  catalogue.putResource(record);
  pkg.modified = created;
  return record;
}

/**
 * A new resource's id: the client's, if CKAN's rule accepts it (ids become folder names,
 * storage/data-paths.ts) and no resource has it, or one that differs only in case (the same
 * folder on macOS and Windows); a fresh UUID when none was given.
 */
function newResourceId(catalogue: Catalogue, requested: unknown): string {
  if (requested === undefined || requested === null || requested === '') return randomUUID();
  const id = checkResourceId(requested);
  if (catalogue.findResource(id) || catalogue.resourceSharingFolder(id)) {
    throw invalid('id', 'Resource id already exists.');
  }
  return id;
}

function guessFormat(url: string): string {
  const m = /\.([a-z0-9]{2,5})(?:[?#].*)?$/i.exec(url);
  return m ? m[1]!.toUpperCase() : '';
}

/** As findPackageOrThrow: `Not found`, or with the update actions' detail. */
export function findResourceOrThrow(catalogue: Catalogue, id: unknown, detail?: string): ResourceRecord {
  if (typeof id !== 'string' || id === '') throw invalid('id', 'Missing value');
  const r = catalogue.findResource(id);
  if (!r) throw new NotFoundError(detail);
  return r;
}

export function showResource(catalogue: Catalogue, id: unknown, siteUrl: string): ResourceDict & CkanDict {
  const r = findResourceOrThrow(catalogue, id);
  const position = catalogue
    .resourcesOf(r.packageId)
    .sort((a, b) => a.created.localeCompare(b.created))
    .findIndex((x) => x.id === r.id);
  return resourceDict(r, siteUrl, position);
}

export function showPackage(catalogue: Catalogue, idOrName: unknown, siteUrl: string): PackageDict & CkanDict {
  const p = findPackageOrThrow(catalogue, idOrName);
  return packageDict(p, catalogue.resourcesOf(p.id), siteUrl, (id) => catalogue.groupById(id));
}

export function listPackages(catalogue: Catalogue, limit: number | null, offset: number): string[] {
  const names = catalogue
    .listPackages()
    .map((p) => p.name)
    .sort();
  return names.slice(offset, limit === null ? undefined : offset + limit);
}

/** Every dataset as package_show shows it, for package_search. */
export function allPackageDicts(catalogue: Catalogue, siteUrl: string): (PackageDict & CkanDict)[] {
  return catalogue.listPackages().map((p) => packageDict(p, catalogue.resourcesOf(p.id), siteUrl, (id) => catalogue.groupById(id)));
}

/** tag_list: every free tag in use, by name; `query` keeps those containing it (any case). */
export function listTags(catalogue: Catalogue, query: string, allFields: boolean): string[] | TagListEntry[] {
  const wanted = query.toLowerCase();
  const names = [...new Set(catalogue.listPackages().flatMap((p) => p.tags ?? []))].filter((t) => t.toLowerCase().includes(wanted)).sort();
  return allFields ? names.map((name) => ({ id: tagId(name), name, vocabulary_id: null, display_name: name })) : names;
}

/** package_update (all editable fields) or package_patch (only the given ones). */
export function updatePackage(catalogue: Catalogue, params: Record<string, unknown>, patch: boolean): PackageRecord {
  const p = findPackageOrThrow(catalogue, params.id ?? params.name, patch ? undefined : 'Package was not found.');
  checkNotMirrored(p, 'dataset');
  const merged = patch ? { name: p.name, title: p.title, notes: p.notes, ...p.extras, ...params } : params;
  const structured = structuredFields(catalogue, merged);
  p.name = checkPackageName(catalogue, merged.name ?? p.name, p.id);
  p.title = text(merged.title) || p.name;
  p.notes = text(merged.notes);
  // An update replaces what it does not mention with nothing; a patch keeps it.
  p.ownerOrg = structured.ownerOrg !== undefined ? structured.ownerOrg : patch ? (p.ownerOrg ?? null) : null;
  p.groups = structured.groups ?? (patch ? (p.groups ?? []) : []);
  p.tags = structured.tags ?? (patch ? (p.tags ?? []) : []);
  p.licenseId = structured.licenseId !== undefined ? structured.licenseId : patch ? (p.licenseId ?? null) : null;
  p.extras = extrasOf(merged, PACKAGE_KEYS);
  p.modified = now();
  return p;
}

/** resource_update / resource_patch on the metadata (a new upload or url is the caller's job). */
export function updateResource(catalogue: Catalogue, params: Record<string, unknown>, patch: boolean): ResourceRecord {
  const r = findResourceOrThrow(catalogue, params.id, patch ? undefined : 'Resource was not found.');
  checkNotMirrored(r, 'resource');
  const current = { name: r.name, description: r.description, url: r.url, url_type: r.urlType, format: r.format, ...r.extras };
  const merged = patch ? { ...current, ...params } : params;
  r.name = text(merged.name);
  r.description = text(merged.description);
  if (merged.url !== undefined) r.url = text(merged.url);
  if (merged.url_type !== undefined) r.urlType = merged.url_type === null || merged.url_type === '' ? null : String(merged.url_type);
  r.format = text(merged.format) || guessFormat(r.url);
  r.extras = extrasOf(merged, RESOURCE_KEYS);
  r.lastModified = now();
  const pkg = catalogue.findPackage(r.packageId);
  if (pkg) pkg.modified = r.lastModified;
  return r;
}
