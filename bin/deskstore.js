#!/usr/bin/env node
// The `deskstore` command (package.json "bin"): runs the built headless CLI.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = new URL('../out/main/cli.js', import.meta.url);
if (!existsSync(fileURLToPath(cli))) {
  console.error('deskstore: not built yet; run `npm run build` in the Deskstore folder first');
  process.exit(1);
}
await import(cli.href);
