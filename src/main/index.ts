import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, dialog, type BrowserWindow } from 'electron';
import { version } from '../../package.json';
import { startDeskstore, type RunningDeskstore } from './app/deskstore-app';
import { fileLogger } from './app/file-logger';
import { ensureSampleResource } from './app/sample-resource';
import { PortInUseError } from './server/http-server';
import { setupBridgeHandlers } from './ipc/bridge-handlers';
import { installAppMenu } from './windows/app-menu';
import { createMainWindow, localeOfUrl } from './windows/main-window';
import { DEFAULT_LOCALE, browserLocale, isLocale, type Locale } from '../shared/locales';

/**
 * Electron composition root, kept thin: paths → the same server `deskstore serve` runs →
 * one window on its URL. Every behaviour lives in code that also runs under plain Node.
 */
const here = (relative: string): URL => new URL(relative, import.meta.url);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let window: BrowserWindow | null = null;
  let deskstore: RunningDeskstore | null = null;
  // DESKSTORE_DATA as for `deskstore serve` (tests give each run its own folder); DESKSTORE_PORT
  // for scripts that want a fixed address (`npm start -- --port N` sets both): any free port otherwise.
  const dataDir = process.env.DESKSTORE_DATA ?? app.getPath('userData');
  const port = portFromEnvironment(process.env.DESKSTORE_PORT);
  // The UI language chosen last time: the page's own memory (localStorage) is per origin,
  // and the port changes on every start, so the shell remembers it for the page.
  const localeFile = join(app.getPath('userData'), 'ui-locale');
  const savedLocale = (() => {
    try {
      const saved = readFileSync(localeFile, 'utf8').trim();
      return isLocale(saved) ? saved : null;
    } catch {
      return null;
    }
  })();
  let locale: Locale = savedLocale ?? browserLocale([app.getLocale()]) ?? DEFAULT_LOCALE;

  app.on('second-instance', () => {
    if (window?.isMinimized()) window.restore();
    window?.focus();
  });

  app
    .whenReady()
    .then(async () => {
      deskstore = await startDeskstore({
        dataDir,
        port,
        staticDir: fileURLToPath(here('../renderer/')),
        workers: { engine: here('./engine-worker.js'), importer: here('./import-worker.js') },
        version,
        logger: fileLogger(dataDir),
      });
      await ensureSampleResource(
        deskstore.engine.api,
        dataDir,
        fileURLToPath(here('../../resources/sample/comuni-italiani-nord-est.csv')),
        here('./import-worker.js'),
      );
      const siteUrl = deskstore.url;
      setupBridgeHandlers(dataDir, new URL(siteUrl).origin, deskstore.localFiles);
      const remember = (next: Locale) => {
        if (next === locale) return;
        locale = next;
        try {
          writeFileSync(localeFile, `${next}\n`);
        } catch {
          // not remembered: the next start uses the system language
        }
        if (window) installAppMenu(window, siteUrl, locale, dataDir, setLocale);
      };
      // The menu's language switch: the same page in the other locale, keeping its route.
      const setLocale = (next: Locale) => {
        const current = window?.webContents.getURL() ?? '';
        const hash = localeOfUrl(current) ? new URL(current).hash : '';
        remember(next);
        void window?.loadURL(`${siteUrl}/${next}/${hash}`);
      };
      window = createMainWindow(
        siteUrl,
        `${siteUrl}/${locale}/#token=${encodeURIComponent(deskstore.token)}`,
        fileURLToPath(here('../preload/index.cjs')),
        remember,
      );
      installAppMenu(window, siteUrl, locale, dataDir, setLocale);
    })
    .catch((err: unknown) => {
      // A taken port is the user's to change: said in a sentence, in the terminal and a dialog.
      if (err instanceof PortInUseError) {
        const text = `Deskstore: ${err.message}. Choose another port with npm start -- --port N (or DESKSTORE_PORT=N), or leave it out for any free port.`;
        console.error(text);
        dialog.showErrorBox('Deskstore', text);
      } else {
        console.error(err);
      }
      app.exit(1);
    });

  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', (event) => {
    if (!deskstore) return;
    event.preventDefault();
    const closing = deskstore;
    deskstore = null;
    void closing.close().finally(() => app.exit(0));
  });
}

/** DESKSTORE_PORT: a whole number from 0 to 65535 (0, or none, picks any free port). */
function portFromEnvironment(value: string | undefined): number {
  if (value === undefined || value === '') return 0;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) {
    console.error(`Deskstore: DESKSTORE_PORT must be a port number (0-65535), got ${JSON.stringify(value)}; using any free port`);
    return 0;
  }
  return port;
}

