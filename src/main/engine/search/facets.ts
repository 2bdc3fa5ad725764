import { invalid } from '../../errors';
import { foldText } from '../../../shared/fold-text';
import { recordValue } from '../values/encode';
import type { SearchableResource } from './execute-search';
import { selectRows, type RowSelection } from './row-selection';
import type { TextSearchLanguage } from '../fts';
import type { FacetsResult } from '../../../shared/wire/facets';

/**
 * Distinct values of one column with how many matching rows hold each, for the UI's
 * per-column filter (a Deskstore extension, `deskstore_facets`; CKAN has no DataStore
 * facets). Counted over the column codes of the rows the other conditions select.
 */
export interface FacetRequest extends RowSelection {
  readonly resourceId: string;
  readonly field: string;
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
  const rows = selectRows(req, resource, defaultLanguage);

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
    values: present
      .slice(0, req.limit)
      .map((code) => ({ value: recordValue(column.values[code]!, field.type.storage), count: counts[code]! })),
    distinct,
    rows: rows.length,
  };
}
