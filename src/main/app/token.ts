import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from '../storage/data-paths';

/**
 * One API token per data directory, created on first run, readable only by its owner. It is
 * what CKAN calls an API token: the `Authorization` header value that allows writes.
 */
export function tokenPath(dataDir: string): string {
  return join(dataDir, 'api-token');
}

export function loadOrCreateToken(dataDir: string): { token: string; path: string; created: boolean } {
  const path = tokenPath(dataDir);
  if (existsSync(path)) {
    const token = readFileSync(path, 'utf8').trim();
    if (token) {
      try {
        chmodSync(path, PRIVATE_FILE_MODE); // repair a loosened mode rather than keep serving a readable token
      } catch {
        // read-only file system: nothing can change the mode, nor anything else
      }
      return { token, path, created: false };
    }
  }
  // Hex, not base64url: a token starting with '-' was read as an option by command-line tools
  // it was handed to (the shared conformance runner failed on one).
  const token = randomBytes(32).toString('hex');
  writeFileSync(path, `${token}\n`, { mode: PRIVATE_FILE_MODE });
  chmodSync(path, PRIVATE_FILE_MODE); // the umask may have narrowed `mode`; never widened it
  return { token, path, created: true };
}
