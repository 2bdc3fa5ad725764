import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { PortalJobItem } from '../../shared/portal';
import { acquireDataDirectoryLock, type LockInfo } from '../app/data-dir-lock';
import { Engine } from '../engine/engine';
import { inProcessEngineApi, type EngineApi } from '../engine/engine-api';
import type { PortalSettings } from '../portal/portal-session';
import { closePortalConnections } from '../portal/portal-client';
import { type OptionValues, defaultDataDir, integerOption, stringOption } from './command';

/**
 * What `deskstore mirror`, `sync` and `push` share: the network options, the data directory
 * held with its lock and an engine in this process, and progress lines on stderr.
 */
export const NETWORK_OPTIONS = {
  'timeout-s': { type: 'string' },
  retries: { type: 'string' },
} as const;

export const NETWORK_USAGE = '[--timeout-s N] [--retries N]';

export function networkSettings(values: OptionValues, log: (line: string) => void): PortalSettings {
  const timeout = integerOption(values['timeout-s'], '--timeout-s', 1);
  const retries = integerOption(values.retries, '--retries', 0);
  return {
    ...(timeout !== undefined ? { timeoutMs: timeout * 1000 } : {}),
    ...(retries !== undefined ? { retries } : {}),
    ...(process.env.DESKSTORE_PORTAL_BACKOFF_MS ? { backoffMs: Number(process.env.DESKSTORE_PORTAL_BACKOFF_MS) } : {}),
    onRetry: (what, attempt, delayMs, reason) => log(`retry ${attempt} of ${what} in ${(delayMs / 1000).toFixed(1)} s: ${reason}`),
  };
}

export function dataDirOption(values: OptionValues): string {
  return resolve(stringOption(values.data) ?? defaultDataDir());
}

/** Runs `work` with the data directory locked and its engine open in this process. */
export async function withLocalEngine<T>(dataDir: string, role: LockInfo['role'], work: (engine: EngineApi) => Promise<T>): Promise<T> {
  mkdirSync(dataDir, { recursive: true });
  const lock = acquireDataDirectoryLock(dataDir, role);
  try {
    const engine = new Engine({ dataDir });
    try {
      return await work(inProcessEngineApi(engine));
    } finally {
      await engine.close();
    }
  } finally {
    lock.release();
    await closePortalConnections();
  }
}

export const stderrLine = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/** Per-resource progress, at most one line a second per resource and phase. */
export function itemReporter(): (item: PortalJobItem) => void {
  const last = new Map<string, number>();
  return (item) => {
    const key = `${item.resource_id}:${item.phase}`;
    const now = performance.now();
    if (item.phase !== 'done' && now - (last.get(key) ?? -Infinity) < 1000) return;
    last.set(key, now);
    const rows =
      item.rows_total !== null
        ? `${item.rows_done.toLocaleString('en')} of ${item.rows_total.toLocaleString('en')} rows`
        : `${item.rows_done.toLocaleString('en')} rows`;
    const bytes = item.bytes_done ? `, ${(item.bytes_done / 1024 / 1024).toFixed(1)} MB` : '';
    stderrLine(`${item.name || item.resource_id}: ${item.phase} ${rows}${bytes}`);
  };
}
