/**
 * How a numeric column's cells read best, decided once per column from its name, type and a
 * sample of its values (the first page). Pure: no DOM.
 *  - Identifiers, codes and years are integers nobody adds up: `3173435`, not `3,173,435`;
 *    `2021`, not `2.021`; also in camelCase names (`idImpianto`).
 * Every place that shows a column's numbers (grid, row page, filter values, chips, chart
 * and profile tables, SQL results) asks this one function.
 *  - Amounts keep the column's decimals: a price column with two decimals shows `2.199,50`,
 *    not `2.199,5`, even for a value the server sends as 2199.5; a value sent as exact text
 *    (`"2199.50"`) keeps its own decimals too.
 *  - Measurements with long fractions (coordinates, computed ratios) are rounded to a readable
 *    precision; the cell's tooltip has the full value.
 */
import { isIntegerType } from './column-types';

export interface NumberStyle {
  /** Thousands separators. */
  readonly grouping: boolean;
  /** Decimals always shown (trailing zeros kept). */
  readonly minFractionDigits: number;
}

export const DEFAULT_NUMBER_STYLE: NumberStyle = { grouping: true, minFractionDigits: 0 };

/** Names of identifier, code and year columns, in English and Italian. */
const ID_NAME =
  /(^|[^\p{L}])(id|ids|cod|codice|codici|code|codes|key|cap|zip|istat|anno|year|fips|iso|nr|num|numero)([^\p{L}]|$)|(id|code|key)$/iu;
/** A column whose fractions all fit in this many decimals is fixed-point data (prices, rates). */
const MAX_FIXED_DECIMALS = 4;

/** Decimals written in a value's shortest form (`2199.5` → 1, `"2199.50"` → 2, `1e-7` → 7). */
export function decimalsOf(value: number | string): number {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const exponent = /e([+-]?\d+)$/i.exec(text);
  const mantissa = exponent ? text.slice(0, exponent.index) : text;
  const dot = mantissa.indexOf('.');
  const fraction = dot < 0 ? 0 : mantissa.length - dot - 1;
  return Math.max(0, fraction - (exponent ? Number(exponent[1]) : 0));
}

/** `idImpianto` → `id Impianto`, `codISTAT` → `cod ISTAT`: camelCase names are read word by word. */
function words(name: string): string {
  return name.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2');
}

const isYear = (v: number): boolean => Number.isInteger(v) && v >= 1800 && v <= 2100;

export function numberStyleOf(
  field: { readonly id: string; readonly type: string; readonly info?: { readonly label?: string } },
  sample: readonly unknown[],
): NumberStyle {
  // `_id` is shown as the row number (#): a count, so grouped
  if (field.id === '_id') return DEFAULT_NUMBER_STYLE;
  const values = sample.filter((v): v is number | string => typeof v === 'number' || (typeof v === 'string' && v.trim() !== ''));
  if (isIntegerType(field.type)) {
    const named = ID_NAME.test(words(field.id)) || ID_NAME.test(words(field.info?.label ?? ''));
    const years = values.length > 0 && values.every((v) => isYear(Number(v)));
    return { grouping: !named && !years, minFractionDigits: 0 };
  }
  const decimals = values.map(decimalsOf);
  const scale = decimals.length ? Math.max(...decimals) : 0;
  return { grouping: true, minFractionDigits: scale <= MAX_FIXED_DECIMALS ? scale : 0 };
}
