import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { portalToken, rememberPortal, rememberedPortals, savePortalToken } from '../../../src/main/portal/portal-memory';

/** Issue 21: a portal token is remembered per portal (API base URL), not per host. */
const dirs: string[] = [];
const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'deskstore-portal-memory-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('portal tokens', () => {
  it('are kept per API base: two portals on one host do not share one', () => {
    const dir = dataDir();
    savePortalToken(dir, 'https://dati.example.it/opendata', 'token-a');
    expect(portalToken(dir, 'https://dati.example.it/opendata')).toBe('token-a');
    expect(portalToken(dir, 'https://dati.example.it/altro')).toBeUndefined();
    expect(portalToken(dir, 'https://dati.example.it')).toBeUndefined();
    rememberPortal(dir, 'https://dati.example.it/opendata', 'Dati');
    rememberPortal(dir, 'https://dati.example.it/altro', 'Altro');
    expect(rememberedPortals(dir).map((p) => [p.url, p.hasToken])).toEqual([
      ['https://dati.example.it/altro', false],
      ['https://dati.example.it/opendata', true],
    ]);
  });

  it('keep serving a token remembered by host before, for the one portal remembered on that host only', () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'portal-tokens.json'), JSON.stringify({ 'https://dati.example.it': 'old' }));
    rememberPortal(dir, 'https://dati.example.it/opendata', 'Dati');
    expect(portalToken(dir, 'https://dati.example.it/opendata')).toBe('old');
    rememberPortal(dir, 'https://dati.example.it/altro', 'Altro');
    expect(portalToken(dir, 'https://dati.example.it/opendata')).toBeUndefined();
    expect(portalToken(dir, 'https://dati.example.it')).toBe('old');
  });
});
