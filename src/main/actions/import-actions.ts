import { NotFoundError, ValidationError, withMessage } from '../errors';
import type { ActionDeps } from './action-deps';
import { isImportInputError, wordingOf } from '../importer/import-errors';
import { loadChoices } from '../params/load-params';
import { isUploadedFile } from '../params/action-params';
import { LocalFiles } from '../jobs/local-files';
import type { ActionHandler, HandlersFor } from './types';
import type { ImportJobStatus, ImportPreviewResult } from '../../shared/wire/import';
import { isMissing, resourceIdOf } from '../params/validators';

/**
 * The status of a resource's background load: Deskstore's own name and the names CKAN
 * scripts already poll (`xloader_status`, `datapusher_status`). A resource loaded before this
 * server started (or whose job record is gone) reports `complete` if it has a table.
 */
type StatusAction = 'deskstore_import_status' | 'xloader_status' | 'datapusher_status';

function statusAction(deps: ActionDeps): ActionHandler<StatusAction> {
  return async (params, ctx) => {
    const resourceId = resourceIdOf(params);
    const job = deps.jobs?.status(resourceId);
    if (job) {
      return {
        ...job,
        task_info: { phase: job.phase, rows: job.rows_done, bytes: job.bytes_done, bytes_total: job.bytes_total },
      } satisfies ImportJobStatus;
    }
    const resource = await deps.engine.resourceShow(resourceId, ctx.siteUrl);
    if (!resource.datastore_active) throw new NotFoundError(`No load task found for resource ${resourceId}`);
    const info = resource.deskstore;
    return {
      job_id: null,
      resource_id: resourceId,
      status: 'complete',
      phase: 'done',
      rows_done: info?.rows ?? 0,
      bytes_done: 0,
      bytes_total: 0,
      last_updated: info?.updated ?? null,
      error: null,
      task_info: {},
    } satisfies ImportJobStatus;
  };
}

/**
 * A file the importer refused is the `upload` parameter's problem (409, as CKAN words
 * validation errors), worded for people in the envelope's `deskstore_message`.
 */
export function asUploadError(err: unknown): unknown {
  if (!isImportInputError(err)) return err;
  const error = new ValidationError({ upload: [err.message] });
  const worded = wordingOf(err);
  return worded ? withMessage(error, worded) : error;
}

export function importActions(
  deps: ActionDeps,
): HandlersFor<StatusAction | 'deskstore_checkpoint' | 'deskstore_import_cancel' | 'deskstore_import_preview'> {
  const status = statusAction(deps);
  return {
    deskstore_import_status: status,
    xloader_status: status,
    datapusher_status: status,
    // Folds a resource's journal into a new version of its files now (normally done in the background).
    async deskstore_checkpoint(params) {
      return deps.engine.checkpoint(resourceIdOf(params));
    },
    async deskstore_import_cancel(params) {
      const resourceId = resourceIdOf(params);
      return { resource_id: resourceId, cancelled: deps.jobs?.cancel(resourceId) ?? false };
    },
    // Upload once, look before loading: the file is kept (a day) under the returned
    // upload_id, which resource_create accepts as `deskstore_upload_id`.
    async deskstore_import_preview(params) {
      const choices = loadChoices(params);
      // Checked before staging, so a refused preview keeps no file.
      if (!deps.preview) throw new ValidationError({ upload: ['Previews need the Deskstore server'] });
      let path: string;
      let uploadId: string;
      let name: string;
      if (isUploadedFile(params.upload)) {
        if (!deps.jobs) throw new ValidationError({ upload: ['Previews need the Deskstore server'] });
        const staged = deps.jobs.stage(params.upload.path, params.upload.filename);
        path = staged.path;
        uploadId = staged.id;
        name = params.upload.filename;
      } else if (!isMissing(params.deskstore_local_file)) {
        // A file the user picked in the desktop app's native dialog, by its one-time handle.
        uploadId = '';
        const file = (deps.localFiles ?? new LocalFiles()).granted(String(params.deskstore_local_file));
        path = file.path;
        name = file.name;
      } else if (!isMissing(params.deskstore_local_path)) {
        // A path on this machine: only inside a folder the user allowed (--import-folder).
        uploadId = '';
        const file = (deps.localFiles ?? new LocalFiles()).allowedPath(String(params.deskstore_local_path), 'deskstore_local_path');
        path = file.path;
        name = file.name;
      } else if (!isMissing(params.deskstore_upload_id) && deps.jobs) {
        uploadId = String(params.deskstore_upload_id);
        path = deps.jobs.stagedPath(uploadId) ?? '';
        if (!path) throw new ValidationError({ deskstore_upload_id: ['No such staged upload (they expire after a day)'] });
        name = deps.jobs.stagedName(uploadId);
      } else {
        throw new ValidationError({ upload: ['Missing value'] });
      }
      try {
        const preview = await deps.preview(path, name, choices);
        return { upload_id: uploadId || null, ...preview } satisfies ImportPreviewResult;
      } catch (err) {
        throw asUploadError(err);
      }
    },
  };
}
