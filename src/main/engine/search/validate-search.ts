import { ValidationError } from '../../errors';
import { isTextSearchLanguage, type TextSearchLanguage } from '../fts';
import { parseFilters, type FilterNode } from './filters';
import { invalidQuery } from './invalid-query';
import type { SearchRequest } from './search-request';

/**
 * Step 4 of docs/ckan-contract.md §3.2: the checks that need the table's columns. CKAN reports only the
 * first offending parameter, in the order its validated dict has them, which is alphabetical
 * (navl unflattens sorted keys): `__extras`, `fields`, `filters`, `offset`, `q`, `sort`.
 */

export interface SchemaColumn {
  readonly id: string;
  readonly isArray: boolean;
}

export interface SortClause {
  readonly field: string; // `_id` or a column
  readonly descending: boolean;
  readonly nullsFirst: boolean;
}

export interface ResolvedSearch {
  readonly filter: FilterNode | null;
  /** Whole-row full-text query (`full_text`, else a string `q`); empty text means none. */
  readonly rowQuery: string | null;
  /** Per-column queries of an object `q`, in key order. */
  readonly columnQueries: readonly { column: string; text: string }[];
  readonly language: TextSearchLanguage;
  /** Output columns: `_id`, user columns, `rank`, `rank <column>`. */
  readonly outputFields: readonly string[];
  readonly sort: readonly SortClause[] | null;
}

const SORT_CLAUSE = /^(.+?)( +(asc|desc))?( nulls +(first|last) *)?$/i;

/** CKAN's `_parse_sort_clause`; null when the clause does not parse or names no column. */
export function parseSortClause(clause: string, columnIds: ReadonlySet<string>): SortClause | null {
  const m = SORT_CLAUSE.exec(clause);
  if (!m) return null;
  let field = m[1]!;
  if (field.length > 1 && field.startsWith('"') && field.endsWith('"')) field = field.slice(1, -1);
  if (!columnIds.has(field)) return null;
  const descending = (m[3] ?? 'asc').toLowerCase() === 'desc';
  const nulls = m[5]?.toLowerCase();
  return { field, descending, nullsFirst: nulls ? nulls === 'first' : descending };
}

const invalidValue = (param: string, value: string): ValidationError => new ValidationError({ [param]: [`invalid value "${value}"`] });

export function resolveSearch(req: SearchRequest, columns: readonly SchemaColumn[], defaultLanguage: TextSearchLanguage): ResolvedSearch {
  const ids = new Set(['_id', ...columns.map((c) => c.id)]);
  if (req.extras.length) throw invalidValue('__extras', req.extras[0]!);

  const q = req.q;
  const rowQuery = req.fullText !== undefined && req.fullText !== '' ? req.fullText : typeof q === 'string' && q !== '' ? q : null;
  const columnQueries = q && typeof q === 'object' ? Object.entries(q) : [];
  const rankFields = [
    ...(rowQuery !== null ? ['rank'] : []),
    ...columnQueries.filter(([k, v]) => ids.has(k) && k !== '_id' && typeof v === 'string').map(([k]) => `rank ${k}`),
  ];

  let outputFields: string[];
  if (req.fields?.length && req.fullText === undefined) {
    const allowed = new Set([...ids, ...rankFields]);
    const unknown = req.fields.find((f) => !allowed.has(f));
    if (unknown !== undefined) throw invalidValue('fields', unknown);
    outputFields = [...req.fields];
  } else {
    // full_text makes `fields` stop restricting the columns; rank only if `fields` names it.
    const ranks = req.fields?.length ? rankFields.filter((r) => req.fields!.includes(r)) : rankFields;
    outputFields = [...ids, ...ranks];
  }

  const isArray = new Set(columns.filter((c) => c.isArray).map((c) => c.id));
  const filter = req.filters === undefined ? null : parseFilters(req.filters, { has: (c) => ids.has(c), isArray: (c) => isArray.has(c) });

  if (req.offset < 0) throw invalidValue('offset', String(req.offset));

  for (const [key, value] of columnQueries) {
    if (!ids.has(key) || key === '_id' || typeof value !== 'string') throw invalidValue('q', key);
  }

  let sort: SortClause[] | null = null;
  if (req.sort?.length) {
    sort = req.sort.map((clause) => {
      const parsed = parseSortClause(clause, ids);
      if (!parsed) throw invalidValue('sort', clause);
      return parsed;
    });
  }

  const language = req.language ?? defaultLanguage;
  const usesText = rowQuery !== null || columnQueries.length > 0;
  if (usesText && !isTextSearchLanguage(language)) {
    throw invalidQuery(`text search configuration "${language}" does not exist`);
  }
  return {
    filter,
    rowQuery,
    columnQueries: columnQueries.map(([column, text]) => ({ column, text: text as string })),
    language: isTextSearchLanguage(language) ? language : defaultLanguage,
    outputFields,
    sort,
  };
}
