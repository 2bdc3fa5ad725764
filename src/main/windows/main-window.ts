import { BrowserWindow } from 'electron';
import { localeFromPath, type Locale } from '../../shared/locales';
import { lockNavigation, secureWebPreferences } from '../security';

/** The locale segment of a UI URL (`http://127.0.0.1:1234/it/#/import` → `it`). */
export function localeOfUrl(url: string): Locale | null {
  try {
    return localeFromPath(new URL(url).pathname);
  } catch {
    return null;
  }
}

/**
 * The one application window, on the UI served by Deskstore's own server. `startUrl` carries
 * the API token in its fragment (`/en/#token=...`), which the page stores and removes.
 * `onLocale` hears the UI's own language switch (it rewrites the URL's locale segment).
 */
export function createMainWindow(siteUrl: string, startUrl: string, preload: string, onLocale: (locale: Locale) => void): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Deskstore',
    webPreferences: secureWebPreferences(preload),
  });
  lockNavigation(window, new URL(siteUrl).origin);
  const follow = (_event: unknown, url: string) => {
    const locale = localeOfUrl(url);
    if (locale) onLocale(locale);
  };
  window.webContents.on('did-navigate', follow);
  window.webContents.on('did-navigate-in-page', follow);
  window.once('ready-to-show', () => window.show());
  void window.loadURL(startUrl);
  return window;
}
