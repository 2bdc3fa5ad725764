// npm start: the desktop app. Builds first if needed; opens the Electron window where the
// Electron binary is installed, and otherwise says so in one line and serves the same UI
// headless, printing its URL (with the API token in the fragment, which never reaches a server).
// `npm start -- --port N --data DIR` chooses the port and the data folder either way (the
// window takes them as DESKSTORE_PORT / DESKSTORE_DATA); headless, every `deskstore serve`
// option applies (docs/cli.md).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
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
const args = process.argv.slice(2).filter((a) => a !== '--build');
if (electron.path) {
  const { env, others } = windowEnvironment(args);
  if (others.length) console.log(`The desktop app takes --port and --data only; ignored: ${others.join(' ')}`);
  const child = spawn(electron.path, [join(root, 'out/main/index.js')], { stdio: 'inherit', env: { ...process.env, ...env } });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  // `serve` picks the data directory (--data, else DESKSTORE_DATA, else the per-user default)
  // and says where the token file is; the browser URL is announced once both are known.
  console.log(`Electron is not available (${electron.reason}); serving the Deskstore UI headless instead.`);
  const child = spawn(process.execPath, [join(root, 'out/main/cli.js'), 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let url = null;
  let token = givenToken(args);
  const announce = () => {
    if (url === null || token === null) return;
    console.log(`Open ${url}/en/#token=${token} in a browser (Italian: /it/). Ctrl+C stops it.`);
    url = null;
  };
  child.stderr.on('data', (chunk) => {
    process.stderr.write(chunk);
    const m = /API token: (.+?) \(send/.exec(String(chunk));
    if (m) {
      token = readFileSync(m[1], 'utf8').trim();
      announce();
    }
  });
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    const m = /Deskstore listening on (\S+)/.exec(String(chunk));
    if (m) {
      url = m[1];
      announce();
    }
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
}

/** `--port N` and `--data DIR` (or `--port=N`) as the window's environment; anything else is not the window's. */
function windowEnvironment(args) {
  const env = {};
  const others = [];
  const names = { '--port': 'DESKSTORE_PORT', '--data': 'DESKSTORE_DATA' };
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i].split(/=(.*)/s);
    if (names[flag] === undefined) {
      others.push(args[i]);
      continue;
    }
    env[names[flag]] = inline ?? args[++i] ?? '';
  }
  return { env, others };
}

/** The token given on the command line (`--token T` or `--token=T`), if any. */
function givenToken(args) {
  const at = args.findIndex((a) => a === '--token' || a.startsWith('--token='));
  if (at < 0) return null;
  return args[at].startsWith('--token=') ? args[at].slice('--token='.length) : (args[at + 1] ?? null);
}
