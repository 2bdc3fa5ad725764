import { Menu, shell, type BrowserWindow, type MenuItemConstructorOptions } from 'electron';
import { LOCALES, LOCALE_NAMES, type Locale } from '../../shared/locales';

const LABELS: Record<Locale, { file: string; open: string; reveal: string; quit: string; language: string }> = {
  en: { file: 'File', open: 'Import file…', reveal: 'Show data folder', quit: 'Quit', language: 'Language' },
  it: { file: 'File', open: 'Importa file…', reveal: 'Mostra cartella dati', quit: 'Esci', language: 'Lingua' },
};

/** Native menus; the import item opens the UI's import screen, which asks for the file. */
export function installAppMenu(
  window: BrowserWindow,
  siteUrl: string,
  locale: Locale,
  dataDir: string,
  onLocale: (locale: Locale) => void,
): void {
  const l = LABELS[locale];
  const template: MenuItemConstructorOptions[] = [
    {
      label: l.file,
      submenu: [
        { label: l.open, accelerator: 'CmdOrCtrl+O', click: () => void window.loadURL(`${siteUrl}/${locale}/#/import`) },
        { label: l.reveal, click: () => void shell.openPath(dataDir) },
        { type: 'separator' },
        { role: 'quit', label: l.quit },
      ],
    },
    { role: 'editMenu' },
    {
      label: l.language,
      submenu: LOCALES.map((code) => ({
        label: LOCALE_NAMES[code],
        type: 'radio' as const,
        checked: code === locale,
        click: () => onLocale(code),
      })),
    },
    { role: 'viewMenu' },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
