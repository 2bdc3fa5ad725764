/**
 * `/api/[3/]action/{name}`: look the action up, check the method, read and interpret the
 * body (§1.2), run the action, answer with the envelope (§2). Uploaded files live only for
 * the duration of `run()`: an action that wants to keep one must move it away.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requireToken } from '../actions/require-token';
import type { ActionContext, ActionRegistry } from '../actions/types';
import { AuthorizationError, BadRequestError } from '../errors';
import { ClientGoneError } from './body-errors';
import { anonymousLimits, assertDeclaredSizeFits, hasBody, readRequestBody, type BodyLimits, type RequestBody } from './body-reader';
import {
  bareStringResponse,
  errorResponse,
  helpUrl,
  notFoundResponse,
  sendResponse,
  successResponse,
  toJsonp,
  type WireResponse,
} from './envelope';
import { removeFiles } from './multipart';
import { assertMethodAllowed, extractParams } from './request-params';
import { isSameOriginPage } from './request-guards';
import type { ServerLogger } from './types';

export interface ActionEndpointDeps {
  readonly registry: ActionRegistry;
  readonly limits: BodyLimits;
  /** Cap for the body of a request without the token. */
  readonly maxAnonymousBodyBytes: number;
  readonly logger: ServerLogger;
  /** Requests that arrived with `Expect: 100-continue` (marked by the server). */
  readonly expectsContinue: (req: IncomingMessage) => boolean;
}

export async function handleAction(
  req: IncomingMessage,
  res: ServerResponse,
  name: string,
  baseContext: ActionContext,
  deps: ActionEndpointDeps,
): Promise<void> {
  // `/api/3/action/` matches the route with an empty name; Flask would not route it.
  if (name === '') {
    sendResponse(res, notFoundResponse());
    return;
  }
  const action = deps.registry.get(name);
  if (!action) {
    sendResponse(res, bareStringResponse(400, `Bad request - Action name not known: ${name}`));
    return;
  }
  const help = helpUrl(baseContext.siteUrl, baseContext.locale, name);
  const logInternal = (err: unknown) => deps.logger.error(`action ${name} failed`, err);
  let body: RequestBody = { kind: 'none' };
  let response: WireResponse;
  try {
    assertMethodAllowed(baseContext.method, action.sideEffectFree);
    // Decided from the headers, before a byte of the body is read: an anonymous client cannot
    // make the server store an upload or parse a big body only to be told 403.
    if (action.requiresToken) requireToken(baseContext, name);
    const jsonp = jsonpCallback(req, baseContext);
    const limits = baseContext.authorized ? deps.limits : anonymousLimits(deps.limits, deps.maxAnonymousBodyBytes);
    acceptBody(req, res, deps, limits);
    body = await readRequestBody(req, limits);
    const { params, callback } = extractParams({
      method: baseContext.method,
      sideEffectFree: action.sideEffectFree,
      rawQuery: baseContext.rawQuery,
      body,
    });
    // CKAN drops the user when a `callback` key is present: JSONP responses can be read
    // by any page, so they must never carry what only the token holder may see.
    const context: ActionContext = callback ? { ...baseContext, authorized: false } : baseContext;
    const result = await action.run(params, context);
    response = successResponse(help, result);
    if (jsonp !== null) response = toJsonp(jsonp, response);
  } catch (err) {
    if (err instanceof ClientGoneError) return;
    response = errorResponse(err, help, logInternal);
  }
  // Removed before answering, so a client that got its answer finds no temp files left.
  if (body.kind === 'form' && body.createdPaths.length > 0) {
    await removeFiles(body.createdPaths).catch((err: unknown) => deps.logger.error('could not remove uploaded files', err));
  }
  sendResponse(res, response);
}

/**
 * A client that asked for `100-continue` gets it only if the declared size fits; otherwise
 * it is told 413 before it sends anything (curl does this for bodies over 1 MB).
 */
function acceptBody(req: IncomingMessage, res: ServerResponse, deps: ActionEndpointDeps, limits: BodyLimits): void {
  if (!deps.expectsContinue(req) || !hasBody(req)) return;
  try {
    assertDeclaredSizeFits(req, limits);
  } catch (err) {
    // The client now either sends nothing or closes; the connection cannot be reused.
    res.setHeader('Connection', 'close');
    throw err;
  }
  res.writeContinue();
}

/** A JavaScript name, possibly dotted (`cb`, `jQuery123_456`, `app.receive`): nothing else can be a callback. */
const CALLBACK = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;

/**
 * JSONP only for a GET whose query string names a callback; errors stay plain JSON (§1.2).
 * A JSONP answer is readable by whichever page includes it as a script, so it is only given to
 * this server's own pages (a browser says so with `Sec-Fetch-Site: same-origin`), and the
 * callback must be a plain JavaScript name (docs/security.md, "JSONP").
 */
function jsonpCallback(req: IncomingMessage, ctx: ActionContext): string | null {
  if (ctx.method !== 'GET') return null;
  const callback = new URLSearchParams(ctx.rawQuery).get('callback');
  if (callback === null) return null;
  if (!isSameOriginPage(req)) throw new AuthorizationError('JSONP (callback) is only answered to pages of this server');
  if (callback.length > 128 || !CALLBACK.test(callback)) {
    throw new BadRequestError('Bad request - callback must be a JavaScript function name');
  }
  return callback;
}
