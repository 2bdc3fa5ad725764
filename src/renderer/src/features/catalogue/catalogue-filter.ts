/**
 * The catalogue search asks package_search for the datasets; within a dataset, only the
 * resources whose name or source file match are listed, unless the dataset itself matched
 * by title or name. Accents and case are ignored for that narrowing. Pure.
 */
import { foldText as fold } from '../../../../shared/fold-text';
import type { PackageDict, ResourceDict } from '../../../../shared/wire/catalogue';

function words(text: string): string[] {
  return fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

function matchesAll(haystack: string, needles: readonly string[]): boolean {
  const folded = fold(haystack);
  return needles.every((word) => folded.includes(word));
}

export function resourcesToShow(pkg: PackageDict, query: string): readonly ResourceDict[] {
  const needles = words(query);
  if (needles.length === 0) return pkg.resources;
  if (matchesAll(`${pkg.title ?? ''} ${pkg.name} ${pkg.notes ?? ''}`, needles)) return pkg.resources;
  const matching = pkg.resources.filter((r) => matchesAll(`${r.name ?? ''} ${r.deskstore?.source?.file ?? ''} ${r.url ?? ''}`, needles));
  return matching.length > 0 ? matching : pkg.resources;
}

export function resourceTitle(resource: ResourceDict): string {
  return resource.name || resource.deskstore?.source?.file || resource.url || resource.id;
}
