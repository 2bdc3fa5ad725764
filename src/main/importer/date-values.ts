/**
 * The date and timestamp spellings CSV exports use, validated as real calendar dates and
 * written in the engine's canonical forms. Day-first (`dd/mm/yyyy`) is the only slash order:
 * these are Italian files, and a month-first value such as `12/31/2020` fails validation
 * (month 31), so an American column ends up as text instead of as wrong dates.
 */
// The calendar check is the engine's: the patterns below only let four-digit years reach it.
import { isValidDate } from '../engine/importer-api';

export type DateOrder = 'iso' | 'dmy';

export interface DateValue {
  value: string;
  order: DateOrder;
}
export interface TimestampValue {
  value: string;
  order: DateOrder;
  zoned: boolean;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DMY_DATE = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4})$/;
const ISO_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;
const DMY_TIMESTAMP = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4})[Tt ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?$/;

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function formatDate(year: number, month: number, day: number): string {
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** Microseconds at most (PostgreSQL's precision), trailing zeros dropped as the engine does. */
function formatFraction(digits: string | undefined): string {
  const f = (digits ?? '').slice(0, 6).replace(/0+$/, '');
  return f ? `.${f}` : '';
}

function validTime(hour: number, minute: number, second: number): boolean {
  return hour <= 23 && minute <= 59 && second <= 59;
}

export function parseDateValue(text: string): DateValue | null {
  let m = ISO_DATE.exec(text);
  if (m) {
    const [y, mo, d] = [+m[1]!, +m[2]!, +m[3]!];
    return isValidDate(y, mo, d) ? { value: formatDate(y, mo, d), order: 'iso' } : null;
  }
  m = DMY_DATE.exec(text);
  if (m) {
    const [d, mo, y] = [+m[1]!, +m[3]!, +m[4]!];
    return isValidDate(y, mo, d) ? { value: formatDate(y, mo, d), order: 'dmy' } : null;
  }
  return null;
}

/**
 * Moves a wall-clock time at a UTC offset to UTC. Built with setUTCFullYear because
 * Date.UTC maps years 0–99 to 1900–1999.
 */
function toUtc(
  parts: [number, number, number, number, number, number],
  offsetMinutes: number,
): [number, number, number, number, number, number] | null {
  const [y, mo, d, h, mi, s] = parts;
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi - offsetMinutes, s, 0);
  const year = date.getUTCFullYear();
  if (year < 1 || year > 9999) return null;
  return [year, date.getUTCMonth() + 1, date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds()];
}

/**
 * `YYYY-MM-DD[T ]HH:MM[:SS[.f]]` with an optional `Z`/`±HH[:MM]` offset (zoned values are
 * converted to UTC, since the stored timestamp has no zone), or `d/m/yyyy H:MM[:SS[.f]]`
 * (also with `-` or `.` between date parts). Not dates alone.
 */
export function parseTimestampValue(text: string): TimestampValue | null {
  let m = ISO_TIMESTAMP.exec(text);
  let order: DateOrder;
  let parts: [number, number, number, number, number, number];
  let fraction: string | undefined;
  let offset: number | null = null;
  if (m) {
    order = 'iso';
    parts = [+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, m[6] ? +m[6] : 0];
    fraction = m[7];
    if (m[8]) offset = 0;
    else if (m[9]) {
      const oh = +m[10]!;
      const om = m[11] ? +m[11] : 0;
      if (oh > 23 || om > 59) return null;
      offset = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
    }
  } else {
    m = DMY_TIMESTAMP.exec(text);
    if (!m) return null;
    order = 'dmy';
    parts = [+m[4]!, +m[3]!, +m[1]!, +m[5]!, +m[6]!, m[7] ? +m[7] : 0];
    fraction = m[8];
  }
  if (!isValidDate(parts[0], parts[1], parts[2]) || !validTime(parts[3], parts[4], parts[5])) return null;
  if (offset !== null) {
    const utc = toUtc(parts, offset);
    if (!utc) return null;
    parts = utc;
  }
  const [y, mo, d, h, mi, s] = parts;
  const value = `${formatDate(y, mo, d)}T${pad(h)}:${pad(mi)}:${pad(s)}${formatFraction(fraction)}`;
  return { value, order, zoned: offset !== null };
}
