import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerLogger } from '../server';
import { consoleLogger } from '../logger';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../storage/data-paths';

/**
 * The desktop app's logger: what the console gets, also appended to `<dataDir>/logs/deskstore.log`,
 * because a desktop user never sees the console (the app menu reveals the data folder).
 */
export function fileLogger(dataDir: string): ServerLogger {
  const dir = join(dataDir, 'logs');
  const append = (level: string, message: string, error?: unknown) => {
    const detail = error === undefined ? '' : ` ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
    try {
      mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
      appendFileSync(join(dir, 'deskstore.log'), `${new Date().toISOString()} ${level} ${message}${detail}\n`, { mode: PRIVATE_FILE_MODE });
    } catch {
      // logging must never take the app down; the console still has it
    }
  };
  return {
    request: () => undefined,
    warn: (message) => {
      consoleLogger.warn(message);
      append('warn', message);
    },
    error: (message, error) => {
      consoleLogger.error(message, error);
      append('error', message, error);
    },
  };
}
