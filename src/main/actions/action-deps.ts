import type { SqlFunctionPolicy } from '../../shared/ckan-sql-functions';
import type { ImportChoices } from '../importer/import-types';
import type { ImportPreview } from '../../shared/wire/import';
import type { EngineApi, SqlOutcome } from '../engine/engine-api';
import type { ImportJobs } from '../jobs/import-jobs';
import type { LocalFiles } from '../jobs/local-files';
import type { PortalDeps } from './portal-actions';
import type { PendingUpload } from '../storage/upload-files';
import type { ChangesOutcome, ChangesRequest } from './versions-actions';

/** What actions reach: the engine (in its worker), background loads, facts about this instance. */
export interface ActionDeps {
  readonly engine: EngineApi;
  /** Absent where nothing can run in the background (a one-shot in-process engine). */
  readonly jobs?: ImportJobs;
  /** Which local files a request may name; absent: none (uploads only). */
  readonly localFiles?: LocalFiles;
  /** Builds import previews in a worker. */
  readonly preview?: (path: string, name: string, choices: ImportChoices) => Promise<ImportPreview>;
  /** datastore_search_sql: planned by the engine, run by the SQL worker with a time limit. */
  readonly searchSql: (sql: string) => Promise<SqlOutcome>;
  /** Which functions datastore_search_sql may call (status_show tells it). */
  readonly sqlFunctions?: SqlFunctionPolicy;
  /** deskstore_changes: planned by the engine, computed by the changes worker (absent: not available). */
  readonly changes?: (request: ChangesRequest) => Promise<ChangesOutcome>;
  /** Mirror, sync and push (absent where nothing can run in the background). */
  readonly portal?: PortalDeps;
  /**
   * Places an uploaded file to become its resource's original (the download route serves it);
   * absent where there is no data folder to keep it in.
   */
  readonly keepUpload?: (resourceId: string, path: string) => PendingUpload;
  readonly siteTitle: string;
  readonly version: string;
}
