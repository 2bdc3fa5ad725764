import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { DATA, ROOT, startServer, type DeskstoreServer } from './server';

export { DATA };
export const ISTAT = join(DATA, 'istat-elenco-comuni-italiani.csv');
export const SCREENSHOTS = join(ROOT, 'test-results', 'screenshots');

interface Options {
  /** Start the server without --no-sample (first start imports the embedded sample). */
  sample: boolean;
}

interface Fixtures {
  /** A server of its own, on a fresh data directory (without the sample unless `sample`). */
  deskstore: DeskstoreServer;
  /** Opens the UI with the token in the fragment, as `npm start` and Electron do. */
  openUi: (path?: string) => Promise<void>;
  /** Saves a full-window screenshot as test-results/screenshots/<name>.png. */
  shot: (name: string) => Promise<void>;
  /** Fails the test on page errors and console errors (CSP violations above all). */
  consoleGuard: void;
}

export const test = base.extend<Options & Fixtures>({
  sample: [false, { option: true }],
  deskstore: async ({ sample }, use) => {
    const server = await startServer({ sample });
    try {
      await use(server);
    } finally {
      await server.stop();
    }
  },
  openUi: async ({ page, deskstore }, use) => {
    await use(async (path = '/en/') => {
      await page.goto(`${deskstore.url}${path}#token=${encodeURIComponent(deskstore.token)}`);
      await expect(page.getByTestId('mode-badge')).toBeVisible();
    });
  },
  consoleGuard: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        // 4xx/5xx answers are logged by Chromium as "Failed to load resource"; some tests cause them on purpose
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(message.text());
      });
      await use();
      expect(problems, 'console errors').toEqual([]);
    },
    { auto: true },
  ],
  shot: async ({ page }, use) => {
    await mkdir(SCREENSHOTS, { recursive: true });
    await use(async (name: string) => {
      await page.evaluate('document.fonts.ready');
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
    });
  },
});

export { expect };

/** Imports the ISTAT file through the UI (drop zone input), leaving the preview on screen. */
export async function previewIstat(page: Page): Promise<void> {
  await page.getByRole('link', { name: /^(Import|Importa)$/ }).click();
  await page.getByTestId('file-input').setInputFiles(ISTAT);
  await expect(page.getByTestId('preview-table')).toBeVisible();
}

/** The text of the visible grid cells of one column, top to bottom. */
export async function columnTexts(page: Page, field: string, count: number): Promise<string[]> {
  const cells = page.locator(`[data-testid="grid-row"] [data-field="${field}"]`);
  await expect(cells.first()).not.toHaveClass(/loading/);
  const texts = await cells.allInnerTexts();
  return texts.slice(0, count);
}
