import type { Locale } from '../../shared/locales';

/** A file received in a multipart body, already streamed to disk by the server. */
export interface UploadedFile {
  readonly kind: 'upload';
  readonly path: string;
  readonly filename: string;
  readonly size: number;
  readonly mimeType: string;
}

/** Parameters as CKAN's `_get_request_data` produces them (docs/ckan-contract.md §1.2). */
export type ActionParams = Record<string, unknown>;

export interface ActionContext {
  /** The request carried this data directory's token (sysadmin); anonymous otherwise. */
  readonly authorized: boolean;
  /** Locale prefix of the request path, when there was one. */
  readonly locale: Locale | null;
  /** `http://127.0.0.1:PORT`, for absolute URLs in results (resource url, help). */
  readonly siteUrl: string;
  /** Request path without the locale prefix, and the raw query string (`_links`, §3.7). */
  readonly path: string;
  readonly rawQuery: string;
  readonly method: 'GET' | 'POST';
}

export interface ActionDefinition {
  readonly name: string;
  /** CKAN's side_effect_free: may be called with GET. */
  readonly sideEffectFree: boolean;
  /**
   * Only token holders may call it. The server refuses others from the headers alone, before
   * reading the body; the action checks again, since a `callback` key in the body makes a
   * request anonymous.
   */
  readonly requiresToken?: boolean;
  run(params: ActionParams, ctx: ActionContext): Promise<unknown>;
}

export type ActionRegistry = ReadonlyMap<string, ActionDefinition>;
