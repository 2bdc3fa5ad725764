import { openAsBlob } from 'node:fs';
import { basename } from 'node:path';
import { optional } from '../../shared/optional';
import type { ImportJobStatus } from '../../shared/wire/import';
import { loadParamsOf } from '../params/load-params';
import type { ImportArgs, ImportSummary } from './import-command';
import { createProgressReporter } from './progress-reporter';
import { ServerActionError, type ServerClient } from './server-client';

/** How often the load's status is asked for. */
const POLL_MS = 500;

/**
 * `deskstore import` while a server holds the data directory: the same import, done by that
 * server the way the UI does it. The file is uploaded once with the choices
 * (deskstore_import_preview, which also says its format), then loaded from the staged upload
 * into the dataset and resource asked for (package_show / package_create, resource_create or,
 * for an existing `--resource-id`, resource_patch), and its load followed to the end
 * (deskstore_import_status). Progress goes to stderr and the summary line to stdout, as a
 * local import writes them.
 */
export async function importThroughServer(server: ServerClient, args: ImportArgs, packageName: string): Promise<ImportSummary> {
  const load = loadParamsOf(args.choices);
  const fileName = basename(args.file);
  const preview = await server.call('deskstore_import_preview', load, {
    field: 'upload',
    blob: await openAsBlob(args.file),
    name: fileName,
  });
  const uploadId = preview.upload_id ?? '';
  const existing = args.resourceId ? await found(server.call('resource_show', { id: args.resourceId })) : null;
  let created;
  if (existing) {
    created = await server.call('resource_patch', { id: existing.id, deskstore_upload_id: uploadId, ...load });
  } else {
    const dataset =
      (await found(server.call('package_show', { id: packageName }))) ??
      (await server.call('package_create', { name: packageName, title: packageName }));
    created = await server.call('resource_create', {
      package_id: dataset.id,
      ...optional('id', args.resourceId),
      name: args.resourceName ?? fileName,
      deskstore_upload_id: uploadId,
      ...load,
    });
  }
  const status = await followLoad(server, created.id);
  const table = await server.call('datastore_search', { resource_id: created.id, limit: 0, include_total: false });
  return {
    package_id: created.package_id,
    resource_id: created.id,
    rows: status.rows_done,
    format: preview.format,
    ...optional('sheet', preview.sheet),
    ...optional('entry', preview.entry),
    fields: table.fields.filter((f) => f.id !== '_id').map((f) => ({ id: f.id, type: f.type })),
    repairs: (status.repairs ?? []).map((r) => ({ kind: r.kind, action: r.action, rows: r.rows, lines: r.lines, message: r.message })),
    warnings: status.warnings ?? [],
  };
}

/** The result, or null when the server answers 404 (the dataset or resource does not exist yet). */
async function found<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof ServerActionError && err.status === 404) return null;
    throw err;
  }
}

/** Waits for the load to end, reporting its progress; a failed or cancelled load is an error in the server's words. */
async function followLoad(server: ServerClient, resourceId: string): Promise<ImportJobStatus> {
  const progress = createProgressReporter();
  for (;;) {
    const status = await server.call('deskstore_import_status', { resource_id: resourceId });
    const phase = status.phase;
    if (phase !== 'queued' && phase !== 'downloading' && phase !== 'done') {
      progress.update({
        phase,
        rows: status.rows_done,
        bytes: status.bytes_done,
        totalBytes: status.bytes_total,
        estimated: status.bytes_total_estimated ?? false,
      });
    }
    if (status.status === 'complete') {
      progress.done();
      return status;
    }
    if (status.status === 'error' || status.status === 'cancelled') {
      progress.done();
      const why = status.error?.deskstore_message?.text ?? status.error?.message ?? status.status;
      throw new ServerActionError('deskstore_import_status', 409, `the import into ${resourceId} ended: ${why}`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
