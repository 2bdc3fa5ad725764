import { randomUUID } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { ValidationError } from '../errors';
import { isInside } from '../storage/data-paths';

/**
 * Which files on this machine the server may read for a load or a preview (docs/security.md,
 * "local files"). The token lets a client write data, not read the user's files, so a path
 * from a request is honoured only
 *  - through a one-time handle: the desktop app's native "Open file" dialog grants the file the
 *    user picked, and the page only ever sees the handle (never a path it could change); or
 *  - inside a folder the user configured (`deskstore serve --import-folder DIR`), checked on the
 *    real path, so a link inside that folder cannot lead out of it.
 * `deskstore import FILE` reads the path it is given: the user typed it.
 */
export interface LocalFile {
  readonly path: string;
  readonly name: string;
  readonly size: number;
}

export interface GrantedFile {
  /** What the page sends back as `deskstore_local_file`. */
  readonly handle: string;
  readonly name: string;
  readonly size: number;
}

/** Handles nobody used within a day are forgotten; they never survive a restart either. */
const HANDLE_LIFETIME_MS = 24 * 3600 * 1000;

export class LocalFiles {
  private readonly folders: readonly string[];
  private readonly grants = new Map<string, { file: LocalFile; expires: number }>();

  constructor(
    folders: readonly string[] = [],
    private readonly now: () => number = Date.now,
  ) {
    this.folders = folders.map((folder) => realpathSync(resolve(folder)));
  }

  /** The folders the user allowed, as real paths (for messages and --help). */
  get allowedFolders(): readonly string[] {
    return this.folders;
  }

  /** The native dialog picked `path`: a handle the page may use for it until it is loaded. */
  grant(path: string): GrantedFile {
    const file = describe(path);
    const handle = randomUUID();
    this.grants.set(handle, { file, expires: this.now() + HANDLE_LIFETIME_MS });
    return { handle, name: file.name, size: file.size };
  }

  /** The file a handle was granted for (previews may ask again and again). */
  granted(handle: string, param = 'deskstore_local_file'): LocalFile {
    const grant = this.grants.get(handle);
    if (!grant || grant.expires < this.now()) {
      this.grants.delete(handle);
      throw new ValidationError({ [param]: ['No such file handle: choose the file again'] });
    }
    return grant.file;
  }

  /** The load that needed the handle was accepted: it cannot be used again. */
  consume(handle: string): void {
    this.grants.delete(handle);
  }

  /** A path named in a request (`file://` URL, `deskstore_local_path`): only inside an allowed folder. */
  allowedPath(path: string, param: string): LocalFile {
    const absolute = resolve(path);
    let real: string;
    try {
      real = realpathSync(absolute);
    } catch {
      // A missing file is judged by its folder, so it is reported as missing, not as refused.
      try {
        real = join(realpathSync(dirname(absolute)), basename(absolute));
      } catch {
        real = absolute;
      }
    }
    if (!this.folders.some((folder) => isInside(folder, real))) {
      throw new ValidationError({
        [param]: [
          this.folders.length === 0
            ? 'Local files are not read from a path in a request: upload the file, pick it in the Deskstore window, or start the server with --import-folder DIR'
            : `Local files are only read from ${this.folders.join(', ')} (--import-folder); upload the file instead`,
        ],
      });
    }
    return describe(real);
  }
}

function describe(path: string): LocalFile {
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new Error('not a file');
    size = stat.size;
  } catch {
    throw new ValidationError({ upload: [`There is no file ${path}`] });
  }
  return { path, name: basename(path), size };
}
