import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { pathInside, resourceIdProblem } from './data-paths';
import { ValidationError } from '../errors';

/**
 * The original file of an uploaded resource (docs/ckan-contract.md §10.1), kept as CKAN's
 * filestore keeps it so `/dataset/<id>/resource/<rid>/download/<name>` serves it:
 * `dataDir/files/<resource id>/original`. The name a client gave lives in the catalogue, never
 * in the path.
 */
function uploadFolder(dataDir: string, resourceId: string): string {
  const problem = resourceIdProblem(resourceId);
  if (problem) throw new ValidationError({ id: [problem] });
  return pathInside(dataDir, 'files', resourceId);
}

export function uploadedFilePath(dataDir: string, resourceId: string): string | null {
  try {
    const path = pathInside(uploadFolder(dataDir, resourceId), 'original');
    return existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

/** A file about to become a resource's original: placed, but not yet in use. */
export interface PendingUpload {
  /** Makes it the original (replacing an earlier one). */
  commit(): void;
  /** Drops it; the earlier original, if any, stays. */
  discard(): void;
}

/**
 * Puts `source` next to the resource's original under a temporary name: a hard link when the
 * file system allows (no second copy of a large upload), else a copy. The caller commits once
 * the catalogue change succeeded, so a failed create or update leaves the files as they were.
 */
export function prepareUploadedFile(dataDir: string, resourceId: string, source: string): PendingUpload {
  const folder = uploadFolder(dataDir, resourceId);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const target = pathInside(folder, 'original');
  const temp = pathInside(folder, `original.${process.pid}.${Date.now()}.tmp`);
  try {
    linkSync(source, temp);
  } catch {
    copyFileSync(source, temp);
  }
  return {
    commit: () => renameSync(temp, target),
    discard: () => rmSync(temp, { force: true }),
  };
}

export function removeUploadedFile(dataDir: string, resourceId: string): void {
  try {
    rmSync(uploadFolder(dataDir, resourceId), { recursive: true, force: true });
  } catch {
    // an id that cannot name a folder never had one
  }
}

/**
 * At start-up: originals of resources the catalogue no longer names, and temporary files of
 * uploads that never committed (a crash between placing and committing).
 */
export function removeUploadLeftovers(
  dataDir: string,
  exists: (resourceId: string) => boolean,
  logger: { warn(message: string): void },
): void {
  let folders: string[];
  try {
    folders = readdirSync(pathInside(dataDir, 'files'));
  } catch {
    return;
  }
  try {
    for (const id of folders) {
      if (resourceIdProblem(id)) continue; // not a folder of ours
      const folder = uploadFolder(dataDir, id);
      if (!exists(id)) {
        rmSync(folder, { recursive: true, force: true });
        continue;
      }
      for (const name of readdirSync(folder)) if (name.endsWith('.tmp')) rmSync(pathInside(folder, name), { force: true });
    }
  } catch (err) {
    logger.warn(`could not remove leftover uploaded files: ${(err as Error).message}`);
  }
}
