/**
 * The one HTTP client of the UI: CKAN action calls on this origin, reads as GET (anonymous),
 * writes as POST with the API token. Every answer is unwrapped from CKAN's envelope or turned
 * into an ApiError.
 */
import { errorFromResponse, noTokenError, toApiError } from './errors';
import { parseJsonExact } from './exact-json';
import { getToken } from './token';
import { actionPath, paramPairs, type ParamPairs } from './urls';
import { SIDE_EFFECT_FREE, type ActionName, type ActionParams, type ActionResult } from '../../../shared/wire/actions';

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
function getAction<T>(action: string, pairs: ParamPairs, options: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = {};
  return send<T>(actionPath(action, pairs), { method: 'GET', headers, ...(options.signal ? { signal: options.signal } : {}) });
}

/**
 * A write as POST with a JSON body and the token (the stored one unless `token` says which).
 * Fails with kind `auth` when there is none.
 */
function postAction<T>(action: string, body: object, options: CallOptions & { token?: string } = {}): Promise<T> {
  const token = options.token ?? getToken();
  if (!token) return Promise.reject(noTokenError());
  return send<T>(actionPath(action), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: token },
    body: JSON.stringify(body),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

// ---- the typed call ----------------------------------------------------------------------

/**
 * Calls action `name` with the parameters its contract takes (src/shared/wire/actions.ts) and
 * answers its result. A side-effect-free action goes as GET, anonymously, on the URL the API
 * panel shows; anything else as POST with the token (`token`: this one instead of the stored
 * one, which also sends a read as POST so the token travels).
 */
export function call<K extends ActionName>(
  name: K,
  params: ActionParams<K>,
  options: CallOptions & { readonly token?: string } = {},
): Promise<ActionResult<K>> {
  if (SIDE_EFFECT_FREE[name] && options.token === undefined) return getAction<ActionResult<K>>(name, paramPairs(params), options);
  return postAction<ActionResult<K>>(name, params, options);
}

/** Whether a token is this data directory's token (`deskstore_token_check` changes nothing). */
export async function checkToken(token: string): Promise<boolean> {
  return (await call('deskstore_token_check', {}, { token })).authorized;
}
