// Where the Electron binary is, without triggering its download: `require('electron')`
// downloads it on first use, which fails (or hangs) on machines without that network access.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export function electronBinary(root) {
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    const path = join(process.env.ELECTRON_OVERRIDE_DIST_PATH, 'electron');
    return existsSync(path) ? { path } : { path: null, reason: `ELECTRON_OVERRIDE_DIST_PATH has no electron binary (${path})` };
  }
  const dir = join(root, 'node_modules', 'electron');
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(dir)) return { path: null, reason: 'the electron package is not installed' };
  if (!existsSync(pathFile))
    return {
      path: null,
      reason: 'the Electron binary was never downloaded (run `npx install-electron` where its download host is reachable)',
    };
  const path = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(path) ? { path } : { path: null, reason: `the Electron binary is missing (${path})` };
}
