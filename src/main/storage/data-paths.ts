/**
 * The one place where a string from outside (a resource id from a client or a remote portal, an
 * uploaded file's name, a folder name found on disk) becomes a path in the data folder
 * (docs/security.md, "ids that become paths"). Two checks, both always:
 *
 * 1. the id obeys CKAN's rule for resource ids, the one CKAN adopted after its advisory on
 *    crafted ids (CVE-2023-32321, `resource_id_validator`): only `0-9 a-z A-Z`, space, `_` and
 *    `-`, 7 to 100 characters, so it can never be `..`, contain a separator or a drive letter;
 * 2. the resolved path, symbolic links included, stays under the data folder.
 *
 * Nothing else in the code joins an outside string into a path.
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { StorageError, ValidationError } from '../errors';

/**
 * Everything in a data folder is private to its user (docs/security.md, "the data folder"):
 * tables can hold personal data and the folder holds the API token.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates the data folder (and missing parents) private, and makes an existing one private. */
export function ensurePrivateDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  try {
    chmodSync(dataDir, PRIVATE_DIR_MODE);
  } catch {
    // a read-only mount, or a folder owned by someone else: nothing to tighten from here
  }
}

const RESOURCE_ID_FORBIDDEN = /[^0-9a-zA-Z _-]/;
export const RESOURCE_ID_MIN_LENGTH = 7;
export const RESOURCE_ID_MAX_LENGTH = 100;
/** The rule in words, for command-line messages. */
export const RESOURCE_ID_RULE = `${RESOURCE_ID_MIN_LENGTH}–${RESOURCE_ID_MAX_LENGTH} characters among 0-9 a-z A-Z space _ -`;

/**
 * Names Windows keeps for devices: it drops trailing spaces and dots from a folder's name, so
 * `con       ` (long enough for CKAN's rule) would be the console there, not a folder.
 */
const WINDOWS_DEVICE_NAME = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])[ .]*$/i;

/** CKAN 2.10's words for a bad resource id, or null when the id is acceptable. */
export function resourceIdProblem(id: string): string | null {
  if (RESOURCE_ID_FORBIDDEN.test(id)) return 'Invalid characters in resource id';
  if (id.length < RESOURCE_ID_MIN_LENGTH || id.length > RESOURCE_ID_MAX_LENGTH) return 'Invalid length for resource id';
  if (WINDOWS_DEVICE_NAME.test(id)) return 'Invalid resource id: Windows reserves this name for a device';
  return null;
}

/**
 * A client-supplied resource id, checked; CKAN's `{"id": [message]}` otherwise. Numbers are
 * taken as their text (CKAN itself answers them with a 500); other non-strings are refused.
 */
export function checkResourceId(value: unknown): string {
  const id = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  const problem = typeof id === 'string' ? resourceIdProblem(id) : 'Invalid characters in resource id';
  if (problem) throw new ValidationError({ id: [problem] });
  return id as string;
}

/**
 * Two ids that would name the same folder on a case-insensitive disk (macOS, Windows), which
 * also drops trailing spaces (Windows): such ids must not both exist.
 */
export function resourceFolderKey(id: string): string {
  return id.toLowerCase().replace(/ +$/, '');
}

/** A path that would leave the data folder: a bug or a planted symbolic link, never user input. */
export class PathOutsideDataFolderError extends StorageError {
  constructor(path: string, folder: string) {
    super(`Refusing to use ${path}: it is outside ${folder}`);
  }
}

/**
 * `folder/segment/...`, after checking that each segment is one plain name and that the result,
 * with every symbolic link along the existing part resolved, is inside `folder` (the data
 * folder, or one of its own folders such as `jobs`).
 */
export function pathInside(folder: string, ...segments: string[]): string {
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..' || /[/\\\0]/.test(segment)) {
      throw new PathOutsideDataFolderError(JSON.stringify(segment), folder);
    }
  }
  const path = join(folder, ...segments);
  let inside: boolean;
  try {
    inside = isInside(realPathOfExisting(folder), realPathOfExisting(path));
  } catch {
    inside = false; // a dangling symbolic link on the way
  }
  if (!inside) throw new PathOutsideDataFolderError(path, folder);
  return path;
}

/** The folder of a resource's files: `dataDir/resources/<id>`. Throws for an id CKAN would refuse. */
export function resourceDir(dataDir: string, resourceId: string): string {
  const problem = resourceIdProblem(resourceId);
  if (problem) throw new ValidationError({ id: [problem] });
  return pathInside(dataDir, 'resources', resourceId);
}

/**
 * A file name for an uploaded file kept in a folder of ours: a fresh UUID (so nothing a client
 * sends decides where it goes) plus the client's name, reduced to safe characters, for people
 * looking at the folder.
 */
export function uniqueFileName(clientName = ''): string {
  const readable = basename(clientName.replace(/\\/g, '/'))
    .replace(/[^\w.-]+/g, '_')
    .replace(/^\.+/, '')
    .slice(0, 100);
  return readable ? `${randomUUID()}-${readable}` : randomUUID();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An id this server generated with randomUUID (staged uploads): nothing else names its files. */
export function isGeneratedId(id: string): boolean {
  return UUID.test(id);
}

/** Like resourceDir, but null for an id that cannot name a folder (e.g. a folder name found on disk). */
export function resourceDirIfValid(dataDir: string, resourceId: string): string | null {
  try {
    return resourceDir(dataDir, resourceId);
  } catch {
    return null;
  }
}

/** `path` is `root` or below it (both already real paths). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * The real path of `path`: symbolic links resolved in the part that exists, the rest appended
 * as written (a folder about to be created is checked through its existing parent). A dangling
 * link makes realpath throw, and the caller refuses the path.
 */
function realPathOfExisting(path: string): string {
  let existing = resolve(path);
  const rest: string[] = [];
  for (;;) {
    try {
      lstatSync(existing);
      break;
    } catch {
      const parent = dirname(existing);
      if (parent === existing) break;
      rest.unshift(basename(existing));
      existing = parent;
    }
  }
  return join(realpathSync(existing), ...rest);
}
