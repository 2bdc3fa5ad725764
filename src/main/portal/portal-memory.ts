import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RememberedPortal } from '../../shared/portal';

/**
 * What a data directory remembers of portals: the ones used before (for the UI's list) and,
 * separately, their tokens, kept like the local token (`portal-tokens.json`, mode 0600, never
 * printed, never sent to the UI). docs/portal.md §Tokens.
 */
const PORTALS_FILE = 'portals.json';
const TOKENS_FILE = 'portal-tokens.json';

function readJson<T>(path: string, fallback: T): T {
  if (!existsSync(path)) return fallback;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return fallback; // a damaged memory is forgotten, never fatal
  }
}

function writePrivate(path: string, value: unknown): void {
  writeFileSync(path, `${JSON.stringify(value, null, 1)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}

/**
 * The token remembered for a portal's API base (`https://host/opendata`): two portals on one
 * host are two portals, and one's token is never the other's (issue 21). A token remembered
 * by origin before then still serves the one portal remembered under that origin.
 */
export function portalToken(dataDir: string, base: string): string | undefined {
  const tokens = readJson<Record<string, string>>(join(dataDir, TOKENS_FILE), {});
  if (tokens[base] !== undefined) return tokens[base];
  const origin = new URL(base).origin;
  if (tokens[origin] === undefined) return undefined;
  const sameHost = readJson<{ url?: unknown }[]>(join(dataDir, PORTALS_FILE), []).filter(
    (p) => typeof p.url === 'string' && new URL(p.url).origin === origin,
  );
  return base === origin || (sameHost.length === 1 && sameHost[0]!.url === base) ? tokens[origin] : undefined;
}

export function savePortalToken(dataDir: string, base: string, token: string): void {
  const path = join(dataDir, TOKENS_FILE);
  writePrivate(path, { ...readJson<Record<string, string>>(path, {}), [base]: token });
}

export function rememberedPortals(dataDir: string): RememberedPortal[] {
  return readJson<Omit<RememberedPortal, 'hasToken'>[]>(join(dataDir, PORTALS_FILE), [])
    .filter((p) => typeof p.url === 'string')
    .map((p) => ({ ...p, hasToken: portalToken(dataDir, p.url) !== undefined }))
    .sort((a, b) => b.lastUsed.localeCompare(a.lastUsed));
}

export function rememberPortal(dataDir: string, url: string, title: string): void {
  const path = join(dataDir, PORTALS_FILE);
  const others = readJson<Omit<RememberedPortal, 'hasToken'>[]>(path, []).filter((p) => p.url !== url);
  writePrivate(path, [{ url, title, lastUsed: new Date().toISOString() }, ...others].slice(0, 50));
}
