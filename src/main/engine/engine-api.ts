import type { Engine } from './engine';

/*
 * The engine's types as its callers outside the engine take them (actions, parameter schemas,
 * the importer, portal, jobs): from here, never from the engine's inner modules, so that what
 * the engine exposes is this one list (the layer test, test/unit/import-layers.test.ts,
 * checks it). Run-time building blocks for whoever builds a resource version outside the
 * engine worker are in importer-api.ts.
 */
export type { SearchRequest, SearchOutcome, OutputField, RecordsFormat } from './search/search-request';
export type { RowSelection } from './search/row-selection';
export type { CkanDict } from './catalogue/ckan-dicts';
export type { PackageSearchRequest } from './catalogue/search/package-search';
export type { GroupListRequest } from './catalogue/groups';
export type { MirrorPackage, MirrorResource, MirrorTable } from './catalogue/mirror-publish';
export type { StoredField } from './catalogue/records';
export type { SqlOutcome } from './sql/search-sql';
export type { StoredValue } from './values/coerce';
export type { ExactNumber } from './values/exact-number';
export type { EncodedTextIndex, TextIndexHelper, TextIndexTask } from './import/text-index-task';
export type { ChangesAnswer } from './versions/changes-protocol';

/**
 * The engine operations the main thread may call, each answered asynchronously (the engine
 * runs in a worker). Listing them here keeps the worker from dispatching anything else.
 */
export const ENGINE_METHODS = [
  'search',
  'facets',
  'profile',
  'groupBy',
  'mapPoints',
  'info',
  'datastoreCreate',
  'datastoreUpsert',
  'datastoreDelete',
  'maintenance',
  'checkpoint',
  'planSql',
  'memoryStatus',
  'writeOutcome',
  'packageCreate',
  'packageShow',
  'packageList',
  'packageSearch',
  'packageUpdate',
  'packageDelete',
  'groupCreate',
  'groupShow',
  'groupList',
  'tagList',
  'resourceCreate',
  'resourceShow',
  'resourceUpdate',
  'resourceDelete',
  'prepareImport',
  'abandonImport',
  'publishImport',
  'checkMirrorTarget',
  'tableFacts',
  'publishMirror',
  'detachMirror',
  'recordPush',
  'versions',
  'renameFields',
  'planChanges',
  'setSyncSchedule',
  'scheduledSyncs',
] as const;

export type EngineMethod = (typeof ENGINE_METHODS)[number];

/**
 * The calls that change data. Each gets a write id from the engine client, which the change's
 * commit saves with it (a journal entry, or the catalogue), so that after a crash the
 * restarted engine can tell whether it was saved (Engine.writeOutcome).
 */
export const WRITE_METHODS: ReadonlySet<EngineMethod> = new Set<EngineMethod>([
  'datastoreCreate',
  'datastoreUpsert',
  'datastoreDelete',
  'packageCreate',
  'packageUpdate',
  'packageDelete',
  'groupCreate',
  'resourceCreate',
  'resourceUpdate',
  'resourceDelete',
  'publishImport',
  'publishMirror',
  'detachMirror',
  'recordPush',
  'renameFields',
  'setSyncSchedule',
]);

export type EngineApi = {
  [K in EngineMethod]: (...args: Parameters<Engine[K]>) => Promise<Awaited<ReturnType<Engine[K]>>>;
};

export function isEngineMethod(name: unknown): name is EngineMethod {
  return typeof name === 'string' && (ENGINE_METHODS as readonly string[]).includes(name);
}

/** The engine called directly in this thread (tests, and the CLI's one-shot import). */
export function inProcessEngineApi(engine: Engine): EngineApi {
  const api: Partial<Record<EngineMethod, unknown>> = {};
  for (const method of ENGINE_METHODS) {
    api[method] = async (...args: unknown[]) => (engine[method] as (...a: unknown[]) => unknown).apply(engine, args);
  }
  return api as EngineApi;
}
