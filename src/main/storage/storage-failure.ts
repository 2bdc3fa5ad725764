import { accessSync, constants } from 'node:fs';
import { StorageError } from '../errors';

/**
 * Why `dir` cannot be written, as the fs error that says so (EROFS, EACCES), or null. A
 * recursive mkdir on a read-only mount reports ENOENT; asking the parent gives the real reason.
 */
export function whyNotWritable(dir: string): unknown {
  try {
    accessSync(dir, constants.W_OK);
    return null;
  } catch (err) {
    return err;
  }
}

/** Turns an fs error into a message a user can act on (disk full, permissions). */
export function storageFailure(what: string, err: unknown): StorageError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const why =
    code === 'ENOSPC'
      ? 'the disk is full'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EROFS'
          ? 'the file system is read-only'
          : code === 'EDQUOT'
            ? 'the disk quota is exceeded'
            : ((err as Error | undefined)?.message ?? String(err));
  return new StorageError(`${what}: ${why}`);
}
