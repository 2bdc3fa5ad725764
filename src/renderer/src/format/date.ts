/**
 * Dates as the DataStore returns them: `date` columns as `YYYY-MM-DD`, `timestamp` columns as
 * `YYYY-MM-DDTHH:MM:SS[.ffffff]` without a time zone (a wall-clock time, shown as is, never
 * shifted to the viewer's zone). Catalogue instants (`importedAt`, with `Z`) are shown in
 * local time. Pure: no DOM.
 */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?$/;
const cache = new Map<string, Intl.DateTimeFormat>();

function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = cache.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    cache.set(key, format);
  }
  return format;
}

/** A `date` or `timestamp` cell; anything that is not ISO comes back unchanged. */
export function formatWallClock(value: string, locale: string): string {
  const m = ISO.exec(value.trim());
  if (!m) return value;
  const [year, month, day, hour, minute, second, fraction] = m.slice(1).map((part) => (part === undefined ? undefined : Number(part)));
  const millis = fraction === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  const date = new Date(Date.UTC(year!, month! - 1, day, hour ?? 0, minute ?? 0, second ?? 0, millis));
  if (Number.isNaN(date.getTime())) return value;
  if (hour === undefined) return dateFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
  const withSeconds = (second ?? 0) !== 0 || millis !== 0;
  return dateFormat(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    ...(withSeconds ? { second: '2-digit' } : {}),
    hourCycle: 'h23',
    timeZone: 'UTC',
  }).format(date);
}

/** An instant (ISO with a zone, or CKAN's naive UTC `metadata_modified`) in the viewer's time. */
export function formatInstant(value: string | null | undefined, locale: string, timeZone?: string): string {
  if (!value) return '';
  const text = /[zZ]|[+-]\d{2}:?\d{2}$/.test(value) ? value : `${value}Z`;
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return value;
  return dateFormat(locale, { dateStyle: 'medium', timeStyle: 'short', ...(timeZone ? { timeZone } : {}) }).format(date);
}
