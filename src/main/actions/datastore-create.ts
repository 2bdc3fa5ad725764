import { ValidationError } from '../errors';
import { mimeTypeOf } from '../util/mime-type';
import { pythonRepr } from '../util/python-repr';
import type { ActionDeps } from './action-deps';
import type { DatastoreCreateResult } from '../../shared/wire/actions';
import type { HandlersFor } from './types';
import type { ActionParams } from '../params/action-params';
import { SchemaErrors, isMissing, toBoolean, toStringList } from '../params/validators';

/** `primary_key`, `aliases`: a list or a comma string; `""` clears (an empty list). */
function nameList(errors: SchemaErrors, params: ActionParams, key: string): string[] | undefined {
  const value = params[key];
  if (value === undefined || value === null) return undefined;
  return errors.take(key, toStringList(value, key));
}

/**
 * `indexes` as CKAN's create_indexes reads it with `get_list`: a comma string is several
 * one-column indexes; in a list, a string item may name several columns (one index) and a
 * list item is one index. The label is how CKAN prints the index in its error message.
 */
function indexList(raw: unknown): { columns: string[]; label: string }[] {
  const split = (text: string) =>
    text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  if (!Array.isArray(raw)) return split(String(raw)).map((c) => ({ columns: [c], label: c }));
  return raw.map((item) =>
    Array.isArray(item) ? { columns: item.map(String), label: pythonRepr(item) } : { columns: split(String(item)), label: String(item) },
  );
}

/** The parameters datastore_create's schema knows; anything else is echoed under `__extras`. */
const SCHEMA_KEYS = new Set([
  'resource_id',
  'force',
  'id',
  'aliases',
  'fields',
  'delete_fields',
  'primary_key',
  'indexes',
  'triggers',
  'calculate_record_count',
  'records',
  'resource',
]);

/**
 * The result: CKAN 2.11 returns the validated request, minus `records` (docs/ckan-contract.md
 * §6.4): `id` renamed to `resource_id`, `force` consumed unless a `resource` dict was given,
 * booleans converted, `delete_fields` defaulted, fields as sent with guessed types written in,
 * unknown keys under `__extras`, and `method: "insert"`.
 */
function createEcho(params: ActionParams, resourceId: string, guessed: Readonly<Record<string, string>>): DatastoreCreateResult {
  const echo: Record<string, unknown> = {};
  if (params.aliases !== undefined && params.aliases !== null) echo.aliases = params.aliases;
  if (Array.isArray(params.fields)) {
    echo.fields = params.fields.map((f: unknown) => {
      const { id, type, info } = f as Record<string, unknown>;
      const shownType = type !== undefined ? type : typeof id === 'string' ? guessed[id] : undefined;
      // A field's keys in sorted order, as navl's unflatten rebuilds the dict: id, info, type.
      return { id, ...(info !== undefined ? { info } : {}), ...(shownType !== undefined ? { type: shownType } : {}) };
    });
  }
  echo.delete_fields = toBoolean(params.delete_fields ?? false);
  for (const key of ['primary_key', 'indexes', 'triggers'] as const) {
    if (params[key] !== undefined && params[key] !== null) echo[key] = params[key];
  }
  if (params.calculate_record_count !== undefined) echo.calculate_record_count = toBoolean(params.calculate_record_count);
  if (params.resource !== undefined) {
    // As CKAN leaves the dict it gave resource_create: `url` set by default, then `mimetype`
    // guessed from the url when not given (None for `_datastore_only_resource`), each added last.
    const resource = params.resource as Record<string, unknown>;
    const url = resource.url ?? '_datastore_only_resource';
    echo.resource = {
      ...resource,
      url,
      ...('mimetype' in resource ? {} : { mimetype: typeof url === 'string' ? (mimeTypeOf(url) ?? null) : null }),
    };
    if (params.force !== undefined) echo.force = toBoolean(params.force);
  }
  const extras = Object.fromEntries(Object.entries(params).filter(([k]) => !SCHEMA_KEYS.has(k)));
  if (Object.keys(extras).length) echo.__extras = extras;
  // CKAN's order (seen on 2.10.10): the validated request's plain keys sorted (navl's unflatten),
  // then `fields` (a list of dicts, flattened deeper), then what the action adds: the resource it
  // created and that resource's id, then `method`. A resource_id sent is one of the plain keys.
  const { fields, resource, ...plain } = echo;
  const resourceIdSent = params.resource === undefined;
  const sorted = Object.fromEntries(
    Object.entries(resourceIdSent ? { ...plain, resource_id: resourceId } : plain).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  return {
    ...sorted,
    ...(fields !== undefined ? { fields } : {}),
    ...(resource !== undefined ? { resource } : {}),
    ...(resourceIdSent ? {} : { resource_id: resourceId }),
    method: 'insert',
  } as DatastoreCreateResult;
}

/** datastore_create (docs/ckan-contract.md §6). */
export function datastoreCreateAction(deps: ActionDeps): HandlersFor<'datastore_create'> {
  return {
    async datastore_create(request) {
      // The schema's `__before: rename('id', 'resource_id')`.
      const params = request.resource_id === undefined && request.id !== undefined ? { ...request, resource_id: request.id } : request;
      const errors = new SchemaErrors();
      const primaryKey = nameList(errors, params, 'primary_key');
      const aliases = nameList(errors, params, 'aliases');
      const indexes = params.indexes === undefined || params.indexes === null ? undefined : indexList(params.indexes);
      const resource = params.resource;
      if (resource !== undefined && (resource === null || typeof resource !== 'object' || Array.isArray(resource))) {
        errors.add('resource', 'Not a dict');
      }
      if (errors.any) throw new ValidationError(errors.members);
      const out = await deps.engine.datastoreCreate({
        ...(isMissing(params.resource_id) ? {} : { resourceId: String(params.resource_id) }),
        ...(resource ? { resource: resource as Record<string, unknown> } : {}),
        fields: params.fields,
        records: params.records,
        ...(primaryKey ? { primaryKey } : {}),
        ...(indexes ? { indexes: indexes.map((i) => i.columns), indexLabels: indexes.map((i) => i.label) } : {}),
        ...(aliases ? { aliases } : {}),
        force: toBoolean(params.force ?? false),
        deleteFields: toBoolean(params.delete_fields ?? false),
      });
      return createEcho(params, out.resourceId, out.guessed);
    },
  };
}
