import { ValidationError } from '../errors';
import type { ActionDeps } from './action-deps';
import type { HandlersFor } from './types';
import { isMissing, resourceIdOf, toJsonValue } from '../params/validators';

/** `fields` of deskstore_rename_fields: old name → new name, as an object or its JSON text (a form, the CLI). */
function readRenames(raw: unknown): Record<string, string> {
  if (isMissing(raw)) throw new ValidationError({ fields: ['Missing value'] });
  const decoded = toJsonValue(raw);
  if (!decoded.ok) throw new ValidationError({ fields: [decoded.error] });
  const value = decoded.value;
  const isMapping = value !== null && typeof value === 'object' && !Array.isArray(value);
  if (!isMapping || Object.values(value).some((to) => typeof to !== 'string')) {
    throw new ValidationError({ fields: ['Must be an object of column names to their new names'] });
  }
  if (Object.keys(value).length === 0) throw new ValidationError({ fields: ['Missing value'] });
  return value as Record<string, string>;
}

/**
 * `deskstore_rename_fields` (token): renames columns of a local table, e.g. to fit a portal's
 * 63-byte names before a push, by publishing the same rows under the new names as a new
 * version (docs/versions.md "Renaming columns").
 */
export function renameFieldsAction(deps: ActionDeps): HandlersFor<'deskstore_rename_fields'> {
  return {
    async deskstore_rename_fields(params) {
      const resourceId = resourceIdOf(params);
      const renames = readRenames(params.fields);
      const outcome = await deps.engine.renameFields({ resourceId, renames });
      return {
        resource_id: outcome.resourceId,
        fields: outcome.fields.map((f) => ({ id: f.id, type: f.type, ...(f.info ? { info: f.info } : {}) })),
        renamed: outcome.renamed,
        version: outcome.version,
      };
    },
  };
}
