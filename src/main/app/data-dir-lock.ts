import { accessSync, closeSync, constants, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from '../storage/data-paths';
import { tryLock, unlock } from 'fs-native-extensions';
import { consoleLogger, type Logger } from '../logger';

/**
 * Two processes never write one data directory at once. The guard is an operating-system lock
 * on `deskstore.lock` (Linux open-file-description locks, macOS flock, Windows LockFileEx,
 * through fs-native-extensions): the kernel gives it to one process at a time and takes it
 * back the moment that process ends, however it ends. Nothing is decided from a PID or a
 * file's content, so a reused PID cannot lock a user out and there is no stale lock to take
 * over. The lock file is never deleted (deleting it would let a second process lock a new file
 * while the first still holds the old one).
 *
 * `deskstore.lock.info` says who holds the lock (role, server URL, PID), for the message a
 * second process shows; it is only ever read for that message.
 */
export interface LockInfo {
  readonly pid: number;
  readonly role: 'server' | 'import' | 'mirror' | 'sync' | 'push' | 'rename';
  readonly url?: string;
  readonly since: string;
}

export class DataDirectoryBusyError extends Error {
  constructor(
    readonly holder: LockInfo | null,
    dataDir: string,
  ) {
    super(
      holder?.url
        ? `The data directory ${dataDir} is in use by the Deskstore server at ${holder.url} (pid ${holder.pid}). ` +
            'Stop it first, or work through it: deskstore import, mirror, sync, push and rename-columns do so by themselves.'
        : `The data directory ${dataDir} is in use by another Deskstore process` +
            `${holder ? ` (pid ${holder.pid}, ${holder.role}, since ${holder.since})` : ''}. Wait for it to finish or stop it first.`,
    );
  }
}

export interface DataDirectoryLock {
  /** Records the server URL once it listens, for the message a second process shows. */
  setUrl(url: string): void;
  release(): void;
}

export const LOCK_FILE = 'deskstore.lock';
const INFO_FILE = 'deskstore.lock.info';

function readHolder(path: string): LockInfo | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockInfo;
  } catch {
    return null; // not written yet, or left by a process that died: the message says less
  }
}

function isReadOnlyFileSystem(dataDir: string): boolean {
  try {
    accessSync(dataDir, constants.W_OK);
    closeSync(openSync(join(dataDir, '.deskstore-write-probe'), 'w', PRIVATE_FILE_MODE));
    rmSync(join(dataDir, '.deskstore-write-probe'), { force: true });
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EROFS';
  }
}

/**
 * On a read-only file system no process can write the directory, so there is nothing to
 * guard: the lock is skipped and the server serves reads (writes fail with a clear error).
 */
export function acquireDataDirectoryLock(dataDir: string, role: LockInfo['role'], logger: Logger = consoleLogger): DataDirectoryLock {
  if (isReadOnlyFileSystem(dataDir)) {
    logger.warn(`${dataDir} is on a read-only file system: serving reads only`);
    return { setUrl: () => {}, release: () => {} };
  }
  const infoPath = join(dataDir, INFO_FILE);
  const fd = openSync(join(dataDir, LOCK_FILE), 'a+', PRIVATE_FILE_MODE);
  let locked: boolean;
  try {
    locked = tryLock(fd);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  if (!locked) {
    closeSync(fd);
    throw new DataDirectoryBusyError(readHolder(infoPath), dataDir);
  }
  let info: LockInfo = { pid: process.pid, role, since: new Date().toISOString() };
  const writeInfo = () => {
    try {
      writeFileSync(infoPath, JSON.stringify(info), { mode: PRIVATE_FILE_MODE });
    } catch {
      // only a message for others depends on it
    }
  };
  writeInfo();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    // The info first, while the lock still keeps others from writing theirs.
    rmSync(infoPath, { force: true });
    try {
      unlock(fd);
    } finally {
      closeSync(fd);
    }
    process.off('exit', release);
  };
  process.on('exit', release);
  return {
    setUrl(url: string) {
      info = { ...info, url };
      writeInfo();
    },
    release,
  };
}
