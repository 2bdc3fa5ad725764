import { accessSync, closeSync, constants, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Two processes never write one data directory at once. The lock file says which process
 * holds it (and the server's URL), so a second `deskstore` can tell the user where to go
 * instead of corrupting the store. A lock whose process is gone is stale and taken over.
 */
export interface LockInfo {
  readonly pid: number;
  readonly role: 'server' | 'import' | 'mirror' | 'sync' | 'push';
  readonly url?: string;
  readonly since: string;
}

export class DataDirectoryBusyError extends Error {
  constructor(readonly holder: LockInfo, dataDir: string) {
    super(holder.url
      ? `The data directory ${dataDir} is in use by the Deskstore server at ${holder.url} (pid ${holder.pid}). `
        + 'Stop it first, or send your data to that server through its API (resource_create with an upload).'
      : `The data directory ${dataDir} is in use by another Deskstore process (pid ${holder.pid}, ${holder.role}, since ${holder.since}). `
        + 'Wait for it to finish or stop it first.');
  }
}

export interface DataDirectoryLock {
  /** Records the server URL once it listens, for the message a second process shows. */
  setUrl(url: string): void;
  release(): void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(path: string): LockInfo | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockInfo;
  } catch {
    return null; // half-written by a process that died while creating it: stale
  }
}

/**
 * On a read-only file system no process can write the directory, so there is nothing to
 * guard: the lock is skipped and the server serves reads (writes fail with a clear error).
 */
export function acquireDataDirectoryLock(dataDir: string, role: LockInfo['role']): DataDirectoryLock {
  const path = join(dataDir, 'deskstore.lock');
  try {
    accessSync(dataDir, constants.W_OK);
    closeSync(openSync(join(dataDir, '.deskstore-write-probe'), 'w'));
    rmSync(join(dataDir, '.deskstore-write-probe'), { force: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EROFS') {
      console.error(`deskstore: ${dataDir} is on a read-only file system: serving reads only`);
      return { setUrl: () => {}, release: () => {} };
    }
  }
  let info: LockInfo = { pid: process.pid, role, since: new Date().toISOString() };
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o644);
      writeSync(fd, JSON.stringify(info));
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 3) throw err;
      const holder = readHolder(path);
      if (holder && holder.pid !== process.pid && isAlive(holder.pid)) throw new DataDirectoryBusyError(holder, dataDir);
      rmSync(path, { force: true });
    }
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    if (readHolder(path)?.pid === process.pid) rmSync(path, { force: true });
    process.off('exit', release);
  };
  process.on('exit', release);
  return {
    setUrl(url: string) {
      info = { ...info, url };
      writeFileSync(path, JSON.stringify(info));
    },
    release,
  };
}
