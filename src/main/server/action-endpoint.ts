/**
 * `/api/[3/]action/{name}`: look the action up, check the method, read and interpret the
 * body (§1.2), run the action, answer with the envelope (§2). Uploaded files live only for
 * the duration of `run()`: an action that wants to keep one must move it away.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ActionContext, ActionRegistry } from '../actions/types';
import { ClientGoneError } from './body-errors';
import {
  assertDeclaredSizeFits, hasBody, readRequestBody, type BodyLimits, type RequestBody,
} from './body-reader';
import {
  bareStringResponse, errorResponse, helpUrl, notFoundResponse, sendResponse, successResponse, toJsonp,
  type WireResponse,
} from './envelope';
import { removeFiles } from './multipart';
import { assertMethodAllowed, extractParams } from './request-params';
import type { ServerLogger } from './types';

export interface ActionEndpointDeps {
  readonly registry: ActionRegistry;
  readonly limits: BodyLimits;
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
    acceptBody(req, res, deps);
    body = await readRequestBody(req, deps.limits);
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
    const jsonp = jsonpCallback(baseContext);
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
function acceptBody(req: IncomingMessage, res: ServerResponse, deps: ActionEndpointDeps): void {
  if (!deps.expectsContinue(req) || !hasBody(req)) return;
  try {
    assertDeclaredSizeFits(req, deps.limits);
  } catch (err) {
    // The client now either sends nothing or closes; the connection cannot be reused.
    res.setHeader('Connection', 'close');
    throw err;
  }
  res.writeContinue();
}

/** JSONP only for a GET whose query string names a callback; errors stay plain JSON (§1.2). */
function jsonpCallback(ctx: ActionContext): string | null {
  if (ctx.method !== 'GET') return null;
  return new URLSearchParams(ctx.rawQuery).get('callback');
}
