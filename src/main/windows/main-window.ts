import { BrowserWindow } from 'electron';
import { lockNavigation, secureWebPreferences } from '../security';

/** The one application window, on the UI served by Deskstore's own server. */
export function createMainWindow(siteUrl: string, locale: string, preload: string): BrowserWindow {
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
  window.once('ready-to-show', () => window.show());
  void window.loadURL(`${siteUrl}/${locale}/`);
  return window;
}
