/**
 * Locale formatting of numbers, sizes, durations and dates with Intl only. Pure (no DOM),
 * so it is unit-tested. Grouping is forced (`useGrouping: 'always'`): CLDR leaves Italian
 * four-digit numbers ungrouped (`1234,56`), but a table column reads better as `1.234,56`.
 */
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

/**
 * An exact decimal sent as text (a numeric with its scale, an int8 beyond 2^53): grouped in
 * the locale with every digit and the written scale (`2199.50` → `2.199,50` in Italian).
 */
export function formatDecimalText(text: string, locale: string): string {
  const point = text.indexOf('.');
  const scale = point < 0 ? 0 : text.length - point - 1;
  // Intl formats a numeric string exactly (no detour through a double).
  const format = numberFormat(locale, { useGrouping: 'always', minimumFractionDigits: scale, maximumFractionDigits: scale });
  return format.format(text as `${number}`);
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
    style: 'unit', unit: BYTE_UNITS[unit], unitDisplay: unit === 0 ? 'long' : 'short',
    maximumFractionDigits: unit === 0 || value >= 100 ? 0 : 1,
  }).format(value);
}

/** A rate of rows per second, compact (`12,345` / `1.2M`). */
export function formatRate(perSecond: number, locale: string): string {
  return numberFormat(locale, { notation: perSecond >= 100_000 ? 'compact' : 'standard', maximumFractionDigits: perSecond >= 100_000 ? 1 : 0, useGrouping: 'always' }).format(perSecond);
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
