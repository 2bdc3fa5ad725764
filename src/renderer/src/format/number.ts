/**
 * Locale formatting of numbers, sizes, durations and dates with Intl only. Pure (no DOM),
 * so it is unit-tested. Grouping is forced (`useGrouping: 'always'`): CLDR leaves Italian
 * four-digit numbers ungrouped (`1234,56`), but a table column reads better as `1.234,56`.
 */
import { decimalsOf, type NumberStyle } from './number-style';

const cache = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = cache.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    cache.set(key, format);
  }
  return format;
}

/** Any number, all its significant decimals kept (data values must not be rounded). */
export function formatNumber(value: number, locale: string): string {
  if (!Number.isFinite(value)) return String(value);
  return numberFormat(locale, { useGrouping: 'always', maximumFractionDigits: 20 }).format(value);
}

/** Fractions longer than this are rounded for reading (the cell keeps the full value in its tooltip). */
const READABLE_DECIMALS = 6;
/** …but never below this many significant digits (`0.0000123457`, not `0.000012`). */
const READABLE_SIGNIFICANT = 6;

/**
 * A table cell's number in its column's style (number-style.ts). Values sent as exact decimal
 * text are formatted as text by Intl, so digits beyond a double's precision are not lost.
 */
export function formatNumberCell(value: number | string, locale: string, style: NumberStyle): { text: string; full: string | null } {
  if (typeof value === 'number' && !Number.isFinite(value)) return { text: String(value), full: null };
  // Intl formats decimal strings exactly (ES2023): no detour through a double
  const exact = typeof value === 'string' ? (value as `${number}`) : value;
  const own = decimalsOf(value);
  const useGrouping = style.grouping ? 'always' : false;
  const min = Math.min(20, Math.max(style.minFractionDigits, typeof value === 'string' ? own : 0));
  if (own <= READABLE_DECIMALS) {
    const text = numberFormat(locale, { useGrouping, minimumFractionDigits: min, maximumFractionDigits: Math.max(min, own) }).format(exact);
    return { text, full: null };
  }
  const rounded = numberFormat(locale, {
    useGrouping,
    maximumFractionDigits: READABLE_DECIMALS,
    maximumSignificantDigits: READABLE_SIGNIFICANT,
    roundingPriority: 'morePrecision',
  }).format(exact);
  const full = numberFormat(locale, { useGrouping, maximumFractionDigits: 20 }).format(exact);
  return { text: rounded, full: rounded === full ? null : full };
}

/** A count (`7.901` in Italian, `7,901` in English). */
export function formatCount(value: number, locale: string): string {
  return numberFormat(locale, { useGrouping: 'always', maximumFractionDigits: 0 }).format(value);
}

export function formatPercent(fraction: number, locale: string): string {
  return numberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(Math.max(0, Math.min(1, fraction)));
}

const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/** 1143367 → `1.1 MB` / `1,1 MB` (decimal units, as file managers show them). */
export function formatBytes(bytes: number, locale: string): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return numberFormat(locale, {
    style: 'unit',
    unit: BYTE_UNITS[unit],
    unitDisplay: unit === 0 ? 'long' : 'short',
    maximumFractionDigits: unit === 0 || value >= 100 ? 0 : 1,
  }).format(value);
}

/** A rate of rows per second, compact (`12,345` / `1.2M`). */
export function formatRate(perSecond: number, locale: string): string {
  return numberFormat(locale, {
    notation: perSecond >= 100_000 ? 'compact' : 'standard',
    maximumFractionDigits: perSecond >= 100_000 ? 1 : 0,
    useGrouping: 'always',
  }).format(perSecond);
}

/** Seconds as `45 s`, `3 min 5 s`, `1 h 2 min` in the locale's short unit style. */
export function formatDuration(seconds: number, locale: string): string {
  const total = Math.max(0, Math.round(seconds));
  const unit = (value: number, name: 'hour' | 'minute' | 'second') =>
    numberFormat(locale, { style: 'unit', unit: name, unitDisplay: 'short' }).format(value);
  if (total < 60) return unit(total, 'second');
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = total % 60;
  if (hours > 0) return minutes > 0 ? `${unit(hours, 'hour')} ${unit(minutes, 'minute')}` : unit(hours, 'hour');
  return secs > 0 ? `${unit(minutes, 'minute')} ${unit(secs, 'second')}` : unit(minutes, 'minute');
}
