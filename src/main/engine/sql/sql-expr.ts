import { resolveFieldType } from '../field-types';
import { coerceValue, CoercionError } from '../values/coerce';
import { canonicalDecimal } from '../values/exact-number';
import { SqlQueryError } from './sql-errors';
import { FLOAT_TYPES, INTEGER_TYPES, TEXT_TYPES } from './sql-values';

/**
 * A translated expression: SQLite text plus the PostgreSQL type its value has (docs/sql-and-
 * values.md). `exact` marks a numeric whose SQLite value may be the exact text (`2.50`), which
 * must be cast before SQLite computes with it; `literal` keeps a string constant's text so an
 * untyped literal can take the type of what it meets (`ts > '2020-01-01'`), as in PostgreSQL.
 */
export interface Expr {
  readonly sql: string;
  readonly type: string;
  readonly exact?: boolean;
  readonly literal?: string;
  readonly aggregate?: boolean;
  /** A table's json column (CKAN's `nested` type), which results give decoded. */
  readonly nested?: boolean;
}

export const sqlString = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/** A number SQLite can compute with. */
export function num(e: Expr): string {
  if (e.type === 'numeric' && e.exact) return `CAST(${e.sql} AS REAL)`;
  if (e.type === 'unknown' && e.literal !== undefined) return literalAs(e, 'numeric').sql;
  return e.sql;
}

/**
 * The value as an argument of a Deskstore JS function: sql.js hands integers to JS as
 * doubles, so an int8 goes as its decimal text to keep every digit.
 */
export function jsValue(e: Expr): string {
  return e.type === 'int8' ? `CAST(${e.sql} AS TEXT)` : e.sql;
}

/** The value as PostgreSQL's text output (for `||`, concat, casts to text). */
export function text(e: Expr): string {
  if (TEXT_TYPES.has(e.type)) return e.sql;
  if (INTEGER_TYPES.has(e.type)) return `CAST(${e.sql} AS TEXT)`;
  return `deskstore_text(${e.sql}, ${sqlString(e.type)})`;
}

const PG_LONG_NAMES: Record<string, string> = {
  int2: 'smallint',
  int4: 'integer',
  int8: 'bigint',
  float4: 'real',
  float8: 'double precision',
  bool: 'boolean',
  timestamptz: 'timestamp with time zone',
  timestamp: 'timestamp without time zone',
  varchar: 'character varying',
};
export const longTypeName = (type: string): string => PG_LONG_NAMES[type] ?? type;

/**
 * An untyped string literal read as `type` at translation time (PostgreSQL resolves
 * `'2020-01-01'` against a timestamp column the same way), with PostgreSQL's error if it
 * cannot be. Other expressions are returned as they are.
 */
export function literalAs(e: Expr, type: string): Expr {
  if (e.type !== 'unknown' || e.literal === undefined || TEXT_TYPES.has(type)) return e;
  const value = e.literal;
  if (type === 'numeric' || INTEGER_TYPES.has(type) || FLOAT_TYPES.has(type)) {
    const canonical = canonicalDecimal(value);
    if (canonical === null || (INTEGER_TYPES.has(type) && canonical.includes('.'))) {
      throw new SqlQueryError(`invalid input syntax for type ${longTypeName(type)}: "${value}"`);
    }
    return type === 'numeric' ? { sql: sqlString(canonical), type, exact: true } : { sql: canonical, type };
  }
  const fieldType = resolveFieldType(type);
  if (!fieldType) return { ...e, type };
  try {
    const stored = coerceValue(value, fieldType);
    if (stored === null) return { sql: 'NULL', type };
    return { sql: typeof stored === 'number' ? String(stored) : sqlString(stored), type };
  } catch (err) {
    if (err instanceof CoercionError) throw new SqlQueryError(err.message);
    throw err;
  }
}

/** Two operands brought to one type for a comparison, with what SQLite should compare. */
export function comparable(a: Expr, b: Expr): [string, string] {
  const left = literalAs(a, b.type);
  const right = literalAs(b, left.type);
  const numeric = (e: Expr) => INTEGER_TYPES.has(e.type) || FLOAT_TYPES.has(e.type) || e.type === 'numeric';
  if (numeric(left) || numeric(right)) return [num(left), num(right)];
  // A date meets a timestamp at midnight (PostgreSQL casts the date).
  const asTimestamp = (e: Expr, other: Expr) =>
    e.type === 'date' && other.type.startsWith('timestamp') ? `(${e.sql} || 'T00:00:00')` : e.sql;
  return [asTimestamp(left, right), asTimestamp(right, left)];
}

/**
 * Two operands for `<`, `>`, `<=`, `>=` and BETWEEN: as comparable(), and text through the
 * collation's sort key, because PostgreSQL orders text by its collation (`en_US.UTF-8` on CKAN
 * sites: `'b' > 'A'`, `'é' < 'f'`); `=` stays byte equality, which a deterministic collation's is.
 */
export function ordered(a: Expr, b: Expr): [string, string] {
  const [l, r] = comparable(a, b);
  const left = literalAs(a, b.type);
  const right = literalAs(b, left.type);
  if (TEXT_TYPES.has(left.type) && TEXT_TYPES.has(right.type)) return [`deskstore_sort_key(${l})`, `deskstore_sort_key(${r})`];
  return [l, r];
}
