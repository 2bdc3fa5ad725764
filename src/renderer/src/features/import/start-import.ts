/**
 * Starts the load: a new dataset if asked (its name derived from the title, with a numeric
 * suffix when taken), then resource_create with the previewed options; or, to replace a
 * resource's data, resource_patch of that resource (its id stays, and its current data until
 * the new one is complete). The progress screen then polls the resource's load.
 */
import { call } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { ImportPreviewState } from './use-import-preview';
import { loadParams } from './use-import-preview';
import { datasetNameFrom } from './dataset-name';
import type { TargetChoice } from './ImportTarget';
import type { TextSearchLanguage } from '../../../../shared/text-search-languages';
import type { LoadParams } from '../../../../shared/wire/actions';

async function createDataset(title: string): Promise<string> {
  for (let attempt = 1; attempt <= 20; attempt++) {
    const name = datasetNameFrom(title, attempt === 1 ? '' : `-${attempt}`);
    try {
      const created = await call('package_create', { name, title: title.trim() || name });
      return created.id;
    } catch (err) {
      const taken = err instanceof ApiError && err.kind === 'validation' && 'name' in err.fields;
      if (!taken) throw err;
    }
  }
  throw new ApiError('validation', 409, 'No free dataset name', { name: ['No free dataset name'] });
}

export interface StartedImport {
  readonly resourceId: string;
  /** The dataset made for this import, if one was. */
  readonly createdDataset: string | null;
}

/** The load parameters of the previewed file, and the file's name. */
function sourceParams(state: ImportPreviewState, language: TextSearchLanguage): { load: LoadParams; fileName: string } {
  const params = loadParams(state, language);
  const source = state.source;
  if (!params || !source) throw new ApiError('bad_request', 0, 'Nothing to import');
  const where = source.kind === 'staged' ? { deskstore_upload_id: source.uploadId } : { deskstore_local_file: source.handle };
  return { load: { ...where, ...params }, fileName: source.name };
}

export async function startImport(
  state: ImportPreviewState,
  target: TargetChoice,
  resourceName: string,
  language: TextSearchLanguage,
): Promise<StartedImport> {
  const { load, fileName } = sourceParams(state, language);
  const createdDataset = target.mode === 'new' ? await createDataset(target.title) : null;
  const created = await call('resource_create', {
    package_id: createdDataset ?? (target.mode === 'existing' ? target.packageId : ''),
    name: resourceName.trim() || fileName,
    ...load,
  });
  return { resourceId: created.id, createdDataset };
}

/** Loads the previewed file into an existing resource: same id, same name. */
export async function startReplace(state: ImportPreviewState, resourceId: string, language: TextSearchLanguage): Promise<StartedImport> {
  await call('resource_patch', { id: resourceId, ...sourceParams(state, language).load });
  return { resourceId, createdDataset: null };
}
