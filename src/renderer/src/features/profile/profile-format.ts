/** Statistics and histogram labels in the user's language. Pure: no DOM. */
import type { ProfileBucket } from '../../../../shared/wire/profile';
import { formatCell, isNumericType } from '../../format/cell';
import { formatWallClock } from '../../format/date';
import type { NumberStyle } from '../../format/number-style';

const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;

const statFormats = new Map<string, Intl.NumberFormat>();

/**
 * A statistic (min, max, mean, median, a sum): at most 2 decimals (4 below 1), grouped as the
 * column's numbers are (number-style.ts: an identifier's min and max have no separators).
 * Exact decimal text from the server (a numeric sum or mean) is rounded as text, never
 * through a double.
 */
export function formatStatistic(value: number | string | null, type: string, locale: string, style?: NumberStyle): string {
  if (value === null) return '';
  const decimalText = typeof value === 'string' && DECIMAL_TEXT.test(value);
  if ((typeof value === 'number' || decimalText) && isNumericType(type)) {
    const magnitude = Math.abs(Number(value));
    const digits = magnitude >= 1 || magnitude === 0 ? 2 : 4;
    const grouping = style?.grouping ?? true;
    const key = `${locale}|${digits}|${grouping}`;
    let format = statFormats.get(key);
    if (!format) {
      format = new Intl.NumberFormat(locale, { maximumFractionDigits: digits, useGrouping: grouping ? 'always' : false });
      statFormats.set(key, format);
    }
    // Intl formats decimal strings exactly (ES2023)
    return format.format(typeof value === 'string' ? (value as `${number}`) : value);
  }
  return formatCell(value, type, locale, { yes: 'true', no: 'false' }, style);
}

const monthFormats = new Map<string, Intl.DateTimeFormat>();

function monthYear(iso: string, locale: string): string {
  let format = monthFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' });
    monthFormats.set(locale, format);
  }
  const [y, m] = iso.split('-').map(Number);
  const d = new Date(0);
  d.setUTCFullYear(y!, m! - 1, 1);
  return format.format(d);
}

/** `2020`, `2010–2019`, `Mar 2020`, `15 Mar 2020`, `15 Mar 2020, 14:00`, or `10 – 20` for numbers. */
export function bucketLabel(bucket: ProfileBucket, unit: string | null, type: string, locale: string, style?: NumberStyle): string {
  if (typeof bucket.from === 'number' && typeof bucket.to === 'number') {
    return `${formatStatistic(bucket.from, type, locale, style)} – ${formatStatistic(bucket.to, type, locale, style)}`;
  }
  const from = String(bucket.from);
  const to = String(bucket.to);
  if (unit === 'year') return from.slice(0, 4);
  if (unit?.endsWith('years')) return `${from.slice(0, 4)}–${Number(to.slice(0, 4)) - 1}`;
  if (unit === 'month') return monthYear(from, locale);
  if (unit === 'day') return formatWallClock(from.slice(0, 10), locale);
  return formatWallClock(from.slice(0, 19), locale);
}
