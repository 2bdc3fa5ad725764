/**
 * URL building shared by the HTTP client, the API panel and the export links, so that what
 * the table fetches, what the panel shows and what an export downloads are the same query.
 * Pure: no DOM.
 */

/** Ordered query parameters; a name may repeat (CKAN reads a repeated `fields` as a list). */
export type ParamPairs = ReadonlyArray<readonly [string, string]>;

/**
 * Parameters as query-string pairs, for a GET and for the URL the API panel shows: a list of
 * strings repeats its name (CKAN reads repeats as a list), other lists and objects travel as
 * JSON text (how CKAN reads `filters` from a query string), the rest as text.
 */
export function paramPairs(params: object): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
      for (const item of value) pairs.push([name, item]);
    } else if (value !== null && typeof value === 'object') {
      pairs.push([name, JSON.stringify(value)]);
    } else {
      pairs.push([name, String(value)]);
    }
  }
  return pairs;
}

export function queryString(pairs: ParamPairs): string {
  const search = new URLSearchParams();
  for (const [name, value] of pairs) search.append(name, value);
  return search.toString();
}

export function actionPath(action: string, pairs: ParamPairs = []): string {
  const query = queryString(pairs);
  return `/api/3/action/${action}${query ? `?${query}` : ''}`;
}

export function dumpPath(resourceId: string, pairs: ParamPairs): string {
  const query = queryString(pairs);
  return `/datastore/dump/${encodeURIComponent(resourceId)}${query ? `?${query}` : ''}`;
}

/** `https://portal.example/` → `https://portal.example` (no trailing slash, no `/api/3`...). */
export function normalizeBaseUrl(input: string): string | null {
  const text = input.trim();
  if (!text) return null;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const path = url.pathname.replace(/\/+$/, '').replace(/\/api(\/3)?(\/action)?$/, '');
  return `${url.origin}${path}`;
}

/**
 * What a CKAN resource URL tells about its portal: CKAN serves uploads at
 * `<site>/dataset/<package>/resource/<resource id>/download/<file>`, which gives the site root
 * and the resource id there. Other URLs only give an origin to suggest.
 */
export function portalHints(resourceUrl: string | null | undefined): { base: string; resourceId: string | null } | null {
  if (!resourceUrl || !/^https?:\/\//i.test(resourceUrl)) return null;
  let url: URL;
  try {
    url = new URL(resourceUrl);
  } catch {
    return null;
  }
  const match = /^(.*?)\/dataset\/[^/]+\/resource\/([0-9a-f-]{36})(?:\/|$)/i.exec(url.pathname);
  if (match) return { base: `${url.origin}${match[1] ?? ''}`, resourceId: match[2] ?? null };
  return { base: url.origin, resourceId: null };
}
