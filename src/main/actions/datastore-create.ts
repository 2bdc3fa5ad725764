import { ValidationError } from '../errors';
import type { ActionDeps } from './action-deps';
import type { ActionDefinition, ActionParams } from './types';
import { SchemaErrors, isMissing, toBoolean, toStringList } from './validators';

/** `primary_key`, `aliases`: a list or a comma string; `""` clears (an empty list). */
function nameList(errors: SchemaErrors, params: ActionParams, key: string): string[] | undefined {
  const value = params[key];
  if (value === undefined || value === null) return undefined;
  return errors.take(key, toStringList(value, key));
}

const NOT_ECHOED = new Set(['records', 'resource', 'id', 'connection_url']);

/** datastore_create (contract §6). */
export function datastoreCreateAction(deps: ActionDeps): ActionDefinition {
  return {
    name: 'datastore_create',
    sideEffectFree: false,
    async run(params) {
      const errors = new SchemaErrors();
      const primaryKey = nameList(errors, params, 'primary_key');
      const aliases = nameList(errors, params, 'aliases');
      let indexes: string[][] | undefined;
      if (params.indexes !== undefined && params.indexes !== null) {
        const raw = Array.isArray(params.indexes) ? params.indexes : [params.indexes];
        indexes = raw.map((i) => (Array.isArray(i) ? i.map(String) : String(i).split(',').map((s) => s.trim()).filter(Boolean)));
      }
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
        ...(indexes ? { indexes } : {}),
        ...(aliases ? { aliases } : {}),
        force: toBoolean(params.force ?? false),
        deleteFields: toBoolean(params.delete_fields ?? false),
      });
      // The validated request echoed back, minus records (contract §6).
      const echo = Object.fromEntries(Object.entries(params).filter(([k]) => !NOT_ECHOED.has(k)));
      return { ...echo, resource_id: out.resourceId, fields: out.fields, method: 'insert' };
    },
  };
}
