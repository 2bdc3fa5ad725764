import { randomUUID } from 'node:crypto';
import { rmSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ValidationError } from '../errors';
import { checkResourceId } from '../storage/data-paths';
import type { PendingUpload } from '../storage/upload-files';
import { mimeTypeOf } from '../util/mime-type';
import { mungeFilename } from '../util/munge-filename';
import type { CkanDict } from '../engine/engine-api';
import type { StatusShow } from '../../shared/wire/status';
import type { ResourceDict } from '../../shared/wire/catalogue';
import type { CreatedResource } from '../../shared/wire/import';
import type { FileJobSource, JobSource } from '../jobs/import-jobs';
import { LocalFiles, type LocalFile } from '../jobs/local-files';
import { formatFromFileName } from '../importer/file-source';
import type { ImportChoices } from '../importer/import-types';
import type { ActionDeps } from './action-deps';
import { packageWithoutLocalPaths, withoutLocalPaths } from './public-view';
import { LOAD_PARAMS, loadChoices } from '../params/load-params';
import { looksTabular } from '../../shared/import-formats';
import { isUploadedFile } from '../params/action-params';
import type { ActionHandler, HandlersFor } from './types';
import type { ActionParams, UploadedFile } from '../params/action-params';
import { SchemaErrors, isMissing, toBoolean, toNaturalNumber } from '../params/validators';

/**
 * CKAN core actions on datasets and resources (docs/ckan-contract.md §10), plus the loads they trigger:
 * a resource created or updated with a multipart `upload`, or with a tabular http(s) `url`,
 * is loaded into the DataStore in the background, as CKAN's xloader does.
 */

/**
 * An uploaded file as CKAN's resource fields describe it: `url` is the munged file name (the
 * dict shows the download URL), `url_type: upload`, the media type guessed from the name.
 */
function uploadMeta(meta: ActionParams, file: FileJobSource): ActionParams {
  return {
    ...meta,
    url: mungeFilename(file.name),
    url_type: 'upload',
    format: meta.format ?? formatFromFileName(file.name),
    mimetype: mimeTypeOf(file.name),
    size: statSync(file.path).size,
  };
}

/** The file a resource_create/update asks to load, if any; and the metadata to store. */
function planLoad(deps: ActionDeps, params: ActionParams): { meta: ActionParams; source: JobSource | null } {
  const meta = Object.fromEntries(Object.entries(params).filter(([k]) => !LOAD_PARAMS.includes(k)));
  const file = isUploadedFile(params.upload)
    ? takeUpload(deps, params.upload)
    : !isMissing(params.deskstore_upload_id)
      ? takeStaged(deps, String(params.deskstore_upload_id))
      : !isMissing(params.deskstore_local_file)
        ? grantedFile(deps, String(params.deskstore_local_file))
        : null;
  // Stored as an upload is: by its name, never by a path on this machine.
  if (file) return { meta: uploadMeta(meta, file), source: file };
  const url = typeof params.url === 'string' ? params.url : '';
  // A path on this machine is refused unless the user allowed its folder, loaded or not.
  const local = /^file:/i.test(url) ? allowedLocalFile(deps, url) : null;
  const wanted = toBoolean(params.deskstore_load ?? false) || looksTabular(url, params.format);
  if (!url || params.url_type === 'datastore' || !wanted || !deps.jobs) return { meta, source: null };
  if (local) {
    return {
      meta: { ...meta, url: local.name, url_type: 'upload', format: meta.format ?? formatFromFileName(local.name) },
      source: { kind: 'file', path: local.path, name: local.name, owned: false },
    };
  }
  if (/^https?:\/\//i.test(url)) return { meta, source: { kind: 'url', url } };
  return { meta, source: null };
}

function grantedFile(deps: ActionDeps, handle: string): FileJobSource {
  if (!deps.localFiles) throw new ValidationError({ deskstore_local_file: ['No such file handle: choose the file again'] });
  const file = deps.localFiles.granted(handle);
  return { kind: 'file', path: file.path, name: file.name, owned: false };
}

function allowedLocalFile(deps: ActionDeps, url: string): LocalFile {
  let path: string;
  try {
    path = fileURLToPath(url);
  } catch {
    throw new ValidationError({ url: [`Not a local file URL: ${url.slice(0, 200)}`] });
  }
  return (deps.localFiles ?? new LocalFiles()).allowedPath(path, 'url');
}

function takeUpload(deps: ActionDeps, upload: UploadedFile): FileJobSource {
  if (!deps.jobs) throw new ValidationError({ upload: ['Uploads need the Deskstore server (this engine runs without background jobs)'] });
  return deps.jobs.takeFile(upload.path, upload.filename);
}

function takeStaged(deps: ActionDeps, uploadId: string): FileJobSource {
  const source = deps.jobs?.takeStaged(uploadId) ?? null;
  if (!source) throw new ValidationError({ deskstore_upload_id: ['No such staged upload (they expire after a day)'] });
  return source;
}

function startLoad(deps: ActionDeps, dict: ResourceDict & CkanDict, source: JobSource | null, choices: ImportChoices): CreatedResource {
  if (!source || !deps.jobs) return dict;
  const status = deps.jobs.start(dict.id, source, choices);
  return { ...dict, deskstore_job: status };
}

type ResourceWrite = 'resource_create' | 'resource_update' | 'resource_patch';

function resourceWrite(name: ResourceWrite, deps: ActionDeps): ActionHandler<ResourceWrite> {
  return async (params, ctx) => {
    const choices = loadChoices(params); // bad load options are refused before anything is created
    const planned = planLoad(deps, params);
    const { source } = planned;
    // An upload is kept before the resource exists, so the resource never points at nothing;
    // it needs the id for that, which CKAN would otherwise make up while creating.
    const meta =
      source?.kind === 'file' && planned.meta.url_type === 'upload' && name === 'resource_create' && isMissing(planned.meta.id)
        ? { ...planned.meta, id: randomUUID() }
        : planned.meta;
    let dict: ResourceDict & CkanDict;
    let pending: PendingUpload | null = null;
    try {
      if (source?.kind === 'file' && meta.url_type === 'upload' && deps.keepUpload) {
        pending = deps.keepUpload(checkResourceId(meta.id), source.path);
      }
      dict =
        name === 'resource_create'
          ? await deps.engine.resourceCreate(meta, ctx.siteUrl)
          : await deps.engine.resourceUpdate(meta, ctx.siteUrl, name === 'resource_patch');
      pending?.commit();
    } catch (err) {
      pending?.discard();
      if (source?.kind === 'file' && source.owned) rmSync(source.path, { force: true });
      throw err;
    }
    if (!isMissing(params.deskstore_local_file)) deps.localFiles?.consume(String(params.deskstore_local_file));
    return startLoad(deps, dict, source, choices);
  };
}

type CatalogueAction =
  | 'package_create'
  | 'package_update'
  | 'package_patch'
  | 'package_delete'
  | 'package_show'
  | 'package_list'
  | ResourceWrite
  | 'resource_delete'
  | 'resource_show'
  | 'status_show';

export function catalogueActions(deps: ActionDeps): HandlersFor<CatalogueAction> {
  const { engine } = deps;
  return {
    async package_create(params, ctx) {
      return engine.packageCreate(params, ctx.siteUrl);
    },
    async package_update(params, ctx) {
      return engine.packageUpdate(params, ctx.siteUrl, false);
    },
    async package_patch(params, ctx) {
      return engine.packageUpdate(params, ctx.siteUrl, true);
    },
    async package_delete(params, ctx) {
      // its resources' loads stop too, as resource_delete stops one (a load finishing later would publish into nothing)
      const dataset = await engine.packageShow(params.id ?? params.name, ctx.siteUrl);
      for (const resource of dataset.resources) deps.jobs?.cancel(resource.id);
      await engine.packageDelete(params.id ?? params.name);
      return null;
    },
    async package_show(params, ctx) {
      // get.py: `data_dict.get("id") or _get_or_bust(data_dict, 'name_or_id')`
      const id = isMissing(params.id) ? params.name_or_id : params.id;
      if (id === undefined) throw new ValidationError({ name_or_id: ['Missing value'] });
      const pkg = await engine.packageShow(id, ctx.siteUrl);
      return ctx.authorized ? pkg : packageWithoutLocalPaths(pkg);
    },
    async package_list(params) {
      const errors = new SchemaErrors();
      const limit = isMissing(params.limit) ? null : errors.take('limit', toNaturalNumber(params.limit));
      const offset = isMissing(params.offset) ? 0 : errors.take('offset', toNaturalNumber(params.offset));
      if (errors.any) throw new ValidationError(errors.members);
      return engine.packageList(limit ?? null, offset ?? 0);
    },
    resource_create: resourceWrite('resource_create', deps),
    resource_update: resourceWrite('resource_update', deps),
    resource_patch: resourceWrite('resource_patch', deps),
    async resource_delete(params) {
      deps.jobs?.cancel(String(params.id ?? ''));
      await engine.resourceDelete(params.id);
      return null;
    },
    async resource_show(params, ctx) {
      const resource = await engine.resourceShow(params.id, ctx.siteUrl);
      return ctx.authorized ? resource : withoutLocalPaths(resource);
    },
    async status_show(_params, ctx) {
      return {
        site_title: deps.siteTitle,
        site_description: "An offline DataStore that speaks CKAN's action API",
        site_url: ctx.siteUrl,
        error_emails_to: null,
        locale_default: 'en',
        extensions: ['datastore', 'xloader', 'deskstore'],
        ckan_version: '2.11.5',
        deskstore_version: deps.version,
        deskstore_memory: await engine.memoryStatus(),
        deskstore_sql_functions: deps.sqlFunctions ?? 'ckan',
      } satisfies StatusShow;
    },
  };
}
