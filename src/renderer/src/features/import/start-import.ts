/**
 * Starts the load: a new dataset if asked (its name derived from the title, with a numeric
 * suffix when taken), then resource_create with the previewed options. Returns the new
 * resource's id; its progress is then polled by the progress screen.
 */
import { api } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { ImportPreviewState } from './use-import-preview';
import { loadParams } from './use-import-preview';
import { datasetNameFrom } from './dataset-name';
import type { TargetChoice } from './ImportTarget';

async function createDataset(title: string): Promise<string> {
  for (let attempt = 1; attempt <= 20; attempt++) {
    const name = datasetNameFrom(title, attempt === 1 ? '' : `-${attempt}`);
    try {
      const created = await api.packageCreate(name, title.trim() || name);
      return created.id;
    } catch (err) {
      const taken = err instanceof ApiError && err.kind === 'validation' && 'name' in err.fields;
      if (!taken) throw err;
    }
  }
  throw new ApiError('validation', 409, 'No free dataset name', { name: ['No free dataset name'] });
}

export async function startImport(state: ImportPreviewState, target: TargetChoice, resourceName: string): Promise<string> {
  const params = loadParams(state);
  const source = state.source;
  if (!params || !source) throw new ApiError('bad_request', 0, 'Nothing to import');
  const packageId = target.mode === 'new' ? await createDataset(target.title) : target.packageId;
  const where = source.kind === 'staged' ? { deskstore_upload_id: source.uploadId } : { deskstore_local_file: source.handle };
  const created = await api.resourceCreate({
    package_id: packageId,
    name: resourceName.trim() || source.name,
    ...where,
    ...params,
  });
  return created.id;
}
