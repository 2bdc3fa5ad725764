import { transaction } from '../sqlite/transaction';
import { ValidationError, invalid } from '../../errors';
import type { DatastoreRecord, ResourceRecord } from '../catalogue/records';
import { createResource } from '../catalogue/catalogue-operations';
import { TableStore } from '../column-store/table-store';
import { resolveFieldType, type FieldType } from '../field-types';
import { MutableTextIndex } from '../fts';
import { OpenResource } from '../resources/open-resource';
import { loadSqlJs } from '../sqlite/sql-js';
import { createTableSql, uniqueIndexSql } from '../sqlite/table-sql';
import { quoteIdentifier } from '../sqlite/identifiers';
import { resourceDir } from '../../storage/data-paths';
import { buildTextIndex } from '../text-index/build-text-index';
import { chooseIndexedColumns } from '../text-index/text-layout';
import type { EngineContext } from '../engine-context';
import { checkAliasName, guessType, parseRequestedFields, type RequestedField } from './field-validation';
import { asRecordList, checkNoExtraKeys, coerceRecords, type RecordObject } from './records';
import { applyEntryToMemory, applyEntryToSqlite } from '../journal/apply-entry';
import type { JournalEntry } from '../journal/journal-entry';
import { checkWritable, writeGeneration } from './table-versions';

/** datastore_create (contract §6) on a new or an existing table. */
export interface CreateRequest {
  readonly resourceId?: string;
  readonly resource?: Record<string, unknown>;
  readonly fields?: unknown;
  readonly records?: unknown;
  readonly primaryKey?: readonly string[];
  readonly indexes?: readonly (readonly string[])[];
  readonly aliases?: readonly string[];
  readonly force: boolean;
  readonly deleteFields: boolean;
}

export interface CreateOutcome {
  readonly resourceId: string;
  /** The requested fields, guessed types filled in. */
  readonly fields: { id: string; type: string; info?: Record<string, unknown> }[];
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
  try {
    const fields = target.datastore
      ? await extendTable(ctx, target, requested, records, req)
      : await createTable(ctx, target, requested, records, req);
    return { resourceId: target.id, fields };
  } catch (err) {
    if (req.resource) ctx.catalogue.deleteResource(target.id); // all or nothing, as CKAN's transaction
    throw err;
  }
}

type NewColumn = { id: string; type: FieldType; info?: Record<string, unknown> };

/** What the catalogue stores of a column. */
const storedField = (c: NewColumn) => ({ id: c.id, type: c.type.name, ...(c.info ? { info: c.info } : {}) });

/**
 * Columns of a new table (or new columns of an existing one): requested fields in order, then
 * the first record's other keys. Every name is checked here, whichever way it came.
 */
function resolveColumns(requested: readonly RequestedField[], first: RecordObject | undefined): NewColumn[] {
  const ids = new Set(requested.map((f) => f.id));
  const extra = Object.keys(first ?? {}).filter((k) => !ids.has(k));
  for (const id of [...ids, ...extra]) if (id.startsWith('_') || id.trim() !== id || id === '') throw invalid('fields', `"${id}" is not a valid field name`);
  return [...requested, ...extra.map((id): RequestedField => ({ id, type: null }))].map((f) => {
    if (f.type) return { id: f.id, type: f.type, ...(f.info ? { info: f.info } : {}) };
    const guessed = guessType(first?.[f.id]);
    if (!guessed) throw invalid('fields', `"${f.id}" type not guessable`);
    return { id: f.id, type: resolveFieldType(guessed)!, ...(f.info ? { info: f.info } : {}) };
  });
}

function checkKeyColumns(param: 'primary_key' | 'indexes', names: readonly string[], columns: ReadonlySet<string>): void {
  for (const name of names) {
    if (!columns.has(name)) {
      throw new ValidationError(param === 'primary_key'
        ? { primary_key: [`The field "${name}" is not a valid column name.`] }
        : { index: [`The field "${name}" is not a valid column name.`] });
    }
  }
}

async function createTable(
  ctx: EngineContext, target: ResourceRecord, requested: readonly RequestedField[], records: RecordObject[], req: CreateRequest,
): Promise<CreateOutcome['fields']> {
  const columns = resolveColumns(requested, records[0]);
  const names = new Set(columns.map((c) => c.id));
  if (names.size !== columns.length) throw invalid('field', 'Duplicate column names are not supported');
  checkNoExtraKeys(records, names, 1);
  const primaryKey = req.primaryKey ?? [];
  checkKeyColumns('primary_key', primaryKey, names);
  for (const index of req.indexes ?? []) checkKeyColumns('indexes', index, names);
  const values = coerceRecords(records, new Map(columns.map((c) => [c.id, c.type])));

  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  const store = TableStore.empty(columns);
  const entry: JournalEntry = { ops: values.map((v, i) => ({ t: 'put', id: i + 1, v: Object.fromEntries(v) })) };
  try {
    db.exec(createTableSql(target.id, columns));
    if (primaryKey.length) db.exec(uniqueIndexSql(target.id, primaryKey));
    transaction(db, () => applyEntryToSqlite(db, target.id, entry));
  } catch (err) {
    db.close();
    throw err;
  }
  const language = ctx.defaultFtsLanguage;
  values.forEach((v, i) => store.putRow(i + 1, v));
  const indexed = new Set(chooseIndexedColumns(store));
  const text = new MutableTextIndex(buildTextIndex(store, language, indexed));
  const fields = columns.map(storedField);
  const record: DatastoreRecord = {
    generation: 0, fields,
    primaryKey, indexes: req.indexes ?? [], aliases: [...(req.aliases ?? [])].reverse(), ftsLanguage: language,
    rowCount: store.rowCount, sizeBytes: 0, updated: new Date().toISOString(),
  };
  const resource = new OpenResource(target.id, resourceDir(ctx.dataDir, target.id), record, store, text, indexed, ctx.logger);
  resource.adoptDatabase(db);
  await writeGeneration(ctx, resource);
  return fields;
}

async function extendTable(
  ctx: EngineContext, target: ResourceRecord, requested: readonly RequestedField[], records: RecordObject[], req: CreateRequest,
): Promise<CreateOutcome['fields']> {
  const resource = ctx.openResource(target.id);
  const existing = new Map(resource.fields.map((f) => [f.id, f.type]));
  const added = resolveColumns(requested.filter((f) => !existing.has(f.id)), undefined)
    .concat(resolveColumns([], records[0]).filter((c) => !existing.has(c.id) && !requested.some((f) => f.id === c.id)));
  const kept = req.deleteFields ? resource.fields.filter((f) => requested.some((r) => r.id === f.id)) : resource.fields;
  const dropped = resource.fields.filter((f) => !kept.includes(f));
  const all: NewColumn[] = [...kept, ...added];
  const names = new Set(all.map((c) => c.id));
  checkNoExtraKeys(records, names, 0);
  const primaryKey = req.primaryKey ?? resource.record.primaryKey.filter((k) => names.has(k));
  checkKeyColumns('primary_key', primaryKey, names);
  const values = coerceRecords(records, new Map(all.map((c) => [c.id, c.type])));
  let next = resource.store.maxRowId;
  const entry: JournalEntry = { ops: values.map((v) => ({ t: 'put', id: ++next, v: Object.fromEntries(v) })) };

  const db = await resource.sqlite();
  const table = quoteIdentifier(target.id);
  transaction(db, () => {
    for (const c of added) db.exec(`ALTER TABLE ${table} ADD COLUMN ${quoteIdentifier(c.id)} ${c.type.sqliteType}`);
    if (req.primaryKey) {
      db.exec(`DROP INDEX IF EXISTS ${quoteIdentifier(`${target.id}_pkey`)}`);
      if (primaryKey.length) {
        try {
          db.exec(uniqueIndexSql(target.id, primaryKey));
        } catch {
          throw new ValidationError({ constraints: ['Cannot insert records or create index because of uniqueness constraint'] });
        }
      }
    }
    for (const c of dropped) db.exec(`ALTER TABLE ${table} DROP COLUMN ${quoteIdentifier(c.id)}`);
    applyEntryToSqlite(db, target.id, entry);
  });
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
  await writeGeneration(ctx, resource);
  return requested.map((f) => ({ id: f.id, type: (existing.get(f.id) ?? all.find((c) => c.id === f.id)!.type).name, ...(f.info ? { info: f.info } : {}) }));
}
