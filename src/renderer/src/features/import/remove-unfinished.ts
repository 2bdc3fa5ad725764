/**
 * What a new import that did not finish leaves behind: its empty resource, and the dataset
 * made for it when nothing else is in there. Removed, since the user asked for nothing else.
 */
import { api } from '../../api/client';
import { ApiError } from '../../api/errors';

const gone = (err: unknown): null => {
  if (err instanceof ApiError && err.kind === 'not_found') return null;
  throw err;
};

export async function removeUnfinishedImport(resourceId: string, createdDataset: string | null): Promise<void> {
  await api.resourceDelete(resourceId).catch(gone);
  if (!createdDataset) return;
  const dataset = await api.packageShow(createdDataset).catch(gone);
  if (dataset && dataset.resources.length === 0) await api.packageDelete(dataset.id).catch(gone);
}
