/**
 * URL shapes (docs/ckan-contract.md §1.1): locale stripping, then routing of the API paths and the extra
 * routes with find-my-way. Everything that does not route here falls to the static UI.
 */
import FindMyWay from 'find-my-way';
import { isLocale, type Locale } from '../../shared/locales';
import type { ExtraRoute } from './types';

export interface RequestTarget {
  /** Path as received, without the query string. */
  readonly rawPath: string;
  /** Path with a leading locale segment removed (still percent-encoded): what is routed. */
  readonly path: string;
  /** Query string without `?`, exactly as received. */
  readonly rawQuery: string;
  readonly locale: Locale | null;
}

/**
 * Splits `req.url`. Only origin-form targets (`/path?query`) are served; absolute-form and
 * `*` targets are for proxies and OPTIONS, which this server is not. CKAN strips a leading
 * segment only when it is an offered locale; anything else (`/fr/api/...`) routes as-is and
 * 404s.
 */
export function parseTarget(url: string): RequestTarget | null {
  if (!url.startsWith('/')) return null;
  const q = url.indexOf('?');
  const rawPath = q === -1 ? url : url.slice(0, q);
  const rawQuery = q === -1 ? '' : url.slice(q + 1);
  const segments = rawPath.split('/');
  if (isLocale(segments[1])) {
    const rest = segments.slice(2).join('/');
    return { rawPath, path: `/${rest}`, rawQuery, locale: segments[1] };
  }
  return { rawPath, path: rawPath, rawQuery, locale: null };
}

/**
 * The locale-free path as CKAN's CKAN_CURRENT_URL has it: each segment decoded and
 * re-quoted like Python's `quote`, so `_links` (§3.7) come out the same whichever way the
 * client encoded the path.
 */
export function canonicalPath(path: string): string {
  return path
    .split('/')
    .map((segment) => pythonQuote(safeDecode(segment)))
    .join('/');
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Python's urllib.parse.quote: encodeURIComponent, but also encoding `!'()*`. */
function pythonQuote(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export type RouteEntry =
  | { readonly kind: 'api-version'; readonly version: number }
  | { readonly kind: 'action' }
  | { readonly kind: 'extra'; readonly route: ExtraRoute };

export interface RouteMatch {
  readonly entry: RouteEntry;
  readonly params: Readonly<Record<string, string>>;
}

export type RouteLookup =
  | { readonly kind: 'match'; readonly match: RouteMatch }
  /** The path exists for other methods: 405 with these in `Allow`. */
  | { readonly kind: 'method-not-allowed'; readonly allow: string[] }
  | { readonly kind: 'none' };

export interface Router {
  lookup(method: string, path: string): RouteLookup;
}

const ROUTED_METHODS = ['GET', 'POST'] as const;

export function createRouter(extraRoutes: readonly ExtraRoute[]): Router {
  const router = FindMyWay();
  const noop = () => undefined;
  // `/api` and `/api/3` answer GET only, with or without the trailing slash, as Flask's
  // non-strict slashes do. Only version 3 routes actions: `/api/2/action/x` is a 404.
  for (const [path, version] of [
    ['/api', 1],
    ['/api/', 1],
    ['/api/3', 3],
    ['/api/3/', 3],
  ] as const) {
    router.on('GET', path, noop, { kind: 'api-version', version } satisfies RouteEntry);
  }
  for (const path of ['/api/action/:name', '/api/3/action/:name']) {
    router.on(['GET', 'POST'], path, noop, { kind: 'action' } satisfies RouteEntry);
  }
  for (const route of extraRoutes) {
    const methods = typeof route.method === 'string' ? [route.method] : [...route.method];
    router.on(methods, route.path, noop, { kind: 'extra', route } satisfies RouteEntry);
  }

  const find = (method: 'GET' | 'POST', path: string): RouteMatch | null => {
    const found = router.find(method, path);
    if (!found) return null;
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(found.params)) if (v !== undefined) params[k] = v;
    return { entry: found.store as RouteEntry, params };
  };

  return {
    lookup(method, path) {
      if (method === 'GET' || method === 'POST') {
        const match = find(method, path);
        if (match) return { kind: 'match', match };
      }
      const allow = ROUTED_METHODS.filter((m) => m !== method && find(m, path) !== null);
      return allow.length > 0 ? { kind: 'method-not-allowed', allow } : { kind: 'none' };
    },
  };
}

/** `/api` and everything below it belongs to the API, never to the UI's SPA fallback. */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}
