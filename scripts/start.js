// npm start: the desktop app. Builds first if needed; opens the Electron window where the
// Electron binary is installed, and otherwise says so in one line and serves the same UI
// headless, printing its URL (with the API token in the fragment, which never reaches a server).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronBinary } from './electron-binary.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = ['out/main/index.js', 'out/main/cli.js', 'out/renderer/index.html'].every((f) => existsSync(join(root, f)));
if (!built || process.argv.includes('--build')) {
  const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const electron = electronBinary(root);
if (electron.path) {
  const child = spawn(electron.path, [join(root, 'out/main/index.js')], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  const dataDir = process.env.DESKSTORE_DATA ?? join(process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'deskstore');
  console.log(`Electron is not available (${electron.reason}); serving the Deskstore UI headless instead.`);
  const child = spawn(process.execPath, [join(root, 'out/main/cli.js'), 'serve', '--data', dataDir, ...process.argv.slice(2).filter((a) => a !== '--build')],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    const m = /Deskstore listening on (\S+)/.exec(String(chunk));
    if (m) {
      const token = readFileSync(join(dataDir, 'api-token'), 'utf8').trim();
      console.log(`Open ${m[1]}/en/#token=${token} in a browser (Italian: /it/). Ctrl+C stops it.`);
    }
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
}
