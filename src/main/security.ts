import { shell, type BrowserWindow, type Session, type WebPreferences } from 'electron';

/** Architecture §5: the renderer is an ordinary web page with no Node and no Electron. */
export function secureWebPreferences(preload: string): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    spellcheck: false,
  };
}

/**
 * The window stays on Deskstore's own origin: other navigations are refused, and links to
 * http(s) pages open in the system browser instead of a new Electron window.
 */
export function lockNavigation(window: BrowserWindow, origin: string): void {
  const isExternalWeb = (url: string) => /^https?:\/\//i.test(url) && new URL(url).origin !== origin;
  window.webContents.on('will-navigate', (event, url) => {
    if (new URL(url).origin === origin) return;
    event.preventDefault();
    if (isExternalWeb(url)) void shell.openExternal(url);
  });
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (isExternalWeb(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  denyPermissions(window.webContents.session);
}

/**
 * The page needs no camera, microphone, notifications, geolocation, clipboard-read, HID, USB
 * or serial: every request is refused, and every check (which Chromium makes before asking, and
 * which a page can make itself, e.g. `navigator.permissions.query`) answers no.
 */
export function denyPermissions(session: Session): void {
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}
