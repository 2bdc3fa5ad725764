import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests of the UI served by the headless server (`node out/main/cli.js serve`),
 * in Debian's Chromium. Nothing is built here: run `npm run build` (or `npx electron-vite
 * build`) first. Each test starts its own server on a fresh data directory (test/e2e/fixtures.ts).
 */
const CHROMIUM = process.env.DESKSTORE_CHROMIUM ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/playwright',
  timeout: 180_000,
  expect: { timeout: 30_000 },
  workers: 2,
  fullyParallel: true,
  retries: 0,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    viewport: { width: 1440, height: 900 },
    locale: 'en-US',
    timezoneId: 'Europe/Rome',
    actionTimeout: 30_000,
    navigationTimeout: 60_000,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});
