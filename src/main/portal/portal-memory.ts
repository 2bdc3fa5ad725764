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

export function portalToken(dataDir: string, portal: string): string | undefined {
  return readJson<Record<string, string>>(join(dataDir, TOKENS_FILE), {})[portal];
}

export function savePortalToken(dataDir: string, portal: string, token: string): void {
  const path = join(dataDir, TOKENS_FILE);
  writePrivate(path, { ...readJson<Record<string, string>>(path, {}), [portal]: token });
}

export function rememberedPortals(dataDir: string): RememberedPortal[] {
  const tokens = readJson<Record<string, string>>(join(dataDir, TOKENS_FILE), {});
  return readJson<Omit<RememberedPortal, 'hasToken'>[]>(join(dataDir, PORTALS_FILE), [])
    .filter((p) => typeof p.url === 'string')
    .map((p) => ({ ...p, hasToken: p.url in tokens }))
    .sort((a, b) => b.lastUsed.localeCompare(a.lastUsed));
}

export function rememberPortal(dataDir: string, url: string, title: string): void {
  const path = join(dataDir, PORTALS_FILE);
  const others = readJson<Omit<RememberedPortal, 'hasToken'>[]>(path, []).filter((p) => p.url !== url);
  writePrivate(path, [{ url, title, lastUsed: new Date().toISOString() }, ...others].slice(0, 50));
}
