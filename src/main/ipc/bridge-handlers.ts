import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { BrowserWindow, dialog, ipcMain, shell } from 'electron';
import { IMPORT_EXTENSIONS } from '../../shared/import-files';
import { BRIDGE_CHANNELS, type PickedFile } from '../../shared/bridge';

/** Registers the handlers behind the preload's BridgeApi. */
export function setupBridgeHandlers(dataDir: string): void {
  ipcMain.handle(BRIDGE_CHANNELS.pickImportFile, async (event): Promise<PickedFile | null> => {
    const window = BrowserWindow.fromWebContents(event.sender);
    const options = { properties: ['openFile' as const], filters: [{ name: 'Data files', extensions: IMPORT_EXTENSIONS.map((e) => e.slice(1)) }, { name: 'All files', extensions: ['*'] }] };
    const picked = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
    const path = picked.canceled ? undefined : picked.filePaths[0];
    return path ? { path, name: basename(path), size: statSync(path).size } : null;
  });
  ipcMain.handle(BRIDGE_CHANNELS.revealDataFolder, async () => {
    await shell.openPath(dataDir);
  });
}
