/**
 * Client routes live in the URL fragment (`#/`, `#/import`, `#/import/<resource id>`,
 * `#/resource/<id>?q=...`), so the server's locale paths stay the only server routes and a
 * language switch keeps the route. `navigate(..., {replace})` rewrites without a history
 * entry (a side panel opening); `{step}` makes a history entry that Back undoes (a change of
 * the table's search, filters or sort); with `merge`, a step of the same kind right after
 * another replaces it, so a search refined word by word is one step, not one per pause.
 */
import { useSyncExternalStore } from 'react';

export interface Route {
  /** `/resource/abc` */
  readonly path: string;
  readonly segments: readonly string[];
  readonly query: URLSearchParams;
  readonly raw: string;
}

const listeners = new Set<() => void>();
let cached: Route | null = null;

export function parseHash(hash: string): Route {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  const [pathPart = '', queryPart = ''] = body.split(/\?(.*)/s, 2);
  const path = pathPart.startsWith('/') ? pathPart : `/${pathPart}`;
  const segments = path
    .split('/')
    .filter(Boolean)
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
  return { path, segments, query: new URLSearchParams(queryPart), raw: hash };
}

function current(): Route {
  const hash = window.location.hash;
  if (!cached || cached.raw !== hash) cached = parseHash(hash);
  return cached;
}

function notify(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1) {
    window.addEventListener('hashchange', notify);
    window.addEventListener('popstate', notify);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      window.removeEventListener('hashchange', notify);
      window.removeEventListener('popstate', notify);
    }
  };
}

export function useRoute(): Route {
  return useSyncExternalStore(subscribe, current);
}

/** The table of a resource. */
export const resourcePath = (resourceId: string): string => `/resource/${encodeURIComponent(resourceId)}`;
/** One row of a resource (`_id`), on a page of its own. */
export const rowPath = (resourceId: string, rowId: number): string => `${resourcePath(resourceId)}/row/${rowId}`;
/** What changed between two kept versions of a resource (`?from=&to=&change=`). */
export const changesPath = (resourceId: string): string => `${resourcePath(resourceId)}/changes`;
/** The SQL screen over a resource (the query itself travels as `?sql=`). */
export const sqlPath = (resourceId: string): string => `${resourcePath(resourceId)}/sql`;
/** The progress of a resource's import. */
export const importPath = (resourceId: string): string => `/import/${encodeURIComponent(resourceId)}`;
/** The import screen, to load a new file into an existing resource (same id). */
export const replaceHref = (resourceId: string): string => hrefFor('/import', new URLSearchParams({ replace: resourceId }));

/** Publishing a resource to a portal. */
export const publishPath = (resourceId: string): string => `/publish/${encodeURIComponent(resourceId)}`;

export function hrefFor(path: string, query?: URLSearchParams): string {
  const q = query?.toString();
  return `#${path}${q ? `?${q}` : ''}`;
}

export interface NavigateOptions {
  /** Rewrite the current entry instead of adding one. */
  readonly replace?: boolean;
  /** What kind of change this is: a new history entry… */
  readonly step?: string;
  /** …that replaces the current one when that is a step of the same kind on the same page (a search refined word by word). */
  readonly merge?: boolean;
}

interface StepState {
  readonly deskstoreStep?: string;
}

export function navigate(path: string, query?: URLSearchParams, options: NavigateOptions = {}): void {
  const target = hrefFor(path, query);
  if (target === window.location.hash) return;
  const url = `${window.location.pathname}${window.location.search}${target}`;
  if (options.replace) {
    window.history.replaceState(window.history.state, '', url);
    notify();
  } else if (options.step) {
    const previous = (window.history.state ?? {}) as StepState;
    const state: StepState = { deskstoreStep: options.step };
    if (options.merge && previous.deskstoreStep === options.step && current().path === path) window.history.replaceState(state, '', url);
    else window.history.pushState(state, '', url);
    notify();
  } else {
    window.location.hash = target;
  }
}
