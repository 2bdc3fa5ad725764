import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Drives the built CLI (`out/main/cli.js`) as other tools do: black-box processes talking
 * real HTTP on loopback, each test with its own data directory and an OS-chosen port.
 */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = join(ROOT, 'out/main/cli.js');
export { DATA } from './fixtures';

export function requireBuilt(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm test does)`);
}

export function tempDir(prefix = 'deskstore-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface ServerProcess {
  readonly url: string;
  readonly token: string;
  readonly dataDir: string;
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** SIGTERM and wait; resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startServer(
  opts: { dataDir?: string; args?: string[]; env?: NodeJS.ProcessEnv; sample?: boolean } = {},
): Promise<ServerProcess> {
  requireBuilt();
  const dataDir = opts.dataDir ?? tempDir();
  const child = spawn(
    process.execPath,
    [CLI, 'serve', '--data', dataDir, '--port', '0', ...(opts.sample ? [] : ['--no-sample']), ...(opts.args ?? [])],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...opts.env },
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const url = await new Promise<string>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 30 s: ${err}`)), 30_000);
    const check = () => {
      const m = /Deskstore listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolvePromise(m[1]!);
      }
    };
    child.stdout.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${err}`));
    });
  });
  const tokenFile = join(dataDir, 'api-token');
  const arg = (name: string) => (opts.args?.includes(name) ? opts.args[opts.args.indexOf(name) + 1]! : undefined);
  const chosenFile = arg('--token-file');
  const token =
    arg('--token') ??
    (chosenFile ? readFileSync(chosenFile, 'utf8').trim() : undefined) ??
    opts.env?.DESKSTORE_TOKEN ??
    readFileSync(tokenFile, 'utf8').trim();
  return {
    url,
    token,
    dataDir,
    child,
    stdout: () => out,
    stderr: () => err,
    stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
      return new Promise((res) => {
        child.once('exit', (code) => res(code));
        child.kill(signal);
      });
    },
  };
}

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCli(args: string[], env?: NodeJS.ProcessEnv): CliResult {
  requireBuilt();
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** runCli without blocking this process's event loop (for servers the test itself runs). */
export function runCliAsync(args: string[], env?: NodeJS.ProcessEnv): Promise<CliResult> {
  requireBuilt();
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('close', (status) => resolvePromise({ status, stdout, stderr }));
  });
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** The last line of stdout parsed as JSON (the import command's summary). */
export function lastJsonLine<T>(stdout: string): T {
  const lines = stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]!) as T;
}
