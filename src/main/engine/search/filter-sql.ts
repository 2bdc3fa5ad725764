import type { Column } from '../column-store/column';
import type { TableStore } from '../column-store/table-store';
import { quoteIdentifier } from '../sqlite/identifiers';
import { coerceValue, type StoredValue } from '../values/coerce';
import type { FilterNode } from './filters';

/**
 * A parsed `filters` tree as a PostgreSQL WHERE condition that Deskstore's own
 * datastore_search_sql also runs (docs/views.md, "The SQL behind a chart"). Shown to people so
 * they can reproduce a summary on a CKAN portal. `exact` is false where SQL cannot say
 * exactly what the operator does: contains / starts with ignore accents here, which
 * PostgreSQL's LIKE does not; array columns have no common literal.
 */
export interface SqlCondition {
  readonly sql: string;
  readonly exact: boolean;
}

/** A text literal for PostgreSQL (standard_conforming_strings) and SQLite alike. */
export function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

function literal(value: StoredValue, column: Column | null): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') {
    if (column?.type.storage === 'bool') return value ? 'TRUE' : 'FALSE';
    return Number.isFinite(value) ? String(value) : sqlString(String(value));
  }
  return sqlString(value);
}

/** `!` escapes LIKE's wildcards: a backslash would trip datastore_search_sql's `\'` guard. */
function likePattern(text: string, prefixOnly: boolean): string {
  const escaped = text.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`);
  return `${sqlString(prefixOnly ? `${escaped}%` : `%${escaped}%`)} ESCAPE '!'`;
}

const COMPARISON = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=', deskstore_ne: '<>' } as const;

class SqlWriter {
  exact = true;
  constructor(private readonly store: TableStore) {}

  write(node: FilterNode): string {
    if (node.kind !== 'match') {
      if (!node.items.length) return node.kind === 'and' ? 'TRUE' : 'FALSE';
      const parts = node.items.map((item) => this.write(item));
      return parts.length === 1 ? parts[0]! : `(${parts.join(node.kind === 'and' ? ' AND ' : ' OR ')})`;
    }
    const column = node.column === '_id' ? null : this.store.column(node.column)!;
    if (column?.type.storage === 'array') this.exact = false;
    const name = quoteIdentifier(node.column);
    const value = (v: unknown): StoredValue => (v === null ? null : column ? coerceValue(v, column.type) : Number(v));
    switch (node.op) {
      case 'in': {
        const values = (node.value as unknown[]).map(value).filter((v) => v !== null);
        return values.length ? `${name} IN (${values.map((v) => literal(v, column)).join(', ')})` : 'FALSE';
      }
      case 'deskstore_empty': {
        const isText = column?.type.storage === 'text';
        const empty = isText ? `(${name} IS NULL OR ${name} = '')` : `${name} IS NULL`;
        if (!column) return node.value === true ? 'FALSE' : 'TRUE';
        return node.value === true ? empty : isText ? `(${name} IS NOT NULL AND ${name} <> '')` : `${name} IS NOT NULL`;
      }
      case 'deskstore_contains':
      case 'deskstore_starts_with': {
        this.exact = false;
        // `::text`, not CAST(…): CKAN's checks take `CAST(` for a call of a function it does not allow.
        const text = column?.type.storage === 'text' ? name : `${name}::text`;
        return `lower(${text}) LIKE ${likePattern(node.value as string, node.op === 'deskstore_starts_with')}`;
      }
      default: {
        const v = value(node.value);
        // `column = NULL` is never true, as the column store reads it.
        if (v === null) return 'FALSE';
        return `${name} ${COMPARISON[node.op]} ${literal(v, column)}`;
      }
    }
  }
}

/** The WHERE condition of a filters tree (values coerced as datastore_search does). */
export function filterSql(node: FilterNode, store: TableStore): SqlCondition {
  const writer = new SqlWriter(store);
  const sql = writer.write(node);
  return { sql, exact: writer.exact };
}
