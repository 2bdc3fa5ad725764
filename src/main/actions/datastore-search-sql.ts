import type { DatastoreSearchSqlResult } from '../../shared/wire/search';
import { ValidationError } from '../errors';
import { RawJson } from '../util/raw-json';
import type { ActionDeps } from './action-deps';
import type { HandlersFor } from './types';
import { isMissing } from '../params/validators';

/** datastore_search_sql (docs/ckan-contract.md §4), enabled: read-only, one statement, capped, time-limited. */
export function datastoreSearchSqlAction(deps: ActionDeps): HandlersFor<'datastore_search_sql'> {
  return {
    async datastore_search_sql(params) {
      if (isMissing(params.sql)) throw new ValidationError({ sql: ['Missing value'] });
      const sql = String(params.sql);
      const out = await deps.searchSql(sql);
      return {
        sql: out.sql,
        records: new RawJson(out.records),
        fields: out.fields,
        ...(out.recordsTruncated ? { records_truncated: true as const } : {}),
      } satisfies DatastoreSearchSqlResult<RawJson>;
    },
  };
}
