import type { SqlSearchResult } from '../../shared/wire/search-sql';
import { ValidationError } from '../errors';
import type { ActionDeps } from './action-deps';
import type { ActionDefinition } from './types';
import { isMissing } from './validators';

/** datastore_search_sql (contract §4), enabled: read-only, one statement, capped, time-limited. */
export function datastoreSearchSqlAction(deps: ActionDeps): ActionDefinition {
  return {
    name: 'datastore_search_sql',
    sideEffectFree: true,
    async run(params) {
      if (isMissing(params.sql)) throw new ValidationError({ sql: ['Missing value'] });
      const sql = String(params.sql);
      const out = deps.searchSql ? await deps.searchSql(sql) : await deps.engine.searchSql(sql);
      return {
        sql: out.sql,
        records: out.records,
        fields: out.fields,
        ...(out.recordsTruncated ? { records_truncated: true } : {}),
      } satisfies SqlSearchResult;
    },
  };
}
