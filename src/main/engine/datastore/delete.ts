import { rmSync } from 'node:fs';
import { invalid } from '../../errors';
import type { EngineContext } from '../engine-context';
import type { JournalOp } from '../journal/journal-entry';
import { compileFilter } from '../search/column-predicates';
import { filterColumnsOf, parseFilters } from '../search/filters';
import { matchRows } from '../search/match-rows';
import { checkWritable, requireResourceUnlessForced } from './table-versions';
import { commitWrite } from './write-transaction';

/** datastore_delete / datastore_records_delete (docs/ckan-contract.md §8). */
export interface DeleteRequest {
  readonly resourceId: string;
  /** undefined or null: drop the whole table. */
  readonly filters?: unknown;
  readonly force: boolean;
  /** Set by the engine client: a filtered delete writes it into its journal entry (journal-entry.ts). */
  readonly writeId?: string;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export async function datastoreDelete(ctx: EngineContext, req: DeleteRequest): Promise<{ resourceId: string }> {
  requireResourceUnlessForced(ctx, req.resourceId, req.force);
  const resource = ctx.openResource(req.resourceId);
  const target = ctx.catalogue.findResource(resource.id);
  if (target) checkWritable(target, req.force);

  if (req.filters === undefined || req.filters === null) {
    // Drop the table and its aliases; the resource stays, with datastore_active false.
    ctx.catalogue.noteSavedAnswer({ resourceId: resource.id }); // resourceId may have been an alias, now gone
    ctx.catalogue.commit(() => ctx.catalogue.setDatastore(resource.id, null));
    ctx.cache.evict(resource.id);
    rmSync(resource.dir, { recursive: true, force: true });
    return { resourceId: resource.id };
  }

  if (!isPlainObject(req.filters)) throw invalid('filters', 'filters must be either a dict or null.');
  const node = parseFilters(req.filters, filterColumnsOf(resource.fields));
  const everything = Object.keys(req.filters).length === 0;
  const countBefore = resource.store.rowCount;
  const rows = everything ? null : matchRows(compileFilter(node, resource.store), resource.store, null);
  // An empty list of ops commits nothing.
  const ops: JournalOp[] = everything
    ? countBefore
      ? [{ t: 'truncate' }]
      : []
    : rows!.length
      ? [{ t: 'del', ids: Array.from(rows!) }]
      : [];
  await commitWrite(ctx, resource, () => ({ ops }), false, req.writeId);
  return { resourceId: resource.id };
}
