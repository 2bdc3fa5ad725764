/**
 * The one place where outcomes become CKAN's wire shape (docs/ckan-contract.md §2): success envelope,
 * error envelopes per error class, bare-string 400s, JSONP. Everything the server answers
 * with a JSON body goes through here.
 */
import type { ServerResponse } from 'node:http';
import { once } from 'node:events';
import {
  AuthorizationError,
  BadRequestError,
  NotFoundError,
  SearchError,
  SearchQueryError,
  StorageError,
  ValidationError,
  isActionError,
} from '../errors';
import type { Locale } from '../../shared/locales';
import { jsonBody, type JsonParts } from '../util/raw-json';

export const JSON_CONTENT_TYPE = 'application/json;charset=utf-8';
export const JSONP_CONTENT_TYPE = 'application/javascript;charset=utf-8';

export interface WireResponse {
  readonly status: number;
  readonly contentType: string;
  /** One string, or parts (a big answer's UTF-8 chunks, raw-json.ts) written one by one. */
  readonly body: string | JsonParts;
  readonly headers?: Readonly<Record<string, string>>;
}

/** `<site>[/<locale>]/api/3/action/help_show?name=<action>`: always `/api/3/`, as CKAN. */
export function helpUrl(siteUrl: string, locale: Locale | null, action: string): string {
  const prefix = locale ? `/${locale}` : '';
  return `${siteUrl}${prefix}/api/3/action/help_show?name=${encodeURIComponent(action)}`;
}

export function successResponse(help: string, result: unknown): WireResponse {
  // Key order and bytes as CKAN writes the dict (help, success, result; json.dumps): the result
  // goes through jsonBody so pre-serialized records are spliced in, not re-encoded.
  return {
    status: 200,
    contentType: JSON_CONTENT_TYPE,
    body: wrapped(`{"help": ${jsonBody(help) as string}, "success": true, "result": `, jsonBody(result), '}'),
  };
}

/** A JSON body that is not an envelope (`GET /api` → `{"version": 1}`). */
export function plainJsonResponse(value: unknown, status = 200): WireResponse {
  return { status, contentType: JSON_CONTENT_TYPE, body: jsonBody(value) };
}

/** CKAN's pre-action errors: the body is a bare JSON string (docs/ckan-contract.md §2.3). */
export function bareStringResponse(status: number, text: string): WireResponse {
  return { status, contentType: JSON_CONTENT_TYPE, body: jsonBody(text) };
}

/**
 * Maps anything an action (or an extra route) threw to status + body. `help` is null for
 * errors that do not belong to an action (Host check, unknown paths); the member is then
 * left out rather than pointing at a made-up action. Unknown errors are logged with their
 * stack by the caller-supplied hook and never leak: only status < 500 carries a message.
 */
export function errorResponse(err: unknown, help: string | null, logInternal: (err: unknown) => void): WireResponse {
  if (err instanceof BadRequestError) return bareStringResponse(err.status, err.body);
  let status: number;
  let error: Record<string, unknown>;
  if (err instanceof ValidationError) {
    // CKAN adds `__type` to the validator's own dict, so it comes after the members and wins
    // over a member of the same name.
    status = 409;
    error = { ...err.members, __type: 'Validation Error' };
  } else if (err instanceof StorageError) {
    status = 409;
    error = { message: err.message, __type: 'Validation Error' };
  } else if (err instanceof NotFoundError) {
    status = 404;
    error = { __type: 'Not Found Error', message: err.message };
  } else if (err instanceof AuthorizationError) {
    status = 403;
    error = { __type: 'Authorization Error', message: err.message };
  } else if (err instanceof SearchQueryError) {
    status = 400;
    error = { __type: 'Search Query Error', message: err.message };
  } else if (err instanceof SearchError) {
    status = 409;
    error = { __type: 'Search Error', message: err.message };
  } else {
    logInternal(err);
    status = 500;
    error = { __type: 'Internal Server Error', message: 'Internal Server Error' };
  }
  // CKAN's order: help, error, success (api.py sets `success` after `error`).
  const envelope = help === null ? { error, success: false } : { help, error, success: false };
  // Deskstore's wording for people, beside CKAN's members (never inside `error`, whose keys clients read as fields)
  const worded = isActionError(err) && err.deskstoreMessage ? { deskstore_message: err.deskstoreMessage } : {};
  return { status, contentType: JSON_CONTENT_TYPE, body: jsonBody({ ...envelope, ...worded }) };
}

/** 404 for paths that route nowhere, in the envelope CKAN clients already understand. */
export function notFoundResponse(): WireResponse {
  return errorResponse(new NotFoundError(), null, () => undefined);
}

/**
 * `callback(<json>);` with the callback HTML-escaped as CKAN does (`html.escape`, quotes
 * included), which keeps `<`, `>`, `&` and quotes out of the script text.
 */
export function toJsonp(callback: string, response: WireResponse): WireResponse {
  const escaped = callback
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;');
  return { ...response, contentType: JSONP_CONTENT_TYPE, body: wrapped(`${escaped}(`, response.body, ');') };
}

/** `body` between `before` and `after`, as one string or as parts. */
function wrapped(before: string, body: string | JsonParts, after: string): string | JsonParts {
  return typeof body === 'string' ? before + body + after : [before, ...body, after];
}

/**
 * Writes a complete response unless the client is gone or a handler already answered. A body
 * in parts is written part by part, each waiting for the socket to drain, and each let go once
 * written: a big answer is never copied into one buffer, and its memory returns as it leaves.
 */
export function sendResponse(res: ServerResponse, response: WireResponse): void {
  if (res.headersSent || res.destroyed) return;
  const parts = typeof response.body === 'string' ? [Buffer.from(response.body, 'utf8')] : response.body.map(utf8);
  res.statusCode = response.status;
  for (const [name, value] of Object.entries(response.headers ?? {})) res.setHeader(name, value);
  res.setHeader('Content-Type', response.contentType);
  res.setHeader(
    'Content-Length',
    parts.reduce((n, p) => n + p.byteLength, 0),
  );
  if (parts.length === 1) res.end(parts[0]);
  else void writeParts(res, parts);
}

const utf8 = (part: string | Uint8Array): Uint8Array => (typeof part === 'string' ? Buffer.from(part, 'utf8') : part);

async function writeParts(res: ServerResponse, parts: (Uint8Array | undefined)[]): Promise<void> {
  // `once` rejects on 'error': a client gone is the same as closed here.
  const closed = once(res, 'close').then(
    () => 'closed' as const,
    () => 'closed' as const,
  );
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    parts[i] = undefined;
    if (res.destroyed) return;
    if (!res.write(part)) {
      const drained = once(res, 'drain').then(
        () => 'drained' as const,
        () => 'closed' as const,
      );
      if ((await Promise.race([drained, closed])) === 'closed') return;
    }
  }
  res.end();
}
