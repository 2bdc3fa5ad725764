import { contextBridge, ipcRenderer } from 'electron';
import { BRIDGE_CHANNELS, type BridgeApi } from '../shared/bridge';

const api = {
  pickImportFile: () => ipcRenderer.invoke(BRIDGE_CHANNELS.pickImportFile),
  revealDataFolder: () => ipcRenderer.invoke(BRIDGE_CHANNELS.revealDataFolder),
} satisfies BridgeApi;

contextBridge.exposeInMainWorld('deskstore', api);
