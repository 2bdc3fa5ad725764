/**
 * One headless Deskstore per test: `node out/main/cli.js serve --data <fresh dir> --port 0
 * --no-sample`, its URL read from the one line it prints on stdout, its token from the data
 * directory. Stopped with SIGTERM (it closes cleanly), then the directory is removed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');
/** The vendored real-data files, unpacked (test/fixtures/data). */
export { DATA } from '../helpers/fixtures';
const CLI = join(ROOT, 'out', 'main', 'cli.js');

export interface DeskstoreServer {
  readonly url: string;
  readonly token: string;
  readonly dataDir: string;
  readonly log: () => string;
  stop(): Promise<void>;
}

export async function startServer(options: { sample?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<DeskstoreServer> {
  if (!existsSync(CLI) || !existsSync(join(ROOT, 'out', 'renderer', 'index.html'))) {
    throw new Error('Deskstore is not built: run `npm run build` (or `npx electron-vite build`) before the e2e tests');
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'deskstore-e2e-'));
  const args = [CLI, 'serve', '--data', dataDir, '--port', '0', ...(options.sample ? [] : ['--no-sample'])];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
  });
  let stderr = '';
  let stdout = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const url = await new Promise<string>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`deskstore serve did not start in 60 s:\n${stderr}`)), 60_000);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /Deskstore listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolvePromise(match[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`deskstore serve exited with ${code}:\n${stderr}`));
    });
  });
  const token = (await readFile(join(dataDir, 'api-token'), 'utf8')).trim();
  return {
    url,
    token,
    dataDir,
    log: () => stderr,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise<void>((done) => child.once('exit', () => done()));
        child.kill('SIGTERM');
        const timeout = new Promise<void>((done) => setTimeout(done, 10_000));
        await Promise.race([exited, timeout]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
