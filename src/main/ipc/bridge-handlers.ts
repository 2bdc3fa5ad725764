import { basename } from 'node:path';
import { BrowserWindow, dialog, ipcMain, shell, type IpcMainInvokeEvent } from 'electron';
import { IMPORT_EXTENSIONS } from '../../shared/import-formats';
import { BRIDGE_CHANNELS, type PickedFile } from '../../shared/bridge';
import type { LocalFiles } from '../jobs/local-files';
import { isTrustedSender } from './trusted-sender';

/** The app's own page in the window's top frame, or an error for anyone else. */
function checkSender(event: IpcMainInvokeEvent, appOrigin: string): void {
  const frame = event.senderFrame;
  const trusted = isTrustedSender(frame ? { url: frame.url, isMainFrame: frame === event.sender.mainFrame } : null, appOrigin);
  if (!trusted) throw new Error(`refused IPC from ${frame?.url ?? 'a closed frame'}`);
}

/**
 * Registers the handlers behind the preload's BridgeApi. The picked file reaches the page as a
 * one-time handle (jobs/local-files.ts), never as a path.
 */
export function setupBridgeHandlers(dataDir: string, appOrigin: string, localFiles: LocalFiles): void {
  ipcMain.handle(BRIDGE_CHANNELS.pickImportFile, async (event): Promise<PickedFile | null> => {
    checkSender(event, appOrigin);
    const window = BrowserWindow.fromWebContents(event.sender);
    const options = {
      properties: ['openFile' as const],
      filters: [
        { name: 'Data files', extensions: IMPORT_EXTENSIONS.map((e) => e.slice(1)) },
        { name: 'All files', extensions: ['*'] },
      ],
    };
    const picked = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
    const path = picked.canceled ? undefined : picked.filePaths[0];
    if (!path) return null;
    const granted = localFiles.grant(path);
    return { handle: granted.handle, name: granted.name || basename(path), size: granted.size };
  });
  ipcMain.handle(BRIDGE_CHANNELS.revealDataFolder, async (event) => {
    checkSender(event, appOrigin);
    await shell.openPath(dataDir);
  });
}
