import { ValidationError, invalid } from '../../errors';
import type { DatastoreRecord, ResourceRecord } from '../catalogue/records';
import { createResource } from '../catalogue/catalogue-operations';
import { TableStore } from '../column-store/table-store';
import { resolveFieldType, type FieldType } from '../field-types';
import { MutableTextIndex } from '../fts';
import { OpenResource } from '../resources/open-resource';
import { checkUniqueKey } from './unique-key';
import { WriteState } from './write-state';
import type { StoredValue } from '../values/coerce';
import { resourceDir } from '../../storage/data-paths';
import { buildTextIndex } from '../text-index/build-text-index';
import { chooseIndexedColumns } from '../text-index/text-layout';
import type { EngineContext } from '../engine-context';
import { checkAliasName, guessType, parseRequestedFields, type RequestedField } from './field-validation';
import { asBulkInsertError, asRecordList, checkNoExtraKeys, coerceRecords, type RecordObject } from './records';
import { ckanIndexName } from './index-name';
import { pythonRepr } from '../../util/python-repr';
import { applyEntryToMemory } from '../journal/apply-entry';
import type { JournalEntry } from '../journal/journal-entry';
import { checkWritable, writeGeneration } from './table-versions';

/** datastore_create (docs/ckan-contract.md §6) on a new or an existing table. */
export interface CreateRequest {
  readonly resourceId?: string;
  readonly resource?: Record<string, unknown>;
  readonly fields?: unknown;
  readonly records?: unknown;
  readonly primaryKey?: readonly string[];
  readonly indexes?: readonly (readonly string[])[];
  /** How each index was written, for CKAN's error message (`dummy`, `['a', 'b']`). */
  readonly indexLabels?: readonly string[];
  readonly aliases?: readonly string[];
  readonly force: boolean;
  readonly deleteFields: boolean;
}

export interface CreateOutcome {
  readonly resourceId: string;
  /**
   * The type guessed for each requested field that had none and is new to the table, as
   * CKAN writes it into the request it echoes (`int`, `float`, `numeric`, `timestamp`, …).
   */
  readonly guessed: Readonly<Record<string, string>>;
}

export async function datastoreCreate(ctx: EngineContext, req: CreateRequest): Promise<CreateOutcome> {
  if (req.resource && req.resourceId) throw invalid('resource', 'resource cannot be used with resource_id');
  if (!req.resource && !req.resourceId) throw invalid('resource_id', 'resource_id or resource required');
  const requested = parseRequestedFields(req.fields);
  const records = asRecordList(req.records);
  for (const alias of req.aliases ?? []) checkAliasName(alias);

  let target: ResourceRecord;
  if (req.resource) {
    // A datastore-only resource (`url_type: datastore`), created in the same request.
    target = createResource(ctx.catalogue, { ...req.resource, url_type: 'datastore', url: '_datastore_only_resource' });
  } else {
    const found = ctx.catalogue.findResource(req.resourceId!);
    if (!found) throw invalid('resource_id', 'Not found: Resource');
    checkWritable(found, req.force);
    target = found;
  }
  for (const alias of req.aliases ?? []) {
    const owner = ctx.catalogue.aliasOwner(alias);
    if ((owner && owner !== target.id) || (ctx.catalogue.findResource(alias) && alias !== target.id)) {
      throw invalid('alias', `The alias "${alias}" already exists.`);
    }
  }
  const existing = new Set(target.datastore?.fields.map((f) => f.id) ?? []);
  const guessed = Object.fromEntries(
    requested.filter((f) => f.type === null && !existing.has(f.id)).map((f) => [f.id, guessType(records[0]?.[f.id]) ?? 'text']),
  );
  const outcome: CreateOutcome = { resourceId: target.id, guessed };
  // Saved with the table's commit: the answer if the engine crashes before giving it.
  ctx.catalogue.noteSavedAnswer(outcome);
  try {
    if (target.datastore) await extendTable(ctx, target, requested, records, req);
    else await createTable(ctx, target, requested, records, req);
    return outcome;
  } catch (err) {
    if (req.resource) ctx.catalogue.deleteResource(target.id); // all or nothing, as CKAN's transaction
    throw err;
  }
}

/** datastore_create inserts its records in one statement: errors name the last row (records.ts). */
function coerceInserted(records: readonly RecordObject[], types: ReadonlyMap<string, FieldType>): ReturnType<typeof coerceRecords> {
  try {
    return coerceRecords(records, types);
  } catch (err) {
    throw asBulkInsertError(err, records.length);
  }
}

type NewColumn = { id: string; type: FieldType; info?: Record<string, unknown> };

/** What the catalogue stores of a column. */
const storedField = (c: NewColumn) => ({ id: c.id, type: c.type.name, ...(c.info ? { info: c.info } : {}) });

/**
 * The requested fields followed by the first record's other keys (those not in `skip`, the
 * table's current columns), as CKAN adds columns for a new or an existing table.
 */
function withRecordKeys(
  requested: readonly RequestedField[],
  first: RecordObject | undefined,
  skip: ReadonlySet<string>,
): RequestedField[] {
  const ids = new Set(requested.map((f) => f.id));
  const extra = Object.keys(first ?? {}).filter((k) => !ids.has(k) && !skip.has(k));
  return [...requested, ...extra.map((id): RequestedField => ({ id, type: null }))];
}

/**
 * New columns with their types, guessed from the first record where none is given. Every
 * name is checked here, whichever way it came.
 */
function resolveColumns(wanted: readonly RequestedField[], first: RecordObject | undefined): NewColumn[] {
  for (const { id } of wanted)
    if (id.startsWith('_') || id.trim() !== id || id === '') throw invalid('fields', `"${id}" is not a valid field name`);
  return wanted.map((f) => {
    if (f.type) return { id: f.id, type: f.type, ...(f.info ? { info: f.info } : {}) };
    const guessed = guessType(first?.[f.id]);
    if (!guessed) throw invalid('fields', `"${f.id}" type not guessable`);
    return { id: f.id, type: resolveFieldType(guessed)!, ...(f.info ? { info: f.info } : {}) };
  });
}

/**
 * CKAN checks `indexes` and then `primary_key` (appended to the index list) in create_indexes
 * and words both alike under `index`, printing the index as it was given: a name for a
 * one-column index from a comma string, else Python's repr of the list (`['nope']`).
 */
function checkKeyColumns(req: CreateRequest, primaryKey: readonly string[], columns: ReadonlySet<string>): void {
  const checks = [
    ...(req.indexes ?? []).map((index, i) => ({ index, label: req.indexLabels?.[i] ?? pythonRepr(index) })),
    { index: primaryKey, label: pythonRepr(primaryKey) },
  ];
  for (const { index, label } of checks) {
    if (index.some((name) => !columns.has(name))) {
      throw new ValidationError({ index: [`The field "${label}" is not a valid column name.`] });
    }
  }
}

async function createTable(
  ctx: EngineContext,
  target: ResourceRecord,
  requested: readonly RequestedField[],
  records: RecordObject[],
  req: CreateRequest,
): Promise<void> {
  const columns = resolveColumns(withRecordKeys(requested, records[0], new Set()), records[0]);
  const names = new Set(columns.map((c) => c.id));
  if (names.size !== columns.length) throw invalid('field', 'Duplicate column names are not supported');
  checkNoExtraKeys(records, names, 1);
  const primaryKey = req.primaryKey ?? [];
  checkKeyColumns(req, primaryKey, names);
  const values = coerceInserted(records, new Map(columns.map((c) => [c.id, c.type])));

  const store = TableStore.empty(columns);
  values.forEach((v, i) => store.putRow(i + 1, v));
  if (primaryKey.length)
    checkUniqueKey(
      values.map((v) => primaryKey.map((k) => v.get(k) ?? null)),
      target.id,
      primaryKey,
      columns,
    );
  const language = ctx.defaultFtsLanguage;
  const indexed = new Set(chooseIndexedColumns(store));
  const text = new MutableTextIndex(buildTextIndex(store, language, indexed));
  const fields = columns.map(storedField);
  const record: DatastoreRecord = {
    generation: 0,
    fields,
    primaryKey,
    indexes: req.indexes ?? [],
    aliases: [...(req.aliases ?? [])].reverse(),
    ftsLanguage: language,
    rowCount: store.rowCount,
    sizeBytes: 0,
    updated: new Date().toISOString(),
    version: { number: 1, created: new Date().toISOString(), source: 'create' },
  };
  const resource = new OpenResource(target.id, resourceDir(ctx.dataDir, target.id), record, store, text, indexed);
  writeGeneration(ctx, resource);
}

async function extendTable(
  ctx: EngineContext,
  target: ResourceRecord,
  requested: readonly RequestedField[],
  records: RecordObject[],
  req: CreateRequest,
): Promise<void> {
  const resource = ctx.openResource(target.id);
  const existing = new Map(resource.fields.map((f) => [f.id, f.type]));
  const added = resolveColumns(
    withRecordKeys(
      requested.filter((f) => !existing.has(f.id)),
      records[0],
      new Set([...existing.keys(), ...requested.map((f) => f.id)]),
    ),
    records[0],
  );
  const kept = req.deleteFields ? resource.fields.filter((f) => requested.some((r) => r.id === f.id)) : resource.fields;
  const dropped = resource.fields.filter((f) => !kept.includes(f));
  const all: NewColumn[] = [...kept, ...added];
  const names = new Set(all.map((c) => c.id));
  checkNoExtraKeys(records, names, 0);
  const primaryKey = req.primaryKey ?? resource.record.primaryKey.filter((k) => names.has(k));
  checkKeyColumns(req, primaryKey, names);
  const values = coerceInserted(records, new Map(all.map((c) => [c.id, c.type])));
  let next = resource.store.maxRowId;
  const entry: JournalEntry = { ops: values.map((v) => ({ t: 'put', id: ++next, v: Object.fromEntries(v) })) };

  // CKAN recreates the unique index only when the key changes, after inserting the records:
  // an unchanged key rejects duplicate records (`records`), a new one existing duplicates.
  const current = resource.record.primaryKey;
  const keyChanged = req.primaryKey !== undefined && [...req.primaryKey].sort().join('\u0000') !== [...current].sort().join('\u0000');
  // The records, checked as SQLite's transaction did: against the unchanged key's unique index
  // as they are inserted, or, for a new key, every row against the others once they are in.
  if (!keyChanged && current.length) {
    const state = new WriteState(resource.store, resource.keyIndex(), ckanIndexName(target.id, current, all));
    try {
      for (const [row, op] of entry.ops.entries()) state.apply(op, row);
    } catch (err) {
      throw asBulkInsertError(err, records.length);
    }
  }
  if (keyChanged && primaryKey.length) {
    const store = resource.store;
    const columns = primaryKey.map((id) => store.column(id));
    const rows = function* (): Generator<StoredValue[]> {
      for (const id of store.liveRowIds()) yield columns.map((c) => c?.valueOf(id) ?? null);
      for (const op of entry.ops) if (op.t === 'put') yield primaryKey.map((k) => op.v[k] ?? null);
    };
    checkUniqueKey(rows(), target.id, primaryKey, all);
  }
  for (const c of added) resource.store.addColumn(c.id, c.type);
  for (const c of dropped) resource.store.removeColumn(c.id);
  applyEntryToMemory(resource, entry);
  // A dropped column's words must leave the full-text index: rebuild it from what is left.
  if (dropped.length) {
    const indexed = new Set(chooseIndexedColumns(resource.store));
    resource.replaceTextIndex(new MutableTextIndex(buildTextIndex(resource.store, resource.ftsLanguage, indexed)), indexed);
  }
  resource.record = {
    ...resource.record,
    fields: all.map(storedField),
    primaryKey,
    ...(req.indexes ? { indexes: req.indexes } : {}),
    ...(req.aliases ? { aliases: [...req.aliases].reverse() } : {}),
  };
  resource.refreshFields();
  writeGeneration(ctx, resource);
}
