import { ValidationError, invalid } from '../../errors';
import { pythonRepr } from '../../util/python-repr';
import type { EngineContext } from '../engine-context';
import type { JournalOp } from '../journal/journal-entry';
import type { StoredValue } from '../values/coerce';
import { asBulkInsertError, coerceRecords, type RecordObject } from './records';
import { checkWritable, requireResourceUnlessForced } from './table-versions';
import { commitWrite } from './write-transaction';

/** datastore_upsert (docs/ckan-contract.md §7). */
export type UpsertMethod = 'upsert' | 'insert' | 'update';

export interface UpsertRequest {
  readonly resourceId: string;
  readonly records: unknown;
  readonly method: UpsertMethod;
  readonly force: boolean;
  readonly dryRun: boolean;
  /** Set by the engine client: written into the journal entry (journal-entry.ts). */
  readonly writeId?: string;
}

/**
 * CKAN 2.11's "key not found" names the key by its SQL bind parameters, a Python dict such as
 * `{'val_2': 'isbn-1'}`: the record's columns take `val_0`… first, then the key parts.
 */
function keyNotFound(record: RecordObject, columnIds: readonly string[], keyColumns: readonly string[]): ValidationError {
  let next = columnIds.filter((id) => id in record).length;
  const parts = '_id' in record && record._id !== undefined ? [record._id] : keyColumns.map((k) => record[k]);
  const dict = Object.fromEntries(parts.map((value) => [`val_${next++}`, value === '' ? null : value]));
  return invalid('key', `key "${pythonRepr(dict)}" not found`);
}

function checkRecords(raw: unknown, columns: ReadonlySet<string>, method: UpsertMethod): RecordObject[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalid('records', 'Not a list');
  raw.forEach((r, i) => {
    if (r === null || typeof r !== 'object' || Array.isArray(r)) throw invalid('records', `row "${i}" is not a json object`);
  });
  const records = raw as RecordObject[];
  // `_id` names the row to update; an insert may not choose it (CKAN: an extra key).
  const unknown = [
    ...new Set(records.flatMap((r) => Object.keys(r)).filter((k) => (method === 'insert' || k !== '_id') && !columns.has(k))),
  ];
  if (unknown.length) {
    if (method === 'insert') {
      const row = records.findIndex((r) => Object.keys(r).some((k) => unknown.includes(k)));
      const extra = Object.keys(records[row]!).filter((k) => unknown.includes(k));
      throw invalid('records', `row "${row + 1}" has extra keys "${extra.join(', ')}"`);
    }
    throw invalid('fields', `fields "${unknown.join(', ')}" do not exist`);
  }
  return records;
}

export async function datastoreUpsert(ctx: EngineContext, req: UpsertRequest): Promise<void> {
  requireResourceUnlessForced(ctx, req.resourceId, req.force);
  const resource = ctx.openResource(req.resourceId);
  const target = ctx.catalogue.findResource(resource.id);
  if (target) checkWritable(target, req.force);
  const types = new Map(resource.fields.map((f) => [f.id, f.type]));
  const records = checkRecords(req.records, new Set(types.keys()), req.method);
  const bulk = req.method === 'insert';
  let values: ReturnType<typeof coerceRecords>;
  try {
    values = coerceRecords(records, types);
  } catch (err) {
    throw bulk ? asBulkInsertError(err, records.length) : err;
  }
  const keyColumns = resource.record.primaryKey;

  // Every column, null where the record has none: what a new row stores.
  const columnIds = [...types.keys()];
  const wholeRow = (v: ReadonlyMap<string, StoredValue>): Record<string, StoredValue> =>
    Object.fromEntries(columnIds.map((id) => [id, v.get(id) ?? null]));

  await commitWrite(
    ctx,
    resource,
    (state) => {
      const ops: JournalOp[] = [];
      const run = (op: JournalOp, row: number) => {
        try {
          state.apply(op, row);
        } catch (err) {
          if (err instanceof ValidationError && 'records_row' in err.members) {
            throw new ValidationError({ ...err.members, records_row: bulk ? records.length - 1 : row });
          }
          throw err;
        }
        ops.push(op);
      };
      values.forEach((v, row) => {
        const record = records[row]!;
        if (req.method === 'insert') {
          run({ t: 'put', id: state.nextId(), v: wholeRow(v) }, row);
          return;
        }
        const byId = record._id !== undefined && record._id !== null;
        if (!byId && keyColumns.length === 0) throw invalid('table', 'unique key must be passed for update/upsert');
        if (!byId) {
          const missing = keyColumns.filter((k) => !(k in record));
          if (missing.length) {
            throw invalid('key', `fields "${missing.join(', ')}" are missing\n                            but needed as key`);
          }
        }
        const id = Number(record._id);
        const existing = byId
          ? Number.isInteger(id) && state.exists(id)
            ? id
            : null
          : state.findByKey(keyColumns.map((k) => v.get(k) ?? null));
        if (existing !== null) {
          run({ t: 'set', id: existing, v: Object.fromEntries(v) }, row);
        } else if (req.method === 'update') {
          throw keyNotFound(record, columnIds, keyColumns);
        } else {
          // 2.9–2.11: an upserted row whose `_id` does not exist gets a fresh `_id`.
          run({ t: 'put', id: state.nextId(), v: wholeRow(v) }, row);
        }
      });
      return { ops };
    },
    req.dryRun,
    req.writeId,
  );
}
