import { TableStore, fieldTypeOf, buildResourceVersion, CoercionError, diffGenerations } from '../engine/importer-api';
import type { TextSearchLanguage } from '../../shared/text-search-languages';
import type { StoredValue } from '../engine/engine-api';
import type { RowChanges } from '../../shared/portal';
import { importCancelled, ImportInputError, rowsPastTotal } from './import-errors';
import { readJsonDump } from './json-dump-reader';
import { portalCell } from './portal-cells';
import { textIndexHelperIn } from './worker-runner';

/**
 * Rows whose types are already known (a portal's DataStore: its data dictionary is the truth)
 * → a new generation of a resource's files, with no inference: each value goes through the
 * engine's own coercion (portal-cells.ts: numbers and JSON cells by their exact text), and
 * keeps the portal's `_id`. The source is a file in the JSON dump's shape, written from the
 * portal's `datastore_search` (or `datastore_search_sql`) pages. Publishing is the caller's step.
 */
export interface TypedImportOptions {
  readonly path: string;
  readonly resourceId: string;
  readonly dir: string;
  readonly generation: number;
  /** The portal's fields without `_id`, in its order; `type` is a CKAN type name. */
  readonly fields: readonly { id: string; type: string }[];
  readonly ftsLanguage: TextSearchLanguage;
  /** The version now published, to report what changed (sync). */
  readonly previousGeneration?: number;
  /** Its `_id`s were the portal's too: rows may be matched by them (versions/row-diff.ts). */
  readonly previousPortalIds?: boolean;
  readonly textIndexWorker?: URL;
  readonly signal?: AbortSignal;
  readonly onProgress?: (rows: number) => void;
  /** The rows the portal announced: reading stops at the first row past them (a dump that never ends). */
  readonly maxRows?: number;
}

export interface TypedImportResult {
  readonly rows: number;
  readonly maxId: number;
  readonly storedBytes: number;
  readonly changes: RowChanges | null;
}

export async function importTypedRows(opts: TypedImportOptions): Promise<TypedImportResult> {
  const columns = opts.fields.map((f) => ({ id: f.id, type: fieldTypeOf(f.type) }));
  const store = TableStore.empty(columns);
  /** For each dump position, the column it fills (-1: `_id`, -2: a field we do not keep). */
  let slots: number[] = [];
  let lastId = 0;
  const values = new Map<string, StoredValue>();
  let rows = 0;
  await readJsonDump(
    opts.path,
    (header) => {
      const ids = header.fields.map((f) => f.id);
      for (const c of columns) {
        if (!ids.includes(c.id)) throw new ImportInputError(`The dump has no column "${c.id}" that the portal's data dictionary lists.`);
      }
      slots = ids.map((id) => (id === '_id' ? -1 : columns.findIndex((c) => c.id === id)));
    },
    (record) => {
      if (opts.maxRows !== undefined && rows >= opts.maxRows) throw rowsPastTotal(opts.maxRows);
      values.clear();
      let id = 0;
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i]!;
        if (slot === -1) {
          id = Number(JSON.parse(record[i]!));
          continue;
        }
        if (slot < 0) continue;
        const column = columns[slot]!;
        try {
          values.set(column.id, portalCell(record[i] ?? 'null', column.type));
        } catch (err) {
          if (!(err instanceof CoercionError) && !(err instanceof SyntaxError)) throw err;
          throw new ImportInputError(`Row _id ${id || rows + 1}, column "${column.id}" (${column.type.name}): ${err.message}`);
        }
      }
      if (!slots.includes(-1)) id = lastId + 1;
      if (!Number.isInteger(id) || id <= lastId) {
        throw new ImportInputError(`The dump's rows are not in increasing _id order (_id ${String(id)} after ${lastId}).`);
      }
      lastId = id;
      store.putRow(id, values);
      rows++;
      if (rows % 10_000 === 0) {
        opts.onProgress?.(rows);
        if (opts.signal?.aborted) throw importCancelled();
      }
    },
    opts.signal,
  );
  opts.onProgress?.(rows);

  // The engine's one entry point stores the version, as for every other import.
  const { storedBytes } = await buildResourceVersion({
    resourceId: opts.resourceId,
    dir: opts.dir,
    generation: opts.generation,
    columns: store.columns,
    rows: store.maxRowId,
    live: store.live,
    ftsLanguage: opts.ftsLanguage,
    ...(opts.textIndexWorker ? { textIndexHelper: textIndexHelperIn(opts.textIndexWorker) } : {}),
    checkCancelled: () => {
      if (opts.signal?.aborted) throw importCancelled();
    },
  });
  // Compared as deskstore_changes compares them (from the files, rows matched the same way), so the two agree.
  const changes =
    opts.previousGeneration !== undefined
      ? diffGenerations(opts.dir, opts.previousGeneration, opts.generation, {
          primaryKey: [],
          rowIdsStable: opts.previousPortalIds ?? false,
        })
      : null;
  return { rows, maxId: lastId, storedBytes, changes };
}
