import type { StorageKind } from '../field-types';

/**
 * Canonical date and timestamp text ↔ milliseconds since 1970 (UTC, proleptic Gregorian), for
 * summaries that average or bin dates. Date.UTC cannot be used: it maps years 0–99 to 19xx.
 */
const CANONICAL = /^(\d{4,6})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?)?/;

export function utcMillis(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, ms);
  return d.getTime();
}

/** Milliseconds of a stored date/timestamp/timestamptz (stored in UTC), or NaN. */
export function epochOf(text: string): number {
  const m = CANONICAL.exec(text);
  if (!m) return NaN;
  const ms = m[7] ? Math.floor(Number(`0.${m[7]}`) * 1000) : 0;
  return utcMillis(+m[1]!, +m[2]!, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0), ms);
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** The canonical text of an instant for a date-like storage (fractions of a second dropped). */
export function textOfEpoch(ms: number, storage: StorageKind): string {
  const d = new Date(ms);
  const date = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  if (storage === 'date') return date;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return storage === 'timestamptz' ? `${date}T${time}+00:00` : `${date}T${time}`;
}

export const isDateStorage = (storage: StorageKind): boolean => storage === 'date' || storage === 'timestamp' || storage === 'timestamptz';
