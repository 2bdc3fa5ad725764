import { existsSync, mkdirSync, readdirSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { NotFoundError, StorageError } from '../errors';
import { consoleLogger, type Logger } from '../logger';
import { Catalogue } from './catalogue/catalogue';
import {
  allPackageDicts,
  createPackage,
  createResource,
  findPackageOrThrow,
  findResourceOrThrow,
  listPackages,
  listTags,
  showPackage,
  showResource,
  updatePackage,
  updateResource,
} from './catalogue/catalogue-operations';
import { createGroup, listGroups, showGroup, type GroupListRequest } from './catalogue/groups';
import { searchPackageDicts, type PackageSearchRequest } from './catalogue/search/package-search';
import { planSql, type SqlAnswered, type SqlPlan } from './sql/search-sql';
import type { SqlFunctionPolicy } from '../../shared/ckan-sql-functions';
import type { CkanDict } from './catalogue/ckan-dicts';
import type { PackageDict, PackageSearchResult, ResourceDict } from '../../shared/wire/catalogue';
import type { CkanGroup } from '../../shared/wire/ckan-catalogue';
import type { TagListEntry } from '../../shared/wire/actions';
import type { ImportSource } from './catalogue/records';
import { datastoreCreate, type CreateOutcome, type CreateRequest } from './datastore/create-table';
import { datastoreInfo, type InfoOutcome } from './datastore/info';
import { datastoreDelete, type DeleteRequest } from './datastore/delete';
import { writeGeneration } from './datastore/table-versions';
import { datastoreUpsert, type UpsertRequest } from './datastore/upsert';
import { checkRename, renameFields, type RenameOutcome, type RenameRequest } from './datastore/rename-fields';
import type { EngineContext } from './engine-context';
import type { EngineMethod } from './engine-api';
import type { TextSearchLanguage } from './fts';
import type { OpenResource } from './resources/open-resource';
import { ResourceCache } from './resources/resource-cache';
import { defaultMemoryBudgetBytes } from './memory-budget';
import type { DeskstoreMemory } from '../../shared/wire/status';
import { executeSearch } from './search/execute-search';
import { removeUploadLeftovers, removeUploadedFile } from '../storage/upload-files';
import { searchTableMetadata, TABLE_METADATA } from './search/table-metadata';
import { computeFacets, type FacetOutcome, type FacetRequest } from './search/facets';
import { computeProfile, type ProfileRequest } from './search/profile';
import type { ProfileResult } from '../../shared/wire/profile';
import { computeGroupBy, type GroupByRequest } from './search/group-by';
import type { GroupByResult } from '../../shared/wire/group-by';
import { computeMapPoints, type MapPointsRequest } from './search/map-points';
import type { MapPointsResult } from '../../shared/wire/map-points';
import type { SearchOutcome, SearchRequest } from './search/search-request';
import { PRIVATE_DIR_MODE, pathInside, resourceDir, resourceDirIfValid } from '../storage/data-paths';
import { generationSize, removeAllGenerationsBut, removeGenerationFiles, removeUnneededGenerations } from './storage/resource-files';
import { DEFAULT_KEEP_VERSIONS, keptGenerations, listVersions, succeed } from './versions/version-history';
import { planChanges, type ChangesPlan } from './versions/changes-plan';
import type { VersionsResult } from '../../shared/wire/versions';
import { journalPath } from './resources/open-resource';
import type { DatastoreRecord, StoredField } from './catalogue/records';
import type { PushLink } from '../../shared/portal';
import { checkMirrorTarget } from './catalogue/mirror-guard';
import { applyMirrorPublication, detachMirror, recordPush, type MirrorPublication } from './catalogue/mirror-publish';
import { scheduledSyncs, setSyncSchedule, type ScheduledSync } from './catalogue/sync-schedule';

function fileHasBytes(path: string): boolean {
  try {
    return statSync(path).size > 0;
  } catch {
    return false;
  }
}

/** How long a resource whose checkpoint failed waits before the next try. */
const CHECKPOINT_RETRY_MS = 60_000;

/** Journal bytes that trigger a checkpoint: big tables tolerate a bigger journal. */
function checkpointThreshold(tableBytes: number): number {
  return Math.max(4 * 1024 * 1024, Math.floor(tableBytes / 10));
}

export interface EngineOptions {
  readonly dataDir: string;
  /** Memory for open resources before the least recently used are unloaded (default: memory-budget.ts). */
  readonly memoryBudgetBytes?: number;
  readonly defaultFtsLanguage?: TextSearchLanguage;
  /** Versions of each resource's data kept in all, the current one included (docs/versions.md). */
  readonly keepVersions?: number;
}

/** What a write the engine crashed in came to (Engine.writeOutcome). */
export interface WriteOutcome {
  readonly saved: boolean;
  readonly answer?: unknown;
}

/** The result of an import, as the engine needs it to publish the new version. */
export interface PublishImport {
  readonly resourceId: string;
  readonly generation: number;
  readonly fields: readonly StoredField[];
  readonly rows: number;
  readonly ftsLanguage: TextSearchLanguage;
  readonly source: ImportSource;
  /** What the new version is called (docs/versions.md): `replace` when the resource had data, unless the caller says `import`. */
  readonly versionSource?: 'import' | 'replace';
}

/**
 * The datastore of one data directory: catalogue plus tables. It runs in the engine worker
 * (one thread owns all state, so requests are serialized and writes never interleave); the
 * main thread reaches it through EngineClient.
 */
export class Engine implements EngineContext {
  readonly catalogue: Catalogue;
  readonly cache: ResourceCache;
  readonly defaultFtsLanguage: TextSearchLanguage;
  readonly keepVersions: number;
  private readonly issuedGenerations = new Map<string, number>();
  private readonly lastWrite = new Map<string, number>();
  private readonly checkpointFailedAt = new Map<string, number>();

  readonly dataDir: string;

  constructor(
    options: EngineOptions,
    readonly logger: Logger = consoleLogger,
  ) {
    const dataDir = options.dataDir;
    this.dataDir = dataDir;
    try {
      mkdirSync(join(dataDir, 'resources'), { recursive: true, mode: PRIVATE_DIR_MODE });
    } catch (err) {
      if (!existsSync(join(dataDir, 'resources'))) {
        throw new StorageError(`The data directory ${dataDir} cannot be used: ${(err as Error).message}`);
      }
    }
    this.catalogue = Catalogue.open(dataDir);
    this.cache = new ResourceCache(dataDir, options.memoryBudgetBytes ?? defaultMemoryBudgetBytes(), logger);
    this.keepVersions = Math.max(1, options.keepVersions ?? DEFAULT_KEEP_VERSIONS);
    this.removeCrashLeftovers();
    this.defaultFtsLanguage = options.defaultFtsLanguage ?? 'english';
  }

  openResource(idOrAlias: string): OpenResource {
    const id = this.catalogue.resolveTable(idOrAlias);
    const record = id ? this.catalogue.findResource(id)?.datastore : null;
    if (!id || !record) throw new NotFoundError(`Resource "${idOrAlias}" was not found.`);
    return this.cache.get(id, record);
  }

  /**
   * A read on an open resource, with the memory budget enforced after it: a resource's codes,
   * dictionaries and postings are read from its files as queries need them, so it grows after
   * its load, when the budget was last checked.
   */
  private read<T>(idOrAlias: string, query: (resource: OpenResource) => T): T {
    try {
      return query(this.openResource(idOrAlias));
    } finally {
      this.cache.enforceBudget();
    }
  }

  search(req: SearchRequest): SearchOutcome {
    if (req.resourceId === TABLE_METADATA) return searchTableMetadata(this.catalogue, req);
    return this.read(req.resourceId, (resource) => executeSearch(req, resource));
  }

  facets(req: FacetRequest): FacetOutcome {
    return this.read(req.resourceId, (resource) => computeFacets(req, resource, this.defaultFtsLanguage));
  }

  profile(req: ProfileRequest): ProfileResult {
    return this.read(req.resourceId, (resource) => computeProfile(req, resource, this.defaultFtsLanguage));
  }

  groupBy(req: GroupByRequest): GroupByResult {
    return this.read(req.resourceId, (resource) => computeGroupBy(req, resource, this.defaultFtsLanguage));
  }

  mapPoints(req: MapPointsRequest): MapPointsResult {
    return this.read(req.resourceId, (resource) => computeMapPoints(req, resource, this.defaultFtsLanguage));
  }

  info(idOrAlias: string): InfoOutcome {
    const id = this.catalogue.resolveTable(idOrAlias);
    if (!id) throw new NotFoundError(`Resource/Alias "${idOrAlias}" was not found.`);
    return datastoreInfo(this.openResource(id));
  }

  async datastoreCreate(req: CreateRequest): Promise<CreateOutcome> {
    return datastoreCreate(this, req);
  }

  async datastoreUpsert(req: UpsertRequest): Promise<void> {
    try {
      await datastoreUpsert(this, req);
    } finally {
      this.cache.enforceBudget(); // a write opens the resource's SQLite table
    }
  }

  async datastoreDelete(req: DeleteRequest): Promise<{ resourceId: string }> {
    try {
      return await datastoreDelete(this, req);
    } finally {
      this.cache.enforceBudget();
    }
  }

  /** Forces a checkpoint now (benchmarks, tests, the UI's "compact" button); reports its cost. */
  async checkpoint(idOrAlias: string): Promise<{ resource_id: string; seconds: number; bytes: number; rows: number }> {
    const resource = this.openResource(idOrAlias);
    const started = performance.now();
    await writeGeneration(this, resource);
    return {
      resource_id: resource.id,
      seconds: (performance.now() - started) / 1000,
      bytes: resource.record.sizeBytes,
      rows: resource.store.rowCount,
    };
  }

  /**
   * A checkpoint that failed (a full or read-only disk) is not retried for a while: each try
   * writes a whole generation, and retrying after every request would slow every request down.
   * The journal keeps the data meanwhile.
   */
  private failedRecently(resourceId: string): boolean {
    const failed = this.checkpointFailedAt.get(resourceId);
    return failed !== undefined && Date.now() - failed < CHECKPOINT_RETRY_MS;
  }

  afterWrite(resource: OpenResource): void {
    this.lastWrite.set(resource.id, Date.now());
  }

  /**
   * A journal has outgrown its threshold: a checkpoint is due now, whatever the traffic (reads
   * that never pause must not keep a journal growing; docs/security.md, "checkpoints").
   */
  checkpointDue(): boolean {
    return this.cache.openResources().some((r) => {
      if (this.failedRecently(r.id)) return false;
      const journal = r.journal();
      return journal.count > 0 && journal.size >= checkpointThreshold(r.record.sizeBytes);
    });
  }

  /**
   * Checkpoints (docs/architecture.md §3): a resource whose journal outgrew its threshold, or that
   * has journal entries (or a table file found damaged, which the new generation replaces) and
   * saw no write for `idleMs`, gets a new generation and an empty journal. The worker calls this when no request is waiting; `waiting` says how many
   * journals are left for a later call, so the worker knows to come back.
   */
  async maintenance(idleMs = 30_000): Promise<{ checkpointed: string[]; waiting: number }> {
    const checkpointed: string[] = [];
    let waiting = 0;
    for (const resource of this.cache.openResources()) {
      const journal = resource.journal();
      if (journal.count === 0 && !resource.tableFileUnusable) continue;
      const idle = Date.now() - (this.lastWrite.get(resource.id) ?? 0) >= idleMs;
      // At shutdown (idleMs 0) every journal gets its try; otherwise a recent failure waits.
      if (idleMs > 0 && this.failedRecently(resource.id)) {
        waiting++;
      } else if (idle || journal.size >= checkpointThreshold(resource.record.sizeBytes)) {
        try {
          await writeGeneration(this, resource);
        } catch (err) {
          this.checkpointFailedAt.set(resource.id, Date.now());
          throw err;
        }
        this.checkpointFailedAt.delete(resource.id);
        checkpointed.push(resource.id);
      } else {
        waiting++;
      }
    }
    return { checkpointed, waiting };
  }

  packageCreate(params: Record<string, unknown>, siteUrl: string): PackageDict & CkanDict {
    const record = this.catalogue.commit(() => this.savedRecord(createPackage(this.catalogue, params)));
    return showPackage(this.catalogue, record.id, siteUrl);
  }

  packageShow(idOrName: unknown, siteUrl: string): PackageDict & CkanDict {
    return showPackage(this.catalogue, idOrName, siteUrl);
  }

  packageList(limit: number | null, offset: number): string[] {
    return listPackages(this.catalogue, limit, offset);
  }

  packageSearch(req: PackageSearchRequest, siteUrl: string): PackageSearchResult {
    const titles = new Map([...this.catalogue.listGroups(true), ...this.catalogue.listGroups(false)].map((g) => [g.name, g.title]));
    return { ...searchPackageDicts(allPackageDicts(this.catalogue, siteUrl), req, titles) };
  }

  /** organization_create / group_create. */
  groupCreate(params: Record<string, unknown>, isOrganization: boolean): CkanGroup & CkanDict {
    const record = this.catalogue.commit(() => this.savedRecord(createGroup(this.catalogue, params, isOrganization)));
    return showGroup(this.catalogue, record.id, isOrganization);
  }

  groupShow(idOrName: unknown, isOrganization: boolean): CkanGroup & CkanDict {
    return showGroup(this.catalogue, idOrName, isOrganization);
  }

  groupList(req: GroupListRequest): string[] | CkanGroup[] {
    return listGroups(this.catalogue, req);
  }

  tagList(query: string, allFields: boolean): string[] | TagListEntry[] {
    return listTags(this.catalogue, query, allFields);
  }

  resourceCreate(params: Record<string, unknown>, siteUrl: string): ResourceDict & CkanDict {
    const record = this.catalogue.commit(() => this.savedRecord(createResource(this.catalogue, params)));
    return showResource(this.catalogue, record.id, siteUrl);
  }

  resourceShow(id: unknown, siteUrl: string): ResourceDict & CkanDict {
    return showResource(this.catalogue, id, siteUrl);
  }

  packageUpdate(params: Record<string, unknown>, siteUrl: string, patch: boolean): PackageDict & CkanDict {
    const record = this.catalogue.commit(() => this.savedRecord(updatePackage(this.catalogue, params, patch)));
    return showPackage(this.catalogue, record.id, siteUrl);
  }

  resourceUpdate(params: Record<string, unknown>, siteUrl: string, patch: boolean): ResourceDict & CkanDict {
    const record = this.catalogue.commit(() => this.savedRecord(updateResource(this.catalogue, params, patch)));
    return showResource(this.catalogue, record.id, siteUrl);
  }

  /** resource_delete: the resource and its table (files removed once the catalogue forgot them). */
  resourceDelete(id: unknown): void {
    const r = findResourceOrThrow(this.catalogue, id);
    this.catalogue.commit(() => this.catalogue.deleteResource(r.id));
    this.cache.evict(r.id);
    this.removeResourceFiles(r.id);
  }

  /** package_delete: the dataset and all of its resources. */
  packageDelete(idOrName: unknown): void {
    const p = findPackageOrThrow(this.catalogue, idOrName);
    const resources = this.catalogue.resourcesOf(p.id);
    this.catalogue.commit(() => {
      for (const r of resources) this.catalogue.deleteResource(r.id);
      this.catalogue.deletePackage(p.id);
    });
    for (const r of resources) {
      this.cache.evict(r.id);
      this.removeResourceFiles(r.id);
    }
  }

  /**
   * A deleted resource's folder. A catalogue written before ids were checked may name one that
   * cannot be a folder: it never had files of its own, so there is nothing to remove.
   */
  private removeResourceFiles(resourceId: string): void {
    const dir = resourceDirIfValid(this.dataDir, resourceId);
    if (dir) rmSync(dir, { recursive: true, force: true });
    removeUploadedFile(this.dataDir, resourceId);
  }

  /**
   * A query for the SQL worker (sql/search-sql.ts), or its answer when the column store gives
   * it (a plain single-table aggregate; `columnStore: false` always plans for the worker);
   * `images`: every table as an image of this engine's.
   */
  async planSql(sql: string, images = false, policy: SqlFunctionPolicy = 'ckan', columnStore = true): Promise<SqlPlan | SqlAnswered> {
    try {
      return await planSql(this, sql, images, policy, columnStore);
    } finally {
      this.cache.enforceBudget(); // an image opens the resource's SQLite table
    }
  }

  /**
   * Whether the write request `writeId` (engine-client.ts) was saved, and if so what it would
   * have answered: asked of a freshly started engine after the previous one crashed while
   * running `method(...args)`. A row write is saved by its journal entry, which loading the
   * resource replays; anything else by a catalogue commit, which saved the id with the change.
   */
  writeOutcome(method: EngineMethod, args: unknown[], writeId: string): WriteOutcome {
    const request = args[0] as { resourceId?: string; writeId?: string } | undefined;
    if ((method === 'datastoreUpsert' || method === 'datastoreDelete') && request?.writeId === writeId) {
      const resource = this.openResource(request.resourceId!);
      if (!resource.replayedWriteIds.has(writeId)) return { saved: false };
      return { saved: true, answer: method === 'datastoreDelete' ? { resourceId: resource.id } : undefined };
    }
    const saved = this.catalogue.savedWrite(writeId);
    if (!saved) return { saved: false };
    const id = (saved.a as { id?: string } | undefined)?.id;
    switch (method) {
      case 'packageCreate':
      case 'packageUpdate':
        return { saved: true, answer: this.packageShow(id, args[1] as string) };
      case 'resourceCreate':
      case 'resourceUpdate':
        return { saved: true, answer: this.resourceShow(id, args[1] as string) };
      case 'groupCreate':
        return { saved: true, answer: this.groupShow(id, args[1] as boolean) };
      default:
        // datastoreCreate, a table's drop, detachMirror: the answer was saved; the rest answer nothing.
        return { saved: true, answer: saved.a };
    }
  }

  /** A record the running request created or changed: a crash's answer shows it again by id. */
  private savedRecord<T extends { id: string }>(record: T): T {
    this.catalogue.noteSavedAnswer({ id: record.id });
    return record;
  }

  /** `status_show`'s memory figures: the budget, the open resources' estimate, the process. */
  memoryStatus(): DeskstoreMemory {
    const usage = this.cache.usage();
    return {
      budget_bytes: this.cache.budgetBytes,
      open_resources_bytes: usage.usedBytes,
      open_resources: usage.openResources,
      unloaded_for_budget: usage.unloadedForBudget,
      process_rss_bytes: process.memoryUsage.rss(),
    };
  }

  /**
   * Where an import should write its files: the resource's folder and a fresh generation.
   * The resource need not exist yet: the CLI creates it only once the data is ready, so a
   * failed import leaves no trace in the catalogue.
   */
  prepareImport(resourceId: string): { dir: string; generation: number } {
    return { dir: resourceDir(this.dataDir, resourceId), generation: this.nextGeneration(resourceId) };
  }

  /** Removes the files of an import that failed or was cancelled. */
  abandonImport(resourceId: string, generation: number): void {
    const dir = resourceDir(this.dataDir, resourceId);
    removeGenerationFiles(dir, generation);
    // A new resource's folder was made for the import: left empty, it goes too.
    try {
      rmdirSync(dir);
    } catch {
      // not empty (an earlier generation is published), or already gone
    }
  }

  nextGeneration(resourceId: string): number {
    const current = this.catalogue.findResource(resourceId)?.datastore?.generation ?? 0;
    const next = Math.max(current, this.issuedGenerations.get(resourceId) ?? 0) + 1;
    this.issuedGenerations.set(resourceId, next);
    return next;
  }

  /**
   * Makes a finished import the resource's current version (the commit point). The version it
   * replaces stays as an earlier one (docs/versions.md): its writes since the last checkpoint
   * are folded into its files first, so a kept version is always a generation's files alone.
   */
  async publishImport(p: PublishImport): Promise<void> {
    if (!this.catalogue.findResource(p.resourceId)) throw new NotFoundError('Resource was not found.');
    await this.foldJournal(p.resourceId);
    const r = this.catalogue.findResource(p.resourceId);
    if (!r) throw new NotFoundError('Resource was not found.');
    const previous = r.datastore;
    const dir = resourceDir(this.dataDir, p.resourceId);
    const succession = succeed(r, previous, p.versionSource ?? (previous ? 'replace' : 'import'), this.keepVersions);
    this.cache.evict(p.resourceId);
    this.catalogue.commit(() => {
      this.catalogue.setDatastore(p.resourceId, {
        generation: p.generation,
        fields: p.fields,
        primaryKey: [],
        indexes: [],
        aliases: previous?.aliases ?? [],
        ftsLanguage: p.ftsLanguage,
        rowCount: p.rows,
        sizeBytes: generationSize(dir, p.generation),
        updated: new Date().toISOString(),
        version: succession.version,
        olderVersions: succession.olderVersions,
      });
      r.source = p.source;
      r.lastModified = new Date().toISOString().replace('Z', '');
    });
    removeUnneededGenerations(
      dir,
      p.generation,
      succession.olderVersions.map((v) => v.generation),
    );
  }

  /**
   * Writes the current generation's journal into a new generation, if it has entries: before
   * that generation becomes an earlier version, or is compared with one.
   */
  private async foldJournal(resourceId: string): Promise<void> {
    const ds = this.catalogue.findResource(resourceId)?.datastore;
    if (!ds) return;
    const open = this.cache.openResources().find((r) => r.id === resourceId);
    const pending = open ? open.journal().count > 0 : fileHasBytes(journalPath(resourceDir(this.dataDir, resourceId), ds.generation));
    // The checkpoint is not the request's change: a crash after it leaves the request unsaved.
    if (pending) this.catalogue.outsideWrite(() => writeGeneration(this, open ?? this.openResource(resourceId)));
  }

  /**
   * `deskstore_rename_fields`: publishes the same rows under new column names as a new version
   * (datastore/rename-fields.ts), once the current one's journal is in its files.
   */
  async renameFields(req: RenameRequest): Promise<RenameOutcome> {
    const id = this.catalogue.resolveTable(req.resourceId) ?? req.resourceId;
    checkRename(this, id, req.renames); // a refused rename folds nothing either
    await this.foldJournal(id);
    return renameFields(this, { ...req, resourceId: id }, this.keepVersions);
  }

  /** `deskstore_versions`: the kept versions of a resource's data, newest first. */
  versions(idOrAlias: string): VersionsResult {
    const id = this.catalogue.resolveTable(idOrAlias) ?? idOrAlias;
    const r = this.catalogue.findResource(id);
    if (!r?.datastore) throw new NotFoundError(`Resource "${idOrAlias}" was not found.`);
    return { resource_id: r.id, versions: listVersions(r, r.datastore, resourceDir(this.dataDir, r.id)), keep: this.keepVersions };
  }

  /**
   * Which files `deskstore_changes` compares (versions/changes-plan.ts). A comparison with the
   * current version first folds its journal into its files, so they hold every acknowledged write.
   */
  async planChanges(idOrAlias: string, from: number | null, to: number | null): Promise<ChangesPlan> {
    const id = this.catalogue.resolveTable(idOrAlias) ?? idOrAlias;
    await this.foldJournal(id);
    return planChanges(this.catalogue, this.dataDir, id, from, to);
  }

  /** Refuses (ValidationError) a mirror whose ids or name are taken here by something else. */
  checkMirrorTarget(portal: string, packageId: string, name: string, resourceIds: readonly string[]): void {
    checkMirrorTarget(this.catalogue, portal, packageId, name, resourceIds);
  }

  /** A resource's table as stored (a sync diffs against its generation; a push sends its fields and key), or null. */
  tableFacts(resourceId: string): Pick<DatastoreRecord, 'generation' | 'fields' | 'primaryKey' | 'rowCount'> | null {
    const ds = this.catalogue.findResource(resourceId)?.datastore;
    return ds ? { generation: ds.generation, fields: ds.fields, primaryKey: ds.primaryKey, rowCount: ds.rowCount } : null;
  }

  /**
   * A mirror's or sync's outcome, in one catalogue commit (the commit point, as publishImport):
   * a crash before it leaves the previous versions, after it the new ones.
   */
  publishMirror(p: MirrorPublication): void {
    for (const r of p.resources) if (r.table || r.dropTable) this.cache.evict(r.id);
    const published = this.catalogue.commit(() => applyMirrorPublication(this.catalogue, p, this.keepVersions));
    for (const { resourceId, generation, kept } of published) {
      const dir = resourceDir(this.dataDir, resourceId);
      if (generation === 0) rmSync(dir, { recursive: true, force: true });
      else removeUnneededGenerations(dir, generation, kept);
    }
  }

  /** A mirrored dataset's sync schedule: every `everyHours` hours, or none (docs/versions.md). */
  setSyncSchedule(idOrName: string, everyHours: number | null): { id: string; every_hours: number | null } {
    return this.catalogue.commit(() => {
      const outcome = setSyncSchedule(this.catalogue, idOrName, everyHours);
      this.catalogue.noteSavedAnswer(outcome);
      return outcome;
    });
  }

  /** The mirrored datasets synced on a schedule, with when each was last synced. */
  scheduledSyncs(): ScheduledSync[] {
    return scheduledSyncs(this.catalogue);
  }

  detachMirror(id: string): { detached: string[] } {
    return this.catalogue.commit(() => {
      const outcome = detachMirror(this.catalogue, id);
      this.catalogue.noteSavedAnswer(outcome);
      return outcome;
    });
  }

  recordPush(resourceId: string, link: PushLink): void {
    this.catalogue.commit(() => recordPush(this.catalogue, resourceId, link));
  }

  /**
   * A crash can leave files no version points at: a generation written but never published,
   * a temporary file, the folder of an import that never finished. Nothing runs yet at
   * start-up, so everything the catalogue does not name can go.
   */
  private removeCrashLeftovers(): void {
    let folders: string[];
    try {
      folders = readdirSync(pathInside(this.dataDir, 'resources'));
    } catch {
      return;
    }
    try {
      for (const id of folders) {
        // Only folders a resource id can name are ours to clean; anything else is left alone.
        const dir = resourceDirIfValid(this.dataDir, id);
        if (!dir) continue;
        const datastore = this.catalogue.findResource(id)?.datastore;
        if (datastore) removeAllGenerationsBut(dir, datastore.generation, [...keptGenerations(datastore)]);
        else rmSync(dir, { recursive: true, force: true });
      }
    } catch (err) {
      // A read-only data directory can still be served; leftovers wait for a writable start.
      this.logger.warn(`could not remove leftover files: ${(err as Error).message}`);
    }
    removeUploadLeftovers(this.dataDir, (id) => this.catalogue.findResource(id) !== undefined, this.logger);
  }

  /** Clean shutdown: fold every journal into its table, so the next start replays nothing. */
  async close(): Promise<void> {
    await this.maintenance(0);
    this.cache.closeAll();
  }
}
