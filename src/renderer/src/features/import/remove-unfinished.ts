/**
 * What a new import that did not finish leaves behind: its empty resource, and the dataset
 * made for it when nothing else is in there. Removed, since the user asked for nothing else.
 */
import { call } from '../../api/client';
import { ApiError } from '../../api/errors';

const gone = (err: unknown): null => {
  if (err instanceof ApiError && err.kind === 'not_found') return null;
  throw err;
};

export async function removeUnfinishedImport(resourceId: string, createdDataset: string | null): Promise<void> {
  await call('resource_delete', { id: resourceId }).catch(gone);
  if (!createdDataset) return;
  const dataset = await call('package_show', { id: createdDataset }).catch(gone);
  if (dataset && dataset.resources.length === 0) await call('package_delete', { id: dataset.id }).catch(gone);
}
