/**
 * Per-request security checks (docs/architecture.md §5): the Host allow-list, the cross-site fetch
 * refusal, token comparison, and the headers every response carries.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The page's policy: everything from this origin only, no inline script or style, images
 * may be data: URLs (icons, charts), fetches only back to this server, never framed.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Set on every response, not only HTML: a JSON answer opened as a page is then just as
 * locked down, and nothing can forget them. No CORS headers, on purpose: the UI is
 * same-origin and a foreign page must not read this server.
 */
export function setSecurityHeaders(res: ServerResponse): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
}

/**
 * DNS rebinding defence: a foreign page whose name was re-pointed at 127.0.0.1 still sends
 * its own name in Host, so only loopback names with our port are accepted. Returns a
 * description of the problem, or null when the header is fine.
 */
export function checkHost(hostHeader: string | undefined, port: number): string | null {
  if (!hostHeader) return 'missing Host header';
  const host = hostHeader.toLowerCase();
  const names = ['127.0.0.1', 'localhost', '[::1]'];
  const allowed = names.map((n) => `${n}:${port}`);
  // Clients leave the default port out of Host; only matters if someone serves on 80.
  if (port === 80) allowed.push(...names);
  if (allowed.includes(host)) return null;
  const shown = hostHeader.length > 100 ? `${hostHeader.slice(0, 100)}...` : hostHeader;
  return `Host header "${shown}" is not allowed (expected 127.0.0.1:${port} or localhost:${port})`;
}

/** What a request is for: the API (actions, `/api`, the dump) or the UI's pages and files. */
export type RequestAudience = 'api' | 'ui';

const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * Cross-site refusal (docs/security.md, "requests from other pages"). Browsers say where a
 * request comes from: `Origin` on every POST and CORS request, `Sec-Fetch-Site` (with
 * `-Mode` and `-Dest`) on everything. Only this server's own pages may call the API; another
 * site, or another local port (`same-site`: a notebook or a dev server), may only open a UI page
 * as a top-level navigation (a link). A foreign page can therefore neither frame the UI, nor
 * submit a form to an action, nor include a JSONP URL as a script, nor start a costly query
 * with an image tag. Scripts and curl send none of these headers and are not affected.
 */
export function checkCrossSite(req: IncomingMessage, audience: RequestAudience): string | null {
  const origin = single(req.headers.origin);
  if (origin !== undefined && origin.toLowerCase() !== `http://${(req.headers.host ?? '').toLowerCase()}`) {
    const shown = origin.length > 100 ? `${origin.slice(0, 100)}...` : origin;
    return `requests from other origins (${shown}) are not allowed`;
  }
  const site = single(req.headers['sec-fetch-site']);
  if (site === undefined || site === 'same-origin' || site === 'none') return null;
  const topLevelNavigation =
    single(req.headers['sec-fetch-mode']) === 'navigate' &&
    single(req.headers['sec-fetch-dest']) === 'document' &&
    (req.method === 'GET' || req.method === 'HEAD');
  if (audience === 'ui' && topLevelNavigation) return null;
  return audience === 'api'
    ? 'the API does not answer requests from other sites or local ports; call it from a script or from Deskstore itself'
    : 'cross-site requests are not allowed';
}

/** The request comes from a page of this very server (the only pages JSONP is answered to). */
export function isSameOriginPage(req: IncomingMessage): boolean {
  return single(req.headers['sec-fetch-site']) === 'same-origin';
}

/** Compares digests so that neither the content nor the length of the token leaks by timing. */
export function createTokenMatcher(token: string): (candidate: string | undefined) => boolean {
  if (!token) throw new Error('startHttpServer: token must be a non-empty string');
  const expected = createHash('sha256').update(token, 'utf8').digest();
  return (candidate) => {
    if (candidate === undefined || candidate === '') return false;
    const actual = createHash('sha256').update(candidate, 'utf8').digest();
    return timingSafeEqual(expected, actual);
  };
}

/**
 * CKAN 2.11 reads the bare token from `Authorization` (no `Bearer ` stripping); ckan.js
 * sends only `X-CKAN-API-Key`. Either header carrying the token authorizes; anything else
 * (missing, malformed, wrong) is simply anonymous, never an error.
 */
export function isAuthorized(req: IncomingMessage, matches: (candidate: string | undefined) => boolean): boolean {
  const authorization = req.headers.authorization;
  const apiKey = req.headers['x-ckan-api-key'];
  const key = Array.isArray(apiKey) ? apiKey[0] : apiKey;
  // Evaluate both so the time taken does not say which header matched.
  const a = matches(authorization);
  const b = matches(key);
  return a || b;
}
