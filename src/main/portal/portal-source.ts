import { message } from '../../shared/messages';
import { PortalClient, type PortalClientOptions } from './portal-client';
import { PortalError, isPortalError, portalNotCkan } from './portal-errors';

/**
 * What a user pasted, understood: a dataset page (`https://host/opendata/it/dataset/NAME`), a
 * resource page (`…/dataset/NAME/resource/ID`), or a portal's base URL (with `--dataset`).
 * The API base is found by probing `status_show` under the URL's path prefixes, because
 * portals live under paths (`/opendata/`) and locale prefixes (`/it/`). docs/portal.md §Sources.
 */
export interface PortalSource {
  readonly url: URL;
  /** Path prefixes to probe, most likely first. */
  readonly candidates: readonly string[];
  readonly dataset: string | null;
  readonly resource: string | null;
}

const LOCALE_SEGMENT = /^[a-z]{2}(?:[_-][A-Za-z]{2,4})?$/;

export function parsePortalSource(raw: string): PortalSource {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new PortalError(message('portal.bad_url', `${JSON.stringify(raw)} is not a web address.`, { url: raw }));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PortalError(message('portal.bad_url', `${JSON.stringify(raw)} is not an http or https address.`, { url: raw }));
  }
  const segments = url.pathname
    .split('/')
    .filter(Boolean)
    .map((s) => decodeURIComponent(s));
  let dataset: string | null = null;
  let resource: string | null = null;
  let prefixEnd = segments.length;
  const at = segments.indexOf('dataset');
  if (at >= 0 && segments[at + 1]) {
    dataset = segments[at + 1]!;
    if (segments[at + 2] === 'resource' && segments[at + 3]) resource = segments[at + 3]!;
    prefixEnd = at;
  } else {
    const api = segments.indexOf('api');
    if (api >= 0) prefixEnd = api;
  }
  const prefix = segments.slice(0, prefixEnd);
  // Longest prefix first; one ending in a locale segment after the same path without it.
  const candidates: string[] = [];
  for (let n = prefix.length; n >= 0; n--) {
    const path = `/${prefix.slice(0, n).map(encodeURIComponent).join('/')}`.replace(/\/$/, '');
    if (n > 0 && LOCALE_SEGMENT.test(prefix[n - 1]!)) {
      const without = `/${prefix
        .slice(0, n - 1)
        .map(encodeURIComponent)
        .join('/')}`.replace(/\/$/, '');
      if (!candidates.includes(without)) candidates.push(without);
    }
    if (!candidates.includes(path)) candidates.push(path);
  }
  return { url, candidates, dataset, resource };
}

/** The client of the first path prefix whose `status_show` answers like CKAN. */
export async function discoverPortal(source: PortalSource, options: PortalClientOptions): Promise<PortalClient> {
  let lastNetworkError: PortalError | null = null;
  for (const path of source.candidates) {
    const client = new PortalClient(`${source.url.origin}${path}`, { ...options, retries: Math.min(options.retries ?? 1, 1) });
    try {
      const status = await client.action<{ ckan_version?: unknown }>('status_show');
      if (status && typeof status === 'object' && 'ckan_version' in status) return new PortalClient(client.base, options);
    } catch (err) {
      if (!isPortalError(err)) throw err;
      // Unreachable or timed out: every other path of the same host will be too.
      if (err.worded.code === 'portal.unreachable' || err.worded.code === 'portal.timeout') {
        lastNetworkError = err;
        break;
      }
    }
  }
  throw lastNetworkError ?? portalNotCkan(source.url.toString());
}
