import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StorageError } from '../../errors';
import { writeFileDurably } from '../storage/durable-files';
import { resourceFolderKey } from '../../storage/data-paths';
import { injectedCrash } from '../test-faults';
import type { CatalogueFile, DatastoreRecord, GroupRecord, PackageRecord, ResourceRecord, SavedWrite } from './records';

const FILE_NAME = 'catalogue.json';

/** How many saved writes the file remembers: only the one running at a crash is ever asked about. */
const SAVED_WRITES_KEPT = 64;

/** The write request being run, whose id a commit saves with its change. */
interface CurrentWrite {
  readonly id: string;
  /** What the request asked (the crash tests' injected faults match on it, test-faults.ts). */
  readonly request: unknown;
  answer?: unknown;
}

/**
 * Datasets, resources and aliases of one data directory, kept in memory and written as one
 * JSON file by temp-file + rename after every change. It is the commit point of imports and
 * table changes: a resource's data files are only reachable once the catalogue names them.
 */
export class Catalogue {
  private readonly packages = new Map<string, PackageRecord>();
  private readonly resources = new Map<string, ResourceRecord>();
  private readonly aliases = new Map<string, string>();
  /** Organizations and groups by id. */
  private readonly groups = new Map<string, GroupRecord>();
  /** Resource ids by the folder they name on a case-insensitive disk (data-paths.ts). */
  private readonly folders = new Map<string, string>();
  private savedWrites: SavedWrite[] = [];
  private current: CurrentWrite | null = null;

  private constructor(
    private readonly path: string,
    data: CatalogueFile,
  ) {
    this.load(data);
  }

  private load(data: Pick<CatalogueFile, 'packages' | 'resources' | 'groups' | 'writes'>): void {
    this.savedWrites = [...(data.writes ?? [])];
    this.packages.clear();
    this.resources.clear();
    this.aliases.clear();
    this.folders.clear();
    this.groups.clear();
    for (const p of data.packages) this.packages.set(p.id, p);
    for (const g of data.groups ?? []) this.groups.set(g.id, g);
    for (const r of data.resources) {
      this.resources.set(r.id, r);
      this.folders.set(resourceFolderKey(r.id), r.id);
      for (const alias of r.datastore?.aliases ?? []) this.aliases.set(alias, r.id);
    }
  }

  static open(dataDir: string): Catalogue {
    const path = join(dataDir, FILE_NAME);
    if (!existsSync(path)) return new Catalogue(path, { version: 1, packages: [], resources: [] });
    let data: CatalogueFile;
    try {
      data = JSON.parse(readFileSync(path, 'utf8')) as CatalogueFile;
    } catch (err) {
      throw new StorageError(
        `The catalogue ${path} cannot be read (${(err as Error).message}); restore it from a backup or move it away to start empty`,
      );
    }
    if (data.version !== 1) throw new StorageError(`The catalogue ${path} has unknown version ${String(data.version)}`);
    return new Catalogue(path, data);
  }

  /**
   * Runs a change and saves it. If the change or the save fails, the in-memory catalogue goes
   * back to a copy taken before, so it never runs ahead of what is durable.
   */
  commit<T>(change: () => T): T {
    const before = JSON.stringify(this.contents());
    try {
      const result = change();
      if (this.current) this.rememberSaved(this.current);
      injectedCrash('before-commit', this.current?.request);
      this.save();
      injectedCrash('after-commit', this.current?.request);
      return result;
    } catch (err) {
      this.load(JSON.parse(before) as CatalogueFile);
      throw err;
    }
  }

  private contents(): CatalogueFile {
    return {
      version: 1,
      packages: [...this.packages.values()],
      resources: [...this.resources.values()],
      groups: [...this.groups.values()],
      writes: this.savedWrites,
    };
  }

  /**
   * From here until `endWrite`, commits save `id` with their change: the commit that makes the
   * request's change durable also records that it did, in the same file, so that a crash
   * cannot leave its outcome unknown (engine-client.ts asks `savedWrite` after a restart).
   */
  beginWrite(id: string, request: unknown): void {
    this.current = { id, request };
  }

  endWrite(): void {
    this.current = null;
  }

  /**
   * Runs commits that are not the running request's change (a checkpoint folding the journal
   * before a new version is published): they must not save its id, or a crash after them would
   * answer the request as saved before its own commit was made.
   */
  outsideWrite<T>(run: () => T): T {
    const current = this.current;
    this.current = null;
    try {
      return run();
    } finally {
      this.current = current;
    }
  }

  /**
   * What the running request's answer needs if a crash comes after its commit and before the
   * answer (a created record's id); saved with the id by the commit.
   */
  noteSavedAnswer(answer: unknown): void {
    if (this.current) this.current.answer = answer;
  }

  /** The saved write with this id, if a commit saved it. */
  savedWrite(id: string): SavedWrite | undefined {
    return this.savedWrites.find((s) => s.w === id);
  }

  private rememberSaved(write: CurrentWrite): void {
    const saved: SavedWrite = { w: write.id, ...(write.answer === undefined ? {} : { a: write.answer }) };
    this.savedWrites = [...this.savedWrites.filter((s) => s.w !== write.id), saved].slice(-SAVED_WRITES_KEPT);
  }

  save(): void {
    writeFileDurably(this.path, [Buffer.from(JSON.stringify(this.contents(), null, 1))]);
  }

  /** An organization (or a group) by id or name. */
  findGroup(idOrName: string, isOrganization: boolean): GroupRecord | undefined {
    const byId = this.groups.get(idOrName);
    if (byId) return byId.isOrganization === isOrganization ? byId : undefined;
    for (const g of this.groups.values()) if (g.name === idOrName && g.isOrganization === isOrganization) return g;
    return undefined;
  }

  /** Organizations or groups, with any id or name (CKAN names are unique across both). */
  listGroups(isOrganization: boolean): GroupRecord[] {
    return [...this.groups.values()].filter((g) => g.isOrganization === isOrganization);
  }

  /** Any organization or group holding this id or name, whichever kind. */
  groupNamed(idOrName: string): GroupRecord | undefined {
    return this.groups.get(idOrName) ?? [...this.groups.values()].find((g) => g.name === idOrName);
  }

  groupById(id: string): GroupRecord | undefined {
    return this.groups.get(id);
  }

  putGroup(record: GroupRecord): void {
    this.groups.set(record.id, record);
  }

  /** By id or name, as package_show accepts either. */
  findPackage(idOrName: string): PackageRecord | undefined {
    const byId = this.packages.get(idOrName);
    if (byId) return byId;
    for (const p of this.packages.values()) if (p.name === idOrName) return p;
    return undefined;
  }

  listPackages(): PackageRecord[] {
    return [...this.packages.values()];
  }

  putPackage(record: PackageRecord): void {
    this.packages.set(record.id, record);
  }

  deletePackage(id: string): void {
    this.packages.delete(id);
  }

  findResource(id: string): ResourceRecord | undefined {
    return this.resources.get(id);
  }

  allResources(): ResourceRecord[] {
    return [...this.resources.values()];
  }

  resourcesOf(packageId: string): ResourceRecord[] {
    return [...this.resources.values()].filter((r) => r.packageId === packageId);
  }

  putResource(record: ResourceRecord): void {
    this.resources.set(record.id, record);
    this.folders.set(resourceFolderKey(record.id), record.id);
  }

  /** The resource whose folder `id` would share on a case-insensitive disk, if any. */
  resourceSharingFolder(id: string): ResourceRecord | undefined {
    const owner = this.folders.get(resourceFolderKey(id));
    return owner === undefined ? undefined : this.resources.get(owner);
  }

  deleteResource(id: string): void {
    const r = this.resources.get(id);
    for (const alias of r?.datastore?.aliases ?? []) this.aliases.delete(alias);
    this.resources.delete(id);
    if (this.folders.get(resourceFolderKey(id)) === id) this.folders.delete(resourceFolderKey(id));
  }

  /** A resource id or one of its aliases → the resource id, if it names a DataStore table. */
  resolveTable(idOrAlias: string): string | undefined {
    const direct = this.resources.get(idOrAlias);
    if (direct?.datastore) return direct.id;
    return this.aliases.get(idOrAlias);
  }

  aliasOwner(alias: string): string | undefined {
    return this.aliases.get(alias);
  }

  setDatastore(resourceId: string, datastore: DatastoreRecord | null): void {
    const r = this.resources.get(resourceId);
    if (!r) throw new Error(`no resource ${resourceId}`);
    for (const alias of r.datastore?.aliases ?? []) this.aliases.delete(alias);
    r.datastore = datastore;
    for (const alias of datastore?.aliases ?? []) this.aliases.set(alias, resourceId);
  }
}
