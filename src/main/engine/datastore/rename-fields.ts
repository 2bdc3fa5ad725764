import { ValidationError } from '../../errors';
import { checkNotMirrored } from '../catalogue/mirror-guard';
import type { DatastoreRecord, StoredField } from '../catalogue/records';
import { Column } from '../column-store/column';
import { TableStore } from '../column-store/table-store';
import type { EngineContext } from '../engine-context';
import { removeGenerationFiles, removeUnneededGenerations, writeResourceFiles } from '../storage/resource-files';
import { succeed } from '../versions/version-history';
import { checkFieldName } from './field-validation';
import { MAX_IDENTIFIER_BYTES, utf8Bytes } from '../../../shared/identifier-bytes';

/**
 * Renaming columns of a local table (`deskstore_rename_fields`, docs/versions.md "Renaming
 * columns"). Rather than edit a generation's files in place, the rename publishes a new
 * **version** of the resource: the same rows written under the new names (columns file, full
 * text, SQLite table file), made current by one catalogue commit, as an import's publication
 * is. A crash before the commit leaves the old version and an orphan generation the next start
 * removes; after it, the renamed one. The version it replaces stays in the versions list.
 */

export interface RenameRequest {
  readonly resourceId: string;
  /** Old name → new name. */
  readonly renames: Readonly<Record<string, string>>;
}

export interface RenameOutcome {
  readonly resourceId: string;
  readonly fields: readonly StoredField[];
  readonly renamed: readonly { from: string; to: string }[];
  /** The version the rename published; null when no name changed. */
  readonly version: number | null;
}

/**
 * The checks, all before anything is written: every old name a column of the table, every new
 * name one datastore_create would take (and no longer than a portal keeps), no two columns
 * named alike afterwards (ASCII case folded, as SQLite folds it in column names).
 */
export function plannedFields(fields: readonly StoredField[], renames: Readonly<Record<string, string>>): StoredField[] {
  const names = new Set(fields.map((f) => f.id));
  for (const from of Object.keys(renames)) {
    if (!names.has(from)) throw new ValidationError({ fields: [`field "${from}" not in table`] });
  }
  for (const to of Object.values(renames)) {
    checkFieldName(to);
    if (utf8Bytes(to) > MAX_IDENTIFIER_BYTES) {
      throw new ValidationError({ fields: [`Column heading "${to}" exceeds limit of ${MAX_IDENTIFIER_BYTES} bytes.`] });
    }
  }
  const renamed = fields.map((f) => (Object.hasOwn(renames, f.id) ? { ...f, id: renames[f.id]! } : f));
  const seen = new Set<string>();
  for (const f of renamed) {
    if (seen.has(f.id.toLowerCase())) throw new ValidationError({ field: ['Duplicate column names are not supported'] });
    seen.add(f.id.toLowerCase());
  }
  return renamed;
}

/**
 * The checks of a rename against the catalogue alone, before the journal is folded (a refused
 * rename writes nothing): the renamed fields, or null for a resource without a table (which
 * openResource then reports as not found).
 */
export function checkRename(ctx: EngineContext, resourceId: string, renames: Readonly<Record<string, string>>): StoredField[] | null {
  const record = ctx.catalogue.findResource(resourceId);
  if (!record?.datastore) return null;
  checkNotMirrored(record, 'resource'); // the next sync would bring the portal's names back
  return plannedFields(record.datastore.fields, renames);
}

/** The key and indexes name columns too: they follow the rename. */
function renameKeys(ds: DatastoreRecord, to: (name: string) => string): Pick<DatastoreRecord, 'primaryKey' | 'indexes'> {
  return { primaryKey: ds.primaryKey.map(to), indexes: ds.indexes.map((index) => index.map(to)) };
}

/**
 * Publishes the renamed version. The caller has folded the journal into the current
 * generation's files (Engine.renameFields), so the open table is exactly what they hold.
 */
export function renameFields(ctx: EngineContext, req: RenameRequest, keepVersions: number): RenameOutcome {
  const resource = ctx.openResource(req.resourceId);
  const record = ctx.catalogue.findResource(resource.id);
  const ds = resource.record;
  const fields = checkRename(ctx, resource.id, req.renames) ?? plannedFields(ds.fields, req.renames);
  const changes = ds.fields.map((f, i) => ({ from: f.id, to: fields[i]!.id })).filter((c) => c.from !== c.to);
  if (changes.length === 0 || !record) return { resourceId: resource.id, fields: ds.fields, renamed: [], version: null };

  const newName = new Map(changes.map((c) => [c.from, c.to]));
  const to = (name: string): string => newName.get(name) ?? name;
  // The same columns (values and codes shared, not copied) under their new names.
  const store = resource.store;
  const columns = store.columns.map((c) => (newName.has(c.id) ? new Column(to(c.id), c.type, c.values, c.codes, c.mayRepeat) : c));
  const renamedStore = new TableStore(columns, store.live, store.maxRowId);
  const generation = ctx.nextGeneration(resource.id);
  let sizeBytes: number;
  try {
    sizeBytes = writeResourceFiles(
      resource.dir,
      generation,
      resource.id,
      resource.fields.map((f) => ({ ...f, id: to(f.id) })),
      {
        store: renamedStore,
        textIndex: resource.textIndex.compact(),
        indexedColumns: [...resource.indexedColumns].map(to),
        ftsLanguage: resource.ftsLanguage,
      },
    );
  } catch (err) {
    ctx.cache.evict(resource.id); // compacting may have changed the open table's text index
    removeGenerationFiles(resource.dir, generation);
    throw err;
  }
  const succession = succeed(record, ds, 'rename', keepVersions);
  const updated = new Date().toISOString();
  const outcome: RenameOutcome = { resourceId: resource.id, fields, renamed: changes, version: succession.version.number };
  // The open table still names the old columns: the next request loads the new version.
  ctx.cache.evict(resource.id);
  ctx.catalogue.commit(() => {
    ctx.catalogue.setDatastore(resource.id, {
      ...ds,
      ...renameKeys(ds, to),
      generation,
      fields,
      sizeBytes,
      rowCount: store.rowCount,
      updated,
      version: succession.version,
      olderVersions: succession.olderVersions,
    });
    record.lastModified = updated.replace('Z', '');
    ctx.catalogue.noteSavedAnswer(outcome); // what a crash's retry answers (Engine.writeOutcome)
  });
  removeUnneededGenerations(
    resource.dir,
    generation,
    succession.olderVersions.map((v) => v.generation),
  );
  return outcome;
}
