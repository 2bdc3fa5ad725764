import { ValidationError } from '../../errors';

/**
 * CKAN turns a database error during a search into 409 `{"query": ["Invalid query"], "info":
 * {statement, params, orig}}` (docs/ckan-contract.md §3.2 step 5). Deskstore raises the same shape where
 * PostgreSQL would have failed (a value that does not fit its column, bad tsquery syntax, an
 * unknown text search configuration), with PostgreSQL's wording in `orig`.
 */
export function invalidQuery(orig: string, statement = '', params: unknown[] = []): ValidationError {
  return new ValidationError({
    query: ['Invalid query'],
    info: { statement: [statement], params: [params], orig: [orig] },
  });
}
