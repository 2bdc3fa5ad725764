/** Statistics and histogram labels in the user's language. Pure: no DOM. */
import type { ProfileBucket } from '../../../../shared/wire/profile';
import { formatCell, isNumericType } from '../../format/cell';
import { formatWallClock } from '../../format/date';

const statFormats = new Map<string, Intl.NumberFormat>();

/** A mean or median: at most 2 decimals (4 below 1), grouped as table numbers are. */
export function formatStatistic(value: number | string | null, type: string, locale: string): string {
  if (value === null) return '';
  if (typeof value === 'number' && isNumericType(type)) {
    const digits = Math.abs(value) >= 1 || value === 0 ? 2 : 4;
    const key = `${locale}|${digits}`;
    let format = statFormats.get(key);
    if (!format) {
      format = new Intl.NumberFormat(locale, { maximumFractionDigits: digits, useGrouping: 'always' });
      statFormats.set(key, format);
    }
    return format.format(value);
  }
  return formatCell(value, type, locale, { yes: 'true', no: 'false' });
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
export function bucketLabel(bucket: ProfileBucket, unit: string | null, type: string, locale: string): string {
  if (typeof bucket.from === 'number' && typeof bucket.to === 'number') {
    return `${formatStatistic(bucket.from, type, locale)} – ${formatStatistic(bucket.to, type, locale)}`;
  }
  const from = String(bucket.from);
  const to = String(bucket.to);
  if (unit === 'year') return from.slice(0, 4);
  if (unit?.endsWith('years')) return `${from.slice(0, 4)}–${Number(to.slice(0, 4)) - 1}`;
  if (unit === 'month') return monthYear(from, locale);
  if (unit === 'day') return formatWallClock(from.slice(0, 10), locale);
  return formatWallClock(from.slice(0, 19), locale);
}
