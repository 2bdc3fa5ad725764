import type { SqlFunctionPolicy } from '../../shared/ckan-sql-functions';
import { join } from 'node:path';
import { createActionRegistry } from '../actions/registry';
import { StorageError } from '../errors';
import { startEngineWorker, type EngineClient } from '../engine/engine-client';
import type { SqlOutcome } from '../engine/sql/search-sql';
import { SqlRunner, SqlWorkerStopped } from '../engine/sql/sql-runner';
import { ChangesRunner } from '../engine/versions/changes-runner';
import type { ActionDeps } from '../actions/action-deps';
import { startSyncJob } from '../actions/portal-actions';
import { SyncScheduler } from '../jobs/sync-scheduler';
import type { ChangesOutcome, ChangesRequest } from '../actions/versions-actions';
import { previewInWorker } from '../importer/worker-runner';
import { ImportJobs } from '../jobs/import-jobs';
import { LocalFiles } from '../jobs/local-files';
import { ensurePrivateDataDir } from '../storage/data-paths';
import { PortalJobs } from '../jobs/portal-jobs';
import { changesDumpRoute, downloadRoutes, dumpRoute, pageRoutes, startHttpServer } from '../server';
import { prepareUploadedFile, uploadedFilePath } from '../storage/upload-files';
import { consoleLogger } from '../logger';
import type { ServerLogger } from '../server';
import { acquireDataDirectoryLock, type DataDirectoryLock } from './data-dir-lock';
import { loadOrCreateToken } from './token';

/**
 * The whole headless Deskstore: data directory lock, token, engine worker, action registry,
 * HTTP server. The CLI's `serve` and the Electron shell both start exactly this.
 */
export interface DeskstoreOptions {
  readonly dataDir: string;
  readonly host?: string;
  readonly port?: number;
  /** Use this token instead of the data directory's token file. */
  readonly token?: string;
  /** Built renderer folder; absent in a source checkout that was not built. */
  readonly staticDir?: string;
  /** The built worker entries (they sit next to the main entries). */
  readonly workers: { readonly engine: URL; readonly importer: URL };
  readonly maxBodyBytes?: number;
  readonly maxUploadBytes?: number;
  readonly memoryBudgetBytes?: number;
  /** Versions of each resource's data kept in all, the current one included (docs/versions.md). */
  readonly keepVersions?: number;
  /** How long an hour of a sync schedule lasts: tests shorten it (`DESKSTORE_SCHEDULE_HOUR_MS`). */
  readonly scheduleHourMs?: number;
  readonly logger?: ServerLogger;
  readonly version: string;
  /** datastore_search_sql's time limit (CKAN: 60 s statement timeout). */
  readonly sqlTimeoutMs?: number;
  /** Which functions datastore_search_sql may call: CKAN's allow-list (default) or every one Deskstore runs. */
  readonly sqlFunctions?: SqlFunctionPolicy;
  /** Folders whose files a request may name (`file://` URLs, `deskstore_local_path`). */
  readonly importFolders?: readonly string[];
}

export interface RunningDeskstore {
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** Where the token was read from or created; null when it came from the command line. */
  readonly tokenFile: string | null;
  readonly engine: EngineClient;
  readonly jobs: ImportJobs;
  /** Grants the desktop app's native file dialog hands out (jobs/local-files.ts). */
  readonly localFiles: LocalFiles;
  close(): Promise<void>;
}

export async function startDeskstore(opts: DeskstoreOptions): Promise<RunningDeskstore> {
  ensurePrivateDataDir(opts.dataDir);
  const lock: DataDirectoryLock = acquireDataDirectoryLock(opts.dataDir, 'server', opts.logger ?? consoleLogger);
  let engine: EngineClient | null = null;
  try {
    const tokenInfo = opts.token ? null : loadOrCreateToken(opts.dataDir);
    const token = opts.token ?? tokenInfo!.token;
    engine = await startEngineWorker(
      {
        dataDir: opts.dataDir,
        ...(opts.memoryBudgetBytes ? { memoryBudgetBytes: opts.memoryBudgetBytes } : {}),
        ...(opts.keepVersions ? { keepVersions: opts.keepVersions } : {}),
      },
      opts.workers.engine,
      opts.logger ?? consoleLogger,
    );
    const client = engine;
    const maxUploadBytes = opts.maxUploadBytes ?? 4 * 1024 ** 3;
    const jobs = new ImportJobs({
      engine: engine.api,
      importWorker: opts.workers.importer,
      jobsDir: join(opts.dataDir, 'jobs'),
      maxDownloadBytes: maxUploadBytes,
    });
    const portalJobs = new PortalJobs();
    const sqlTimeoutMs = opts.sqlTimeoutMs ?? 60_000;
    const sqlFunctions = opts.sqlFunctions ?? 'ckan';
    const localFiles = new LocalFiles(opts.importFolders ?? []);
    // The SQL worker's entry is built next to the engine worker's.
    const sqlRunner = new SqlRunner(new URL('./sql-worker.js', opts.workers.engine), opts.logger ?? consoleLogger);
    // Started ahead of the first query, but not during start-up, where it slowed the first
    // search on a big resource by ~100 ms (both compete for the two cores).
    const warmSql = setTimeout(() => sqlRunner.warm(), SQL_WORKER_WARM_DELAY_MS);
    warmSql.unref();
    const changesRunner = new ChangesRunner(new URL('./changes-worker.js', opts.workers.engine), opts.logger ?? consoleLogger);
    const portal = { dataDir: opts.dataDir, importWorker: opts.workers.importer, jobs: portalJobs };
    const actionDeps: ActionDeps = {
      engine: engine.api,
      jobs,
      localFiles,
      preview: (path, name, choices) => previewInWorker(opts.workers.importer, path, name, choices),
      searchSql: (sql) => runUserSql(sql, client, sqlRunner, sqlTimeoutMs, sqlFunctions),
      sqlFunctions,
      changes: (request) => computeChanges(request, client, changesRunner),
      portal,
      keepUpload: (resourceId, path) => prepareUploadedFile(opts.dataDir, resourceId, path),
      siteTitle: 'Deskstore',
      version: opts.version,
    };
    const registry = createActionRegistry(actionDeps);
    const scheduler = new SyncScheduler({
      engine: engine.api,
      startSync: (datasetId) => startSyncJob(actionDeps, portal, [datasetId], { scheduled: true }),
      jobStatus: (jobId) => portalJobs.status(jobId),
      logger: opts.logger ?? consoleLogger,
      ...(opts.scheduleHourMs
        ? { hourMs: opts.scheduleHourMs, checkEveryMs: Math.max(250, Math.min(60_000, opts.scheduleHourMs / 4)) }
        : {}),
    });
    scheduler.start();
    const server = await startHttpServer({
      registry,
      host: opts.host ?? '127.0.0.1',
      port: opts.port ?? 0,
      token,
      ...(opts.staticDir ? { staticDir: opts.staticDir } : {}),
      uploadDir: join(opts.dataDir, 'uploads'),
      maxBodyBytes: opts.maxBodyBytes ?? 256 * 1024 * 1024,
      maxUploadBytes,
      extraRoutes: [
        dumpRoute(engine.api),
        changesDumpRoute({
          changes: (request) => computeChanges(request, client, changesRunner),
          resourceName: async (id) => (await client.api.resourceShow(id, 'http://127.0.0.1')).name ?? '',
        }),
        ...downloadRoutes({ engine: engine.api, uploadedFile: (id) => uploadedFilePath(opts.dataDir, id) }),
        ...pageRoutes(),
      ],
      ...(opts.logger ? { logger: opts.logger } : {}),
    });
    lock.setUrl(server.url);
    const running = engine;
    let closing: Promise<void> | null = null;
    return {
      url: server.url,
      port: server.port,
      token,
      tokenFile: tokenInfo?.path ?? null,
      engine: running,
      jobs,
      localFiles,
      close() {
        closing ??= (async () => {
          scheduler.stop();
          jobs.cancelAll();
          portalJobs.cancelAll();
          await server.close();
          await portalJobs.idle();
          clearTimeout(warmSql);
          await sqlRunner.close();
          await changesRunner.close();
          await running.close();
          lock.release();
        })();
        return closing;
      },
    };
  } catch (err) {
    await engine?.close();
    lock.release();
    throw err;
  }
}

/** When the SQL worker is started if no query started it before. */
const SQL_WORKER_WARM_DELAY_MS = 10_000;

/**
 * datastore_search_sql: planned by the engine (tables resolved, SQL translated), run by the SQL
 * worker so that a slow query holds up no search or write. If the SQL worker cannot read a
 * table's file (a checkpoint replaced it meanwhile, or it is damaged), the query is planned
 * again with images of the engine's tables (sql/search-sql.ts, planSql). A plain single-table
 * aggregate the engine answers from its column store (sql/column-aggregate.ts) never reaches
 * the SQL worker; nothing else of user SQL runs on the engine worker.
 */
async function runUserSql(
  sql: string,
  engine: EngineClient,
  runner: SqlRunner,
  timeoutMs: number,
  policy: SqlFunctionPolicy,
): Promise<SqlOutcome> {
  const run = async (images: boolean): Promise<SqlOutcome> => {
    const planned = await engine.api.planSql(sql, images, policy);
    return 'answered' in planned ? planned.answered : runner.run(planned, timeoutMs);
  };
  try {
    return await run(false);
  } catch (err) {
    if (!(err instanceof StorageError) || err instanceof SqlWorkerStopped) throw err;
  }
  return run(true);
}

/**
 * deskstore_changes: the engine names the two versions' files (folding the current version's
 * journal into its files first), the changes worker compares them, so that a diff of a million
 * rows holds up no search or write.
 */
async function computeChanges(request: ChangesRequest, engine: EngineClient, runner: ChangesRunner): Promise<ChangesOutcome> {
  const attempt = async (): Promise<ChangesOutcome> => {
    const plan = await engine.api.planChanges(request.resourceId, request.from, request.to);
    const answer = await runner.run({
      plan,
      ...(request.key ? { key: request.key } : {}),
      change: request.change,
      offset: request.offset,
      limit: request.limit,
      ...(request.format ? { format: request.format } : {}),
    });
    return { resourceId: plan.resourceId, from: plan.from.version, to: plan.to.version, answer };
  };
  try {
    return await attempt();
  } catch (err) {
    // A checkpoint (writes meanwhile) or a new version may have replaced a file between the
    // plan and the reading: planned again, the comparison reads the files that are there now.
    if (!(err instanceof StorageError)) throw err;
    return attempt();
  }
}
