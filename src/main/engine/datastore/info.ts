import type { OpenResource } from '../resources/open-resource';
import { ckanIndexName } from './index-name';

/** datastore_info (docs/ckan-contract.md §5, 2.11.3+ shape): `{meta, fields}`, user columns only. */
export interface InfoOutcome {
  readonly meta: {
    id: string;
    count: number;
    table_type: string;
    size: number;
    db_size: number;
    idx_size: number;
    aliases: string[];
  };
  readonly fields: {
    id: string;
    type: string;
    info?: Record<string, unknown>;
    schema: { native_type: string; notnull: boolean; index_name: string | null; is_index: boolean; uniquekey: boolean };
  }[];
}

export function datastoreInfo(resource: OpenResource): InfoOutcome {
  const { record } = resource;
  const indexed = new Set([...record.primaryKey, ...record.indexes.flat()]);
  // PostgreSQL reports the first index a column takes part in; CKAN names indexes by a hash.
  const indexName = new Map<string, string>();
  for (const columns of [record.primaryKey, ...record.indexes]) {
    if (!columns.length) continue;
    const name = ckanIndexName(resource.id, columns, resource.fields);
    for (const c of columns) if (!indexName.has(c)) indexName.set(c, name);
  }
  return {
    meta: {
      id: resource.id,
      count: resource.store.rowCount,
      table_type: 'BASE TABLE',
      size: record.sizeBytes,
      db_size: record.sizeBytes,
      // The full-text and column indexes live in the `.columns` file, counted in `size`.
      idx_size: 0,
      aliases: [...record.aliases],
    },
    fields: resource.fields.map((f) => ({
      id: f.id,
      type: f.type.name,
      ...(f.info ? { info: f.info } : {}),
      schema: {
        native_type: f.type.nativeName,
        notnull: false,
        index_name: indexName.get(f.id) ?? null,
        // CKAN's primary_key is a unique index, reported as an index but not a unique key.
        is_index: indexed.has(f.id),
        uniquekey: false,
      },
    })),
  };
}
