/**
 * The whole HTTP application as a plain `(req, res)` function, usable without listening
 * (fastify-style): security headers and checks, request log, routing to the action
 * endpoint, extra routes, or the static UI. Every error ends in envelope.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ActionContext } from '../actions/types';
import { AuthorizationError } from '../errors';
import { handleAction } from './action-endpoint';
import { errorResponse, bareStringResponse, notFoundResponse, plainJsonResponse, sendResponse } from './envelope';
import { checkCrossSite, checkHost, createTokenMatcher, isAuthorized, setSecurityHeaders } from './request-guards';
import { canonicalPath, createRouter, isApiPath, parseTarget, type RequestTarget, type RouteMatch } from './routes';
import { createStaticUi } from './static-ui';
import type { RequestHandler, ServerLogger, ServerOptions } from './types';

/**
 * Requests without the token can only read; 1 MiB (nginx's default body cap in front of many
 * CKAN sites) leaves room for long `filters` lists and SQL.
 */
const DEFAULT_MAX_ANONYMOUS_BODY_BYTES = 1024 * 1024;

/** How long an unread request body may keep streaming in after the answer was sent. */
const DRAIN_LIMIT_MS = 5_000;

const expectContinue = new WeakSet<IncomingMessage>();

/** The server marks requests it received through `checkContinue` (see http-server.ts). */
export function markExpectsContinue(req: IncomingMessage): void {
  expectContinue.add(req);
}

export const consoleLogger: ServerLogger = {
  request: () => undefined,
  warn: (message) => console.error(`[server] ${message}`),
  error: (message, error) => console.error(`[server] ${message}`, error ?? ''),
};

const LOOPBACK_HOSTS = new Map([
  ['127.0.0.1', '127.0.0.1'],
  ['::1', '[::1]'],
  ['localhost', 'localhost'],
]);

/** The host part of siteUrl for a listening address; only loopback addresses are allowed. */
export function urlHostFor(host: string): string {
  const urlHost = LOOPBACK_HOSTS.get(host.toLowerCase());
  if (!urlHost) throw new Error(`server host must be a loopback address (127.0.0.1, ::1, localhost), not "${host}"`);
  return urlHost;
}

export function createRequestHandler(options: ServerOptions, getPort: () => number): RequestHandler {
  const logger = options.logger ?? consoleLogger;
  const urlHost = urlHostFor(options.host ?? '127.0.0.1');
  const matchesToken = createTokenMatcher(options.token);
  const router = createRouter(options.extraRoutes ?? []);
  const staticUi = createStaticUi(options.staticDir);
  const limits = {
    uploadDir: options.uploadDir,
    maxBodyBytes: options.maxBodyBytes,
    maxUploadBytes: options.maxUploadBytes,
  };
  const logInternal = (err: unknown) => logger.error('request failed', err);

  const dispatch = async (req: IncomingMessage, res: ServerResponse, port: number): Promise<void> => {
    const refuse = (why: string) => sendResponse(res, errorResponse(new AuthorizationError(why), null, logInternal));
    const badHost = checkHost(req.headers.host, port);
    if (badHost !== null) {
      refuse(badHost);
      return;
    }
    const target = parseTarget(req.url ?? '');
    if (!target) {
      sendResponse(res, bareStringResponse(400, 'Bad request - Unsupported request target'));
      return;
    }
    const method = req.method ?? 'GET';
    const found = router.lookup(method, target.path);
    const crossSite = checkCrossSite(req, found.kind === 'none' && !isApiPath(target.path) ? 'ui' : 'api');
    if (crossSite !== null) {
      refuse(crossSite);
      return;
    }
    if (found.kind === 'match') {
      await dispatchRoute(req, res, found.match, contextFor(req, target, port));
      return;
    }
    if (found.kind === 'method-not-allowed') {
      res.setHeader('Allow', found.allow.join(', '));
      sendResponse(res, bareStringResponse(405, `Method Not Allowed: use ${found.allow.join(' or ')}`));
      return;
    }
    if ((method === 'GET' || method === 'HEAD') && !isApiPath(target.path) && staticUi.handle(req, res, target)) return;
    sendResponse(res, notFoundResponse());
  };

  const contextFor = (req: IncomingMessage, target: RequestTarget, port: number): ActionContext => ({
    authorized: isAuthorized(req, matchesToken),
    locale: target.locale,
    siteUrl: `http://${urlHost}:${port}`,
    path: canonicalPath(target.path),
    rawQuery: target.rawQuery,
    method: req.method === 'POST' ? 'POST' : 'GET',
  });

  const dispatchRoute = async (req: IncomingMessage, res: ServerResponse, match: RouteMatch, context: ActionContext): Promise<void> => {
    const { entry } = match;
    if (entry.kind === 'api-version') {
      sendResponse(res, plainJsonResponse({ version: entry.version }));
    } else if (entry.kind === 'action') {
      await handleAction(req, res, match.params.name ?? '', context, {
        registry: options.registry,
        limits,
        maxAnonymousBodyBytes: options.maxAnonymousBodyBytes ?? DEFAULT_MAX_ANONYMOUS_BODY_BYTES,
        logger,
        expectsContinue: (r) => expectContinue.has(r),
      });
    } else {
      // Extra routes read their own bodies, so they get the go-ahead unconditionally.
      if (expectContinue.has(req)) res.writeContinue();
      const query = new URLSearchParams(context.rawQuery);
      await entry.route.handle(req, res, { params: match.params, query, context, registry: options.registry });
    }
  };

  return (req, res) => {
    const started = performance.now();
    const method = req.method ?? '';
    const path = (req.url ?? '').split('?', 1)[0]!;
    res.on('close', () => {
      logger.request({
        method,
        path,
        status: res.statusCode,
        ms: Math.round(performance.now() - started),
        aborted: !res.writableFinished,
      });
    });
    setSecurityHeaders(res);
    dispatch(req, res, getPort())
      .catch((err: unknown) => {
        // Only an extra route or a bug gets here; once streaming has begun the only honest
        // signal left is to cut the connection.
        if (res.headersSent) {
          logInternal(err);
          res.destroy();
        } else {
          sendResponse(res, errorResponse(err, null, logInternal));
        }
      })
      .finally(() => drainUnreadBody(req));
  };
}

/**
 * After an early answer (413, unknown action, ...) part of the body may still be on its
 * way. Reading and discarding it keeps the client from a connection reset while it is still
 * sending, which would hide the answer from it; a client that keeps sending for too long is
 * cut off.
 */
function drainUnreadBody(req: IncomingMessage): void {
  if (req.complete || req.destroyed) return;
  const timer = setTimeout(() => req.socket.destroy(), DRAIN_LIMIT_MS);
  timer.unref();
  const stop = () => clearTimeout(timer);
  req.once('end', stop);
  req.once('close', stop);
  req.resume();
}
