// npm run dev: electron-vite with hot module replacement where the Electron binary exists.
// Elsewhere (no Electron: CI machines, servers, this workplace) the same UI is developed in a
// browser: the headless server is built and started, and Vite serves the renderer (the same root
// and plugin as electron.vite.config.ts's renderer) with HMR, forwarding API paths to that server.
// Changes to src/main need a restart of this script; renderer changes appear at once.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { createServer } from 'vite';
import { electronBinary } from './electron-binary.js';

/** Paths the headless server answers; everything else is the UI. */
const API_PREFIXES = ['/api', '/en/api', '/it/api', '/datastore', '/dataset', '/en/dataset', '/it/dataset'];

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const args = process.argv.slice(2);

const electron = electronBinary(root);
if (electron.path) {
  const child = spawn(bin('electron-vite'), ['dev', ...args], { cwd: root, stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  console.log(`Electron is not available (${electron.reason}): headless server + renderer dev server with HMR.`);
  const build = spawnSync(bin('electron-vite'), ['build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  const server = spawn(process.execPath, [join(root, 'out/main/cli.js'), 'serve', '--port', '0', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let vite = null;
  const stop = async (code) => {
    await vite?.close();
    if (server.exitCode === null) server.kill('SIGTERM');
    process.exitCode = code;
  };
  server.on('exit', (code) => void stop(code ?? 0));
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void stop(0));
  server.stdout.on('data', async (chunk) => {
    process.stdout.write(chunk);
    const m = /Deskstore listening on (\S+)/.exec(String(chunk));
    if (!m) return;
    const proxy = Object.fromEntries(API_PREFIXES.map((prefix) => [prefix, { target: m[1], changeOrigin: true }]));
    vite = await createServer({
      configFile: false,
      root: join(root, 'src/renderer'),
      plugins: [react()],
      server: { host: '127.0.0.1', proxy },
    });
    await vite.listen();
    console.log(
      `UI with hot reload: ${vite.resolvedUrls.local[0]}en/ (Italian: /it/); add #token=… from the token file named above to write.`,
    );
  });
}
