/** One table cell as text, by the column's DataStore type. Pure: no DOM. */
import { formatWallClock } from './date';
import { formatDecimalText, formatNumber } from './number';

export interface BooleanLabels {
  readonly yes: string;
  readonly no: string;
}

const NUMERIC = new Set(['int', 'int2', 'int4', 'int8', 'integer', 'bigint', 'numeric', 'float4', 'float8', 'float', 'double precision', 'real']);
const DATES = new Set(['date', 'timestamp', 'timestamptz']);

export function isNumericType(type: string): boolean {
  return NUMERIC.has(type);
}

export function isDateType(type: string): boolean {
  return DATES.has(type);
}

export function formatCell(value: unknown, type: string, locale: string, labels: BooleanLabels): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return formatNumber(value, locale);
  if (typeof value === 'boolean') return value ? labels.yes : labels.no;
  if (typeof value === 'string') {
    // numeric/int8 values a double cannot say arrive as their exact text (api/exact-json.ts)
    if (isNumericType(type) && /^-?\d+(\.\d+)?$/.test(value)) return formatDecimalText(value, locale);
    if (isDateType(type)) return formatWallClock(value, locale);
    return value;
  }
  return JSON.stringify(value);
}
