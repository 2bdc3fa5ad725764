import { message } from '../../../shared/messages';
import { AuthorizationError, ValidationError, withMessage } from '../../errors';
import type { Catalogue } from './catalogue';
import type { PackageRecord, ResourceRecord } from './records';

/**
 * Mirrors are read-only here (docs/portal.md §Read-only): a change would be lost at the next
 * sync, so writes are refused with CKAN's authorization error, worded with how to detach.
 */
export function checkNotMirrored(record: ResourceRecord | PackageRecord, what: 'resource' | 'dataset'): void {
  const mirror = record.mirror;
  if (!mirror) return;
  const text =
    `This ${what} mirrors ${mirror.page} and is read-only here; detach it (deskstore_detach with id=${record.id}, ` +
    'or Detach in the catalogue) to change it locally.';
  throw withMessage(new AuthorizationError(text), message('mirror.read_only', text, { portal: mirror.portal, id: record.id }));
}

/**
 * A mirror may only take ids and a name that are free here or already its own (the same
 * portal's copy): anything else is a clear conflict, and nothing is overwritten.
 */
export function checkMirrorTarget(
  catalogue: Catalogue,
  portal: string,
  packageId: string,
  name: string,
  resourceIds: readonly string[],
): void {
  const conflict = (param: string, text: string, params: Record<string, string>) =>
    withMessage(new ValidationError({ [param]: [text] }), message(`mirror.conflict_${param}`, text, params));
  const byId = catalogue.findPackage(packageId);
  if (byId && byId.id === packageId && byId.mirror?.portal !== portal) {
    throw conflict('id', `A local dataset already has the id ${packageId}; nothing was overwritten.`, { id: packageId });
  }
  const byName = catalogue.findPackage(name);
  if (byName && byName.id !== packageId) {
    throw conflict('name', `A local dataset is already named "${name}"; nothing was overwritten. Rename or delete it first.`, { name });
  }
  for (const id of resourceIds) {
    const r = catalogue.findResource(id) ?? catalogue.resourceSharingFolder(id);
    if (r && (r.packageId !== packageId || r.id !== id || !byId?.mirror || !r.mirror)) {
      throw conflict('resource_id', `A local resource already has the id ${id}; nothing was overwritten.`, { id });
    }
  }
}
