/**
 * The one HTTP client of the UI: CKAN action calls on this origin, reads as GET (anonymous),
 * writes as POST with the API token. Every answer is unwrapped from CKAN's envelope or turned
 * into an ApiError.
 */
import { errorFromResponse, noTokenError, toApiError } from './errors';
import { parseJsonExact } from './exact-json';
import { getToken } from './token';
import { actionPath, type ParamPairs } from './urls';
import type { PackageDict, PackageSearchResult, ResourceDict } from '../../../shared/wire/catalogue';
import type { FacetsResult } from '../../../shared/wire/facets';
import type { CreatedResource, ImportJobStatus } from '../../../shared/wire/import';
import type { DatastoreSearchResult, DatastoreSearchSqlResult } from '../../../shared/wire/search';
import type { StatusShow } from '../../../shared/wire/status';
import type { GroupByResult } from '../../../shared/wire/group-by';
import type { MapPointsResult } from '../../../shared/wire/map-points';
import type { ProfileResult } from '../../../shared/wire/profile';

export interface CallOptions {
  readonly signal?: AbortSignal;
}

/**
 * An action's answer from its status and body text: the result of a success envelope, or the
 * ApiError for anything else (a bare-string body is kept as is for the error). Shared by
 * fetch calls and the upload's XMLHttpRequest.
 */
export function unwrapEnvelope<T>(status: number, ok: boolean, text: string): T {
  let body: unknown = text;
  try {
    body = parseJsonExact(text);
  } catch {
    // a bare text body
  }
  const envelope = body as { success?: boolean; result?: unknown } | null;
  if (ok && envelope && typeof envelope === 'object' && envelope.success === true) return envelope.result as T;
  throw errorFromResponse(status, body);
}

async function send<T>(url: string, init: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, credentials: 'same-origin', cache: 'no-store' });
  } catch (err) {
    throw toApiError(err);
  }
  let text: string;
  try {
    text = await response.text();
  } catch (err) {
    throw toApiError(err);
  }
  return unwrapEnvelope<T>(response.status, response.ok, text);
}

/** A side-effect-free action as GET; the same URL the API panel shows. */
export function getAction<T>(action: string, pairs: ParamPairs, options: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = {};
  return send<T>(actionPath(action, pairs), { method: 'GET', headers, ...(options.signal ? { signal: options.signal } : {}) });
}

/**
 * A write as POST with a JSON body and the token (the stored one unless `token` says which).
 * Fails with kind `auth` when there is none.
 */
export function postAction<T>(action: string, body: Record<string, unknown>, options: CallOptions & { token?: string } = {}): Promise<T> {
  const token = options.token ?? getToken();
  if (!token) return Promise.reject(noTokenError());
  return send<T>(actionPath(action), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: token },
    body: JSON.stringify(body),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

export function pairsOf(params: Readonly<Record<string, string | number | boolean | undefined>>): [string, string][] {
  return Object.entries(params)
    .filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined)
    .map(([k, v]) => [k, String(v)]);
}

// ---- the actions the UI uses ------------------------------------------------------------

export const api = {
  statusShow: (o?: CallOptions) => getAction<StatusShow>('status_show', [], o),
  packageSearch: (q: string, o?: CallOptions) =>
    getAction<PackageSearchResult>('package_search', pairsOf({ q: q || undefined, rows: 1000, start: 0 }), o),
  packageShow: (id: string, o?: CallOptions) => getAction<PackageDict>('package_show', [['id', id]], o),
  packageCreate: (name: string, title: string) => postAction<PackageDict>('package_create', { name, title }),
  packageDelete: (id: string) => postAction<null>('package_delete', { id }),
  resourceShow: (id: string, o?: CallOptions) => getAction<ResourceDict>('resource_show', [['id', id]], o),
  resourceDelete: (id: string) => postAction<null>('resource_delete', { id }),
  resourceCreate: (params: Record<string, unknown>) => postAction<CreatedResource>('resource_create', params),
  resourcePatch: (params: Record<string, unknown>) => postAction<CreatedResource>('resource_patch', params),
  packagePatch: (params: Record<string, unknown>) => postAction<PackageDict>('package_patch', params),
  importStatus: (resourceId: string, o?: CallOptions) =>
    getAction<ImportJobStatus>('deskstore_import_status', [['resource_id', resourceId]], o),
  importCancel: (resourceId: string) => postAction<{ cancelled: boolean }>('deskstore_import_cancel', { resource_id: resourceId }),
  datastoreSearch: (pairs: ParamPairs, o?: CallOptions) => getAction<DatastoreSearchResult>('datastore_search', pairs, o),
  facets: (pairs: ParamPairs, o?: CallOptions) => getAction<FacetsResult>('deskstore_facets', pairs, o),
  profile: (pairs: ParamPairs, o?: CallOptions) => getAction<ProfileResult>('deskstore_profile', pairs, o),
  groupBy: (pairs: ParamPairs, o?: CallOptions) => getAction<GroupByResult>('deskstore_group_by', pairs, o),
  mapPoints: (pairs: ParamPairs, o?: CallOptions) => getAction<MapPointsResult>('deskstore_map_points', pairs, o),
  searchSql: (sql: string, o?: CallOptions) => getAction<DatastoreSearchSqlResult>('datastore_search_sql', [['sql', sql]], o),
  /** Whether a token is this data directory's token (`deskstore_token_check` changes nothing). */
  async checkToken(token: string): Promise<boolean> {
    return (await postAction<{ authorized: boolean }>('deskstore_token_check', {}, { token })).authorized;
  },
};
