/** DataStore column types by what their values are (CKAN's names and PostgreSQL's aliases). Pure. */
const INTEGER = new Set(['int', 'int2', 'int4', 'int8', 'integer', 'bigint', 'smallint']);
const NUMERIC = new Set([...INTEGER, 'numeric', 'float4', 'float8', 'float', 'double precision', 'real']);
const DATES = new Set(['date', 'timestamp', 'timestamptz']);

export function isNumericType(type: string): boolean {
  return NUMERIC.has(type);
}

export function isIntegerType(type: string): boolean {
  return INTEGER.has(type);
}

export function isDateType(type: string): boolean {
  return DATES.has(type);
}
