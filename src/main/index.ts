import { fileURLToPath } from 'node:url';
import { app, type BrowserWindow } from 'electron';
import { version } from '../../package.json';
import { startDeskstore, type RunningDeskstore } from './app/deskstore-app';
import { ensureSampleResource } from './app/sample-resource';
import { setupBridgeHandlers } from './ipc/bridge-handlers';
import { installAppMenu } from './windows/app-menu';
import { createMainWindow } from './windows/main-window';
import { isLocale, type Locale } from '../shared/locales';

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
  const dataDir = app.getPath('userData');
  let locale: Locale = isLocale(app.getLocale().slice(0, 2)) ? (app.getLocale().slice(0, 2) as Locale) : 'en';

  app.on('second-instance', () => {
    if (window?.isMinimized()) window.restore();
    window?.focus();
  });

  app.whenReady().then(async () => {
    deskstore = await startDeskstore({
      dataDir,
      port: 0,
      staticDir: fileURLToPath(here('../renderer/')),
      workers: { engine: here('./engine-worker.js'), importer: here('./import-worker.js') },
      version,
    });
    await ensureSampleResource(deskstore.engine.api, dataDir,
      fileURLToPath(here('../../resources/sample/comuni-italiani-nord-est.csv')), here('./import-worker.js'));
    setupBridgeHandlers(dataDir);
    const siteUrl = deskstore.url;
    window = createMainWindow(siteUrl, locale, fileURLToPath(here('../preload/index.cjs')));
    const setLocale = (next: Locale) => {
      locale = next;
      void window?.loadURL(`${siteUrl}/${next}/`);
      installAppMenu(window!, siteUrl, locale, dataDir, setLocale);
    };
    installAppMenu(window, siteUrl, locale, dataDir, setLocale);
  }).catch((err: unknown) => {
    console.error(err);
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
