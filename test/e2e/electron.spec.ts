/**
 * The Electron shell (Playwright's _electron): it starts the same server, opens the UI with
 * the token and exposes the preload bridge. Runs only where the Electron binary was
 * downloaded (node_modules/electron/path.txt and dist/) and a display exists; otherwise it
 * prints one line saying why and is skipped. `require('electron')` is never used to find the
 * binary: that would try to download it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron } from '@playwright/test';
import { ROOT } from './server';
import { expect, test } from './fixtures';

function electronBinary(): { path: string } | { reason: string } {
  const pathFile = join(ROOT, 'node_modules', 'electron', 'path.txt');
  if (!existsSync(pathFile)) return { reason: 'node_modules/electron/path.txt is missing (the Electron binary was not downloaded)' };
  const binary = join(ROOT, 'node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8').trim());
  if (!existsSync(binary)) return { reason: `${binary} does not exist (the Electron binary was not downloaded)` };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { reason: 'no display (DISPLAY is not set); run under xvfb-run to include these tests' };
  }
  return { path: binary };
}

test('Electron: the window shows the UI with the token and the native bridge', async () => {
  const found = electronBinary();
  if ('reason' in found) {
    console.log(`Electron tests skipped: ${found.reason}`);
    test.skip(true, found.reason);
    return;
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'deskstore-electron-'));
  const app = await electron.launch({
    executablePath: found.path,
    args: [ROOT, `--user-data-dir=${join(dataDir, 'user')}`, '--no-sandbox'],
    env: { ...process.env, DESKSTORE_DATA: join(dataDir, 'data') },
  });
  try {
    const window = await app.firstWindow();
    await expect(window.getByTestId('mode-badge')).toHaveText(/Changes allowed|Modifiche consentite/, { timeout: 60_000 });
    expect(window.url()).not.toContain('token=');
    expect(await window.evaluate('typeof window.deskstore.pickImportFile')).toBe('function');
    await expect(window.getByTestId('resource-row')).toHaveCount(1, { timeout: 60_000 });
    await window.getByTestId('language-it').click();
    await expect(window).toHaveURL(/\/it\//);
  } finally {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});
