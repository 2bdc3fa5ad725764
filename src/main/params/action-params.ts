/**
 * Action parameters as the server hands them over, before any schema has read them: what
 * CKAN's `_get_request_data` produces (docs/ckan-contract.md §1.2), with a file of a multipart
 * body already streamed to disk. Which names each action takes is the contract's
 * (src/shared/wire/actions.ts); what each value is, the schemas of this folder decide.
 */

/** A file received in a multipart body, already streamed to disk by the server. */
export interface UploadedFile {
  readonly kind: 'upload';
  readonly path: string;
  readonly filename: string;
  readonly size: number;
  readonly mimeType: string;
}

export type ActionParams = Record<string, unknown>;

export function isUploadedFile(value: unknown): value is UploadedFile {
  return value !== null && typeof value === 'object' && (value as UploadedFile).kind === 'upload';
}
