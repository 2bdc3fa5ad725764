import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireDataDirectoryLock, DataDirectoryBusyError } from '../../src/main/app/data-dir-lock';
import { CLI, removeDir, requireBuilt, startServer, tempDir } from '../helpers/deskstore-process';

/**
 * Issue 8: the data-folder lock trusted a PID. It is now an OS file lock: held exactly as long
 * as the process lives, whatever PID a lock file names, with no stale lock to take over.
 */
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));
const fresh = () => {
  const dir = tempDir('deskstore-lock-');
  dirs.push(dir);
  return dir;
};
const quiet = { warn: () => {}, error: () => {} };

describe('data directory lock', () => {
  it('is not fooled by a lock file naming a live process (a PID reused after a reboot)', async () => {
    const dataDir = fresh();
    // What the old lock file held, naming a process that is alive but is not a Deskstore.
    writeFileSync(join(dataDir, 'deskstore.lock'), JSON.stringify({ pid: process.pid, role: 'server', since: '2020-01-01T00:00:00Z' }));
    const server = await startServer({ dataDir });
    expect((await fetch(`${server.url}/api/3`)).status).toBe(200);
    await server.stop();
  });

  it('is released by the operating system when the holder is killed', async () => {
    const dataDir = fresh();
    const first = await startServer({ dataDir });
    await first.stop('SIGKILL');
    const second = await startServer({ dataDir });
    expect((await fetch(`${second.url}/api/3`)).status).toBe(200);
    await second.stop();
  });

  it('lets exactly one of several processes starting at once have the directory', async () => {
    requireBuilt();
    for (let round = 0; round < 3; round++) {
      const dataDir = fresh();
      // A holder that died, as after a crash: its info file is still there.
      writeFileSync(join(dataDir, 'deskstore.lock.info'), JSON.stringify({ pid: 999_999, role: 'server', since: 'x' }));
      const children = Array.from({ length: 4 }, () =>
        spawn(process.execPath, [CLI, 'serve', '--data', dataDir, '--port', '0', '--no-sample'], { stdio: ['ignore', 'pipe', 'pipe'] }),
      );
      const outcomes = await Promise.all(
        children.map(
          (child) =>
            new Promise<'listening' | 'refused' | string>((resolve) => {
              let out = '';
              let err = '';
              child.stdout.on('data', (d: Buffer) => {
                out += d.toString();
                if (out.includes('Deskstore listening on')) resolve('listening');
              });
              child.stderr.on('data', (d: Buffer) => {
                err += d.toString();
              });
              child.on('exit', () => resolve(/is in use by/.test(err) ? 'refused' : `exited: ${err}`));
            }),
        ),
      );
      for (const child of children) child.kill('SIGTERM');
      await Promise.all(
        children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))),
      );
      expect(
        outcomes.filter((o) => o === 'listening'),
        outcomes.join(' | '),
      ).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'refused')).toHaveLength(3);
    }
  }, 120_000);

  it('refuses a second holder in the same process until the first releases it', () => {
    const dataDir = fresh();
    const lock = acquireDataDirectoryLock(dataDir, 'server', quiet);
    lock.setUrl('http://127.0.0.1:1234');
    let busy: unknown = null;
    try {
      acquireDataDirectoryLock(dataDir, 'import', quiet);
    } catch (err) {
      busy = err;
    }
    expect(busy).toBeInstanceOf(DataDirectoryBusyError);
    expect((busy as Error).message).toContain('http://127.0.0.1:1234');
    lock.release();
    acquireDataDirectoryLock(dataDir, 'import', quiet).release();
  });
});
