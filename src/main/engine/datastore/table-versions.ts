import { NotFoundError, ValidationError } from '../../errors';
import type { ResourceRecord } from '../catalogue/records';
import { checkNotMirrored } from '../catalogue/mirror-guard';
import type { EngineContext } from '../engine-context';
import type { OpenResource } from '../resources/open-resource';
import { MutableTextIndex, type InvertedIndex } from '../fts';
import { removeUnneededGenerations, writeResourceFiles } from '../storage/resource-files';
import { buildStoreColumnTerms, openedColumnTerms, type BuiltColumnTerms } from '../text-index/stored-column-terms';

/**
 * A mirror is never written (mirror-guard.ts). Only datastore-only resources may be written without `force` (CKAN's read-only check:
 * their data would otherwise be overwritten by the next load from the source file).
 */
export function checkWritable(resource: ResourceRecord, force: boolean): void {
  checkNotMirrored(resource, 'resource'); // even with force: the next sync would undo the change
  if (force || resource.urlType === 'datastore') return;
  throw new ValidationError({
    'read-only': [
      'Cannot edit read-only resource because changes made may be lost. Use a resource created for ' +
        'editing e.g. with datastore_create or use "force=True" to ignore this warning.',
    ],
  });
}

/**
 * Without `force`, CKAN's read-only check runs first and looks the id up with resource_show,
 * which knows resources, not aliases or tables: an unknown id is a bare `Not found` there,
 * and only a forced write reaches the DataStore's `Resource "<id>" was not found.`
 */
export function requireResourceUnlessForced(ctx: EngineContext, id: string, force: boolean): void {
  if (!force && !ctx.catalogue.findResource(id)) throw new NotFoundError();
}

/**
 * Writes the resource's current state as a new generation (the table file written from the
 * column store, the columns file, the compacted full-text index), then points the catalogue
 * at it. If anything fails the
 * in-memory state may be ahead of the disk, so the resource is evicted: the next request
 * reloads the last durable version and nothing unacknowledged appears.
 */
export function writeGeneration(ctx: EngineContext, resource: OpenResource): void {
  const generation = ctx.nextGeneration(resource.id);
  let compacted: InvertedIndex;
  let columnTerms: BuiltColumnTerms[];
  try {
    compacted = resource.textIndex.compact();
    columnTerms = buildStoreColumnTerms(resource.store, resource.ftsLanguage, resource.indexedColumns);
    const sizeBytes = writeResourceFiles(resource.dir, generation, resource.id, resource.fields, {
      store: resource.store,
      textIndex: compacted,
      indexedColumns: [...resource.indexedColumns],
      ftsLanguage: resource.ftsLanguage,
      columnTerms,
    });
    resource.record = {
      ...resource.record,
      generation,
      sizeBytes,
      rowCount: resource.store.rowCount,
      updated: new Date().toISOString(),
    };
    const updated = resource.record.updated.replace('Z', '');
    ctx.catalogue.commit(() => {
      ctx.catalogue.setDatastore(resource.id, resource.record);
      const target = ctx.catalogue.findResource(resource.id);
      if (target) target.lastModified = updated;
    });
  } catch (err) {
    ctx.cache.evict(resource.id);
    throw err;
  }
  resource.startNewJournal();
  resource.replaceTextIndex(new MutableTextIndex(compacted), resource.indexedColumns, openedColumnTerms(columnTerms));
  ctx.cache.put(resource);
  // Earlier versions keep their files (docs/versions.md): a checkpoint replaces only the current one's.
  removeUnneededGenerations(
    resource.dir,
    generation,
    (resource.record.olderVersions ?? []).map((v) => v.generation),
  );
}
