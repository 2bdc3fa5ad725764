import { createHash } from 'node:crypto';
import type { FieldType } from '../field-types';

/**
 * The name CKAN gives an index it creates for `primary_key` or `indexes`: the SHA-1 of the
 * resource id followed by the indexed expressions as SQL (`"a", "b"`; a json column is indexed
 * as `(("c").json::text)`), from `_generate_index_name` in ckanext/datastore/backend/postgres.py.
 * It shows in duplicate-key errors and in datastore_info's `index_name`.
 */
export function ckanIndexName(resourceId: string, columns: readonly string[], fields: readonly { id: string; type: FieldType }[]): string {
  const json = new Set(fields.filter((f) => f.type.storage === 'json').map((f) => f.id));
  const quoted = (c: string) => `"${c.replace(/"/g, '""')}"`;
  const expression = columns.map((c) => (json.has(c) ? `((${quoted(c)}).json::text)` : quoted(c))).join(', ');
  return createHash('sha1')
    .update(resourceId + expression, 'utf8')
    .digest('hex');
}
