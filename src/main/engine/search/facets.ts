import { invalid } from '../../errors';
import { foldText } from '../../../shared/fold-text';
import type { FieldType } from '../field-types';
import { jsonCell } from '../values/encode';
import { compileFilter, MATCH_ALL } from './column-predicates';
import type { SearchableResource } from './execute-search';
import { rowTextQuery } from './full-text';
import { matchRows } from './match-rows';
import { filterColumnsOf, parseFilters } from './filters';
import type { TextSearchLanguage } from '../fts';
import type { FacetsResult } from '../../../shared/wire/facets';
import type { CellValue } from '../../../shared/wire/search';

/**
 * Distinct values of one column with how many matching rows hold each, for the UI's
 * per-column filter (a Deskstore extension, `deskstore_facets`; CKAN has no DataStore
 * facets). Counted over the column codes of the rows the other conditions select.
 */
export interface FacetRequest {
  readonly resourceId: string;
  readonly field: string;
  readonly filters?: unknown;
  readonly q?: string;
  readonly plain: boolean;
  readonly language?: string;
  /** Only values whose text contains this (case- and accent-insensitive). */
  readonly contains?: string;
  readonly limit: number;
}

/** The engine answers deskstore_facets with its wire shape. */
export type FacetOutcome = FacetsResult;


export function computeFacets(req: FacetRequest, resource: SearchableResource, defaultLanguage: TextSearchLanguage): FacetOutcome {
  const { store } = resource;
  const column = store.column(req.field);
  const field = resource.fields.find((f) => f.id === req.field);
  if (!column || !field) throw invalid('field', `invalid value "${req.field}"`);
  const predicate = req.filters === undefined ? MATCH_ALL
    : compileFilter(parseFilters(req.filters, filterColumnsOf(resource.fields)), store);
  const language = (req.language ?? defaultLanguage) as TextSearchLanguage;
  const candidates = req.q ? resource.text.match(rowTextQuery(req.q, req.plain, language)) : null;
  const rows = matchRows(predicate, store, candidates);

  const canonical = column.canonicalCodes();
  const counts = new Uint32Array(column.values.length);
  const codes = column.codes;
  for (let i = 0; i < rows.length; i++) counts[canonical[codes[rows[i]!]!]!]!++;
  const needle = req.contains ? foldText(req.contains) : null;
  const present: number[] = [];
  let distinct = 0;
  for (let code = 0; code < counts.length; code++) {
    if (!counts[code]) continue;
    distinct++;
    const value = column.values[code]!;
    if (needle !== null && (value === null || !foldText(String(value)).includes(needle))) continue;
    present.push(code);
  }
  present.sort((a, b) => counts[b]! - counts[a]! || a - b);
  return {
    field: req.field,
    type: field.type.name,
    values: present.slice(0, req.limit).map((code) => ({ value: decode(column.values[code]!, field.type), count: counts[code]! })),
    distinct,
    rows: rows.length,
  };
}

function decode(value: string | number | null, type: FieldType): CellValue {
  return JSON.parse(jsonCell(value, type.storage)) as CellValue;
}
