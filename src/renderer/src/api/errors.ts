/**
 * Every failure of a call to Deskstore becomes one ApiError with a kind the UI can explain
 * in the user's language (components/ErrorNotice), and the server's coded message when it
 * sent one (`deskstore_message`, worded by the UI); the server's own English text is kept
 * as technical detail.
 */
import type { Message } from '../../../shared/messages';
import { isMessage } from '../i18n/format-message';

export type ApiErrorKind =
  'network' | 'auth' | 'not_found' | 'validation' | 'too_large' | 'bad_request' | 'server' | 'aborted' | 'import_failed';

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    readonly status: number,
    message: string,
    /** CKAN's validation members (`{field: ["message"]}`), without `__type`. */
    readonly fields: Readonly<Record<string, readonly string[]>> = {},
    /** What the server says to people, to be worded in the user's language. */
    readonly worded: Message | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const NO_TOKEN = 'No API token';

/** A write asked before the user gave the API token: the UI says what to do, with no detail. */
export function noTokenError(): ApiError {
  return new ApiError('auth', 403, NO_TOKEN);
}

export function isNoTokenError(err: ApiError): boolean {
  return err.kind === 'auth' && err.message === NO_TOKEN;
}

interface CkanErrorBody {
  readonly __type?: string;
  readonly message?: string;
  readonly [member: string]: unknown;
}

function fieldMessages(error: CkanErrorBody): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(error)) {
    if (key === '__type') continue;
    if (Array.isArray(value)) out[key] = value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
    else if (typeof value === 'string') out[key] = [value];
    else if (value !== undefined) out[key] = [JSON.stringify(value)];
  }
  return out;
}

/** Builds the ApiError for a non-success answer: status plus the parsed body (envelope or bare string). */
export function errorFromResponse(status: number, body: unknown): ApiError {
  if (typeof body === 'string') {
    return new ApiError(status === 413 ? 'too_large' : status >= 500 ? 'server' : 'bad_request', status, body);
  }
  const envelope = body as { error?: CkanErrorBody; deskstore_message?: unknown } | null;
  const error = envelope?.error;
  const worded = isMessage(envelope?.deskstore_message) ? envelope.deskstore_message : null;
  if (!error || typeof error !== 'object') {
    return new ApiError(status === 413 ? 'too_large' : status >= 500 ? 'server' : 'bad_request', status, `HTTP ${status}`);
  }
  const fields = fieldMessages(error);
  const message =
    typeof error.message === 'string'
      ? error.message
      : Object.entries(fields)
          .map(([k, v]) => `${k}: ${v.join(' ')}`)
          .join('; ') || `HTTP ${status}`;
  if (status === 413) return new ApiError('too_large', status, message, fields, worded);
  switch (error.__type) {
    case 'Authorization Error':
      return new ApiError('auth', status, message, fields, worded);
    case 'Not Found Error':
      return new ApiError('not_found', status, message, fields, worded);
    case 'Validation Error':
      return new ApiError('validation', status, message, fields, worded);
    default:
      return new ApiError(status >= 500 ? 'server' : 'bad_request', status, message, fields, worded);
  }
}

export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof DOMException && err.name === 'AbortError') return new ApiError('aborted', 0, 'aborted');
  return new ApiError('network', 0, err instanceof Error ? err.message : String(err));
}

export function isAbort(err: unknown): boolean {
  return (err instanceof ApiError && err.kind === 'aborted') || (err instanceof DOMException && err.name === 'AbortError');
}
