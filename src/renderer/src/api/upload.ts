/**
 * The import preview call. The first call sends the file as multipart form data through
 * XMLHttpRequest, whose upload events give a real progress bar; later calls (changed
 * options) send only the `deskstore_upload_id` the first one returned.
 */
import { ApiError, noTokenError } from './errors';
import { call, unwrapEnvelope } from './client';
import { getToken } from './token';
import { actionPath, paramPairs } from './urls';
import type { LoadParams } from '../../../shared/wire/actions';
import type { ImportPreviewResult, ImportType, RepairChoices } from '../../../shared/wire/import';

export interface PreviewOptions {
  readonly encoding?: string;
  /** `,` `;` `|` or `tab`. */
  readonly delimiter?: string;
  readonly skipLines?: number;
  readonly types?: Readonly<Record<string, ImportType>>;
  readonly repairs?: RepairChoices;
  readonly sheet?: string;
  readonly entry?: string;
}

/** The source of an import: a browser File, an upload already staged, or a file picked in the desktop app's dialog. */
export type ImportSource =
  | { readonly kind: 'file'; readonly file: File }
  | { readonly kind: 'staged'; readonly uploadId: string; readonly name: string; readonly size: number }
  | { readonly kind: 'local'; readonly handle: string; readonly name: string; readonly size: number };

export function optionParams(options: PreviewOptions): LoadParams {
  return {
    ...(options.encoding ? { deskstore_encoding: options.encoding } : {}),
    ...(options.delimiter ? { deskstore_delimiter: options.delimiter } : {}),
    ...(options.skipLines !== undefined ? { deskstore_skip_lines: options.skipLines } : {}),
    ...(options.types && Object.keys(options.types).length > 0 ? { deskstore_types: JSON.stringify(options.types) } : {}),
    ...(options.repairs && Object.keys(options.repairs).length > 0 ? { deskstore_repairs: JSON.stringify(options.repairs) } : {}),
    ...(options.sheet !== undefined ? { deskstore_sheet: options.sheet } : {}),
    ...(options.entry !== undefined ? { deskstore_entry: options.entry } : {}),
  };
}

export interface UploadHandle {
  readonly promise: Promise<ImportPreviewResult>;
  abort(): void;
}

export function uploadForPreview(file: File, options: PreviewOptions, onProgress: (loaded: number, total: number) => void): UploadHandle {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<ImportPreviewResult>((resolve, reject) => {
    const token = getToken();
    if (!token) {
      reject(noTokenError());
      return;
    }
    const form = new FormData();
    for (const [name, value] of paramPairs(optionParams(options))) form.append(name, value);
    form.append('upload', file, file.name);
    xhr.open('POST', actionPath('deskstore_import_preview'));
    xhr.setRequestHeader('Authorization', token);
    xhr.responseType = 'text';
    xhr.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    xhr.onerror = () => reject(new ApiError('network', 0, 'The upload failed'));
    xhr.onabort = () => reject(new ApiError('aborted', 0, 'aborted'));
    xhr.onload = () => {
      try {
        resolve(unwrapEnvelope<ImportPreviewResult>(xhr.status, xhr.status >= 200 && xhr.status < 300, xhr.responseText));
      } catch (err) {
        reject(err);
      }
    };
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}

/** Re-preview with changed options: no second upload. */
export function previewAgain(
  source: Exclude<ImportSource, { kind: 'file' }>,
  options: PreviewOptions,
  signal?: AbortSignal,
): Promise<ImportPreviewResult> {
  const where = source.kind === 'staged' ? { deskstore_upload_id: source.uploadId } : { deskstore_local_file: source.handle };
  return call('deskstore_import_preview', { ...where, ...optionParams(options) }, signal ? { signal } : {});
}
