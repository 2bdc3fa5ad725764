import { ValidationError } from '../../errors';
import { SchemaErrors, isMissing, toBoolean, toInteger } from '../../params/validators';
import type { DumpDialect, DumpFormat } from './dump-writers';

/**
 * The dump's query string, checked as CKAN's `dump_schema` does (blueprint.py), plus
 * Deskstore's `deskstore_dialect` and `deskstore_filename` (docs/ckan-contract.md §11).
 * As Flask's `request.args.to_dict()`, only the first value of a repeated key counts.
 */
export interface DumpRequest {
  readonly resourceId: string;
  readonly format: DumpFormat;
  readonly dialect: DumpDialect | null;
  readonly bom: boolean;
  readonly offset: number;
  readonly limit: number | null;
  /** datastore_search parameters the dump passes on: filters, q, distinct, plain, language, fields, sort, deskstore_q. */
  readonly search: Readonly<Record<string, string>>;
  /** The file name the client asked for, if any (cleaned later). */
  readonly fileName: string | null;
}

const FORMATS: readonly DumpFormat[] = ['csv', 'tsv', 'json', 'xml'];
const DIALECTS: readonly DumpDialect[] = ['excel-it'];
// deskstore_q: the UI's search box, so an export holds exactly the rows the table shows.
const PASSED_ON = ['filters', 'q', 'distinct', 'plain', 'language', 'fields', 'deskstore_q'] as const;

export function parseDumpRequest(resourceId: string, query: URLSearchParams): DumpRequest {
  const errors = new SchemaErrors();
  const value = (key: string): string | null => query.get(key);
  const format = (value('format') ?? 'csv') as DumpFormat;
  if (!FORMATS.includes(format)) errors.add('format', "Value must be one of ('csv', 'tsv', 'json', 'xml')");
  const offset = isMissing(value('offset')) ? 0 : errors.take('offset', toInteger(value('offset')));
  const limit = isMissing(value('limit')) ? null : errors.take('limit', toInteger(value('limit')));
  const dialectText = value('deskstore_dialect');
  let dialect: DumpDialect | null = null;
  if (!isMissing(dialectText)) {
    if (!DIALECTS.includes(dialectText as DumpDialect)) errors.add('deskstore_dialect', "Value must be one of ('excel-it',)");
    else if (format !== 'csv') errors.add('deskstore_dialect', 'The excel-it dialect is a CSV flavour: use it with format=csv');
    else dialect = dialectText as DumpDialect;
  }
  if (errors.any) throw new ValidationError(errors.members);
  const search: Record<string, string> = { sort: value('sort') || '_id' };
  for (const key of PASSED_ON) {
    const v = value(key);
    if (v !== null) search[key] = v;
  }
  const fileName = value('deskstore_filename');
  return {
    resourceId,
    format,
    dialect,
    bom: toBoolean(value('bom') ?? false),
    offset: offset ?? 0,
    limit: limit ?? null,
    search,
    fileName: isMissing(fileName) ? null : fileName,
  };
}
