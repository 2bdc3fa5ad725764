/**
 * The catalogue's changes that need a confirmation: what is pending, and carrying it out.
 * Deleting a dataset's last resource offers to delete the dataset too, so no empty card is
 * left behind unless the user wants one.
 */
import { call } from '../../api/client';
import type { PackageDict, ResourceDict } from '../../../../shared/wire/catalogue';

export type PendingChange =
  | { readonly kind: 'delete-resource'; readonly resource: ResourceDict; readonly dataset: PackageDict; readonly alsoDataset: boolean }
  | { readonly kind: 'delete-dataset'; readonly dataset: PackageDict }
  | { readonly kind: 'rename-dataset'; readonly dataset: PackageDict; readonly title: string };

export function deleteResourceChange(resource: ResourceDict, dataset: PackageDict): PendingChange {
  // the last resource: deleting the dataset too is the default
  return { kind: 'delete-resource', resource, dataset, alsoDataset: dataset.resources.length === 1 };
}

export async function applyChange(change: PendingChange): Promise<void> {
  switch (change.kind) {
    case 'delete-resource':
      if (change.alsoDataset && change.dataset.resources.length === 1) await call('package_delete', { id: change.dataset.id });
      else await call('resource_delete', { id: change.resource.id });
      return;
    case 'delete-dataset':
      await call('package_delete', { id: change.dataset.id });
      return;
    case 'rename-dataset':
      await call('package_patch', { id: change.dataset.id, title: change.title.trim() });
      return;
  }
}
