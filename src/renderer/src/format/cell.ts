/** One table cell as text, by the column's DataStore type. Pure: no DOM. */
import { isDateType, isNumericType } from './column-types';
import { formatWallClock } from './date';
import { formatNumberCell } from './number';
import { DEFAULT_NUMBER_STYLE, type NumberStyle } from './number-style';

export { isDateType, isIntegerType, isNumericType } from './column-types';

export interface BooleanLabels {
  readonly yes: string;
  readonly no: string;
}

export interface CellText {
  readonly text: string;
  /** The whole value when `text` shows it rounded (for a tooltip), else null. */
  readonly full: string | null;
}

/** A numeric value sent as text (exact decimals, or beyond a double's range). */
const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;

export function formatCellText(
  value: unknown,
  type: string,
  locale: string,
  labels: BooleanLabels,
  style: NumberStyle = DEFAULT_NUMBER_STYLE,
): CellText {
  if (value === null || value === undefined) return { text: '', full: null };
  if (typeof value === 'number') return formatNumberCell(value, locale, style);
  if (typeof value === 'boolean') return { text: value ? labels.yes : labels.no, full: null };
  if (typeof value === 'string') {
    if (isNumericType(type) && DECIMAL_TEXT.test(value)) return formatNumberCell(value, locale, style);
    if (isDateType(type)) return { text: formatWallClock(value, locale), full: null };
    return { text: value, full: null };
  }
  return { text: JSON.stringify(value), full: null };
}

export function formatCell(value: unknown, type: string, locale: string, labels: BooleanLabels, style?: NumberStyle): string {
  return formatCellText(value, type, locale, labels, style).text;
}
