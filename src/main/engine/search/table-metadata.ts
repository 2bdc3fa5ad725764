import { createHash } from 'node:crypto';
import type { Catalogue } from '../catalogue/catalogue';
import { delimitedCell } from '../values/encode';
import type { FilterNode } from './filters';
import { invalidQuery } from './invalid-query';
import type { OutputField, SearchOutcome, SearchRequest } from './search-request';
import { resolveSearch, type SortClause } from './validate-search';

/**
 * `datastore_search` with `resource_id=_table_metadata` (docs/ckan-contract.md §3.11): CKAN's
 * view listing every DataStore table and alias, which ckan.js's `datastoreResources()` and
 * table-listing scripts read. Rows are `{_id, name, oid, alias_of}` as the view defines them:
 * `_id` is the first 16 hex digits of md5(name || alias_of), `alias_of` null for a table.
 * The table is small (one row per table or alias), so it is searched in plain JavaScript with
 * the same validation as any table; the view has no `_full_text`, so `q` fails as in CKAN.
 */
export const TABLE_METADATA = '_table_metadata';

type Row = Readonly<Record<'_id' | 'name' | 'oid' | 'alias_of', string | null>>;

const COLUMNS = [
  { id: 'name', type: 'name' },
  { id: 'oid', type: 'oid' },
  { id: 'alias_of', type: 'name' },
] as const;
const TYPES: Readonly<Record<string, string>> = { _id: 'int', name: 'name', oid: 'oid', alias_of: 'name' };
// PostgreSQL gives user objects oids from 16384 up.
const FIRST_OID = 16384;

function metadataRows(catalogue: Catalogue): Row[] {
  const tables = catalogue
    .allResources()
    .filter((r) => r.datastore)
    .sort((a, b) => a.created.localeCompare(b.created));
  const entries: [string, string | null][] = [
    ...tables.map((r): [string, null] => [r.id, null]),
    ...tables.flatMap((r) => [...(r.datastore?.aliases ?? [])].reverse().map((alias): [string, string] => [alias, r.id])),
  ];
  return entries.map(([name, aliasOf], i) => ({
    _id: createHash('md5')
      .update(name + (aliasOf ?? ''))
      .digest('hex')
      .slice(0, 16),
    name,
    oid: String(FIRST_OID + i + 1),
    alias_of: aliasOf,
  }));
}

/** A filter value compared as PostgreSQL compares it with a text column; null matches nothing. */
function matches(node: FilterNode, row: Row): boolean {
  if (node.kind !== 'match') {
    return node.kind === 'and' ? node.items.every((item) => matches(item, row)) : node.items.some((item) => matches(item, row));
  }
  const actual = row[node.column as keyof Row] ?? null;
  if (node.op === 'deskstore_empty') return (node.value === true) === (actual === null || actual === '');
  if (actual === null) return false;
  const wanted = (Array.isArray(node.value) ? node.value : [node.value]).filter((v) => v !== null).map(String);
  const oid = node.column === 'oid';
  const compare = (b: string) => (oid ? Number(actual) - Number(b) : actual < b ? -1 : actual > b ? 1 : 0);
  switch (node.op) {
    case 'eq':
    case 'in':
      return wanted.some((w) => compare(w) === 0);
    case 'gt':
      return wanted.some((w) => compare(w) > 0);
    case 'gte':
      return wanted.some((w) => compare(w) >= 0);
    case 'lt':
      return wanted.some((w) => compare(w) < 0);
    case 'lte':
      return wanted.some((w) => compare(w) <= 0);
    // Deskstore's own operators (docs/views.md), as on any table.
    case 'deskstore_ne':
      return wanted.length > 0 && wanted.every((w) => compare(w) !== 0);
    case 'deskstore_contains':
      return wanted.some((w) => actual.toLowerCase().includes(w.toLowerCase()));
    case 'deskstore_starts_with':
      return wanted.some((w) => actual.toLowerCase().startsWith(w.toLowerCase()));
  }
}

function compareRows(a: Row, b: Row, sort: readonly SortClause[]): number {
  for (const clause of sort) {
    const x = a[clause.field as keyof Row] ?? null;
    const y = b[clause.field as keyof Row] ?? null;
    if (x === y) continue;
    if (x === null || y === null) return (x === null) === clause.nullsFirst ? -1 : 1;
    const order = clause.field === 'oid' ? Number(x) - Number(y) : x < y ? -1 : 1;
    return clause.descending ? -order : order;
  }
  return 0;
}

function writeRows(rows: readonly Row[], fields: readonly string[], format: SearchRequest['recordsFormat']): string {
  if (format === 'objects') {
    return JSON.stringify(rows.map((row) => Object.fromEntries(fields.map((f) => [f, row[f as keyof Row] ?? null]))));
  }
  if (format === 'lists') return JSON.stringify(rows.map((row) => fields.map((f) => row[f as keyof Row] ?? null)));
  const delimiter = format === 'csv' ? ',' : '\t';
  return rows
    .map((row) => `${fields.map((f) => delimitedCell(row[f as keyof Row] ?? null, 'text', delimiter)).join(delimiter)}\n`)
    .join('');
}

export function searchTableMetadata(catalogue: Catalogue, req: SearchRequest): SearchOutcome {
  const plan = resolveSearch(
    req,
    COLUMNS.map((c) => ({ id: c.id, isArray: false })),
    'english',
  );
  if (plan.rowQuery !== null || plan.columnQueries.length) invalidQueryOnView();
  let rows = metadataRows(catalogue);
  if (plan.filter) rows = rows.filter((row) => matches(plan.filter!, row));
  if (req.distinct) {
    const seen = new Set<string>();
    rows = rows.filter((row) => {
      const key = JSON.stringify(plan.outputFields.map((f) => row[f as keyof Row] ?? null));
      return !seen.has(key) && Boolean(seen.add(key));
    });
  }
  const sort = plan.sort ?? (req.distinct ? null : [{ field: '_id', descending: false, nullsFirst: false }]);
  if (sort) rows.sort((a, b) => compareRows(a, b, sort));
  const page = rows.slice(req.offset, req.offset + req.limit);
  const fields: OutputField[] = plan.outputFields.map((id) => ({ id, type: TYPES[id] ?? 'text' }));
  return {
    resourceId: TABLE_METADATA,
    fields,
    records: writeRows(page, plan.outputFields, req.recordsFormat),
    recordsAreText: req.recordsFormat === 'csv' || req.recordsFormat === 'tsv',
    recordCount: page.length,
    ...(req.includeTotal ? { total: rows.length } : {}),
  };
}

function invalidQueryOnView(): never {
  throw invalidQuery('column "_full_text" does not exist');
}
