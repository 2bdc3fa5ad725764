/**
 * The only door to native extras: the Electron preload's `window.deskstore`. In a plain
 * browser it is absent and every caller falls back to web behaviour (a file input, no
 * "show data folder").
 */
import type { BridgeApi, PickedFile } from '../../shared/bridge';

function bridge(): BridgeApi | null {
  return typeof window !== 'undefined' && window.deskstore ? window.deskstore : null;
}

export function hasNativeBridge(): boolean {
  return bridge() !== null;
}

/** The native "Open file" dialog; null when cancelled or when there is no bridge. */
export async function pickImportFile(): Promise<PickedFile | null> {
  const native = bridge();
  return native ? native.pickImportFile() : null;
}

export async function revealDataFolder(): Promise<boolean> {
  const native = bridge();
  if (!native) return false;
  await native.revealDataFolder();
  return true;
}
