/**
 * Date and time input as PostgreSQL reads it for the forms CKAN clients send
 * (`2012-5-25`, `2012-10-01T02:43Z`, `12:42`, docs/ckan-contract.md §9), normalised to the canonical text
 * Deskstore stores. Slash dates are month-first, as PostgreSQL's default DateStyle (MDY);
 * day-first CSV dates are recognised by the importer, which knows the whole column.
 */

export interface DateParts {
  year: number;
  month: number;
  day: number;
}
export interface TimeParts {
  hour: number;
  minute: number;
  second: number;
  fraction: string;
}
export interface TimestampParts extends DateParts, TimeParts {
  offsetMinutes: number | null;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

export function isValidDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1 || year < 1 || year > 294276) return false;
  const days = [31, (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return day <= days[month - 1]!;
}

const ISO_DATE = /^(\d{4,6})-(\d{1,2})-(\d{1,2})/;
const SLASH_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})/;
const COMPACT_DATE = /^(\d{4})(\d{2})(\d{2})(?![\d])/;

/** Reads the date at the start of `text`; returns the parts and how many characters it used. */
function readDate(text: string): { date: DateParts; length: number } | null {
  let m = ISO_DATE.exec(text);
  if (m) return { date: { year: +m[1]!, month: +m[2]!, day: +m[3]! }, length: m[0].length };
  m = SLASH_DATE.exec(text);
  if (m) return { date: { year: +m[3]!, month: +m[1]!, day: +m[2]! }, length: m[0].length };
  m = COMPACT_DATE.exec(text);
  if (m) return { date: { year: +m[1]!, month: +m[2]!, day: +m[3]! }, length: m[0].length };
  return null;
}

const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?/;
const ZONE = /^\s*(?:(Z|UTC|GMT)|([+-])(\d{1,2})(?::?(\d{2}))?)$/i;

function readTime(text: string): { time: TimeParts; length: number } | null {
  const m = TIME.exec(text);
  if (!m) return null;
  const time = { hour: +m[1]!, minute: +m[2]!, second: m[3] ? +m[3] : 0, fraction: (m[4] ?? '').slice(0, 6) };
  if (time.hour > 24 || time.minute > 59 || time.second > 60) return null;
  if (time.hour === 24 && (time.minute || time.second || /[1-9]/.test(time.fraction))) return null;
  return { time, length: m[0].length };
}

function readZone(text: string): number | null | undefined {
  if (text.trim() === '') return null;
  const m = ZONE.exec(text);
  if (!m) return undefined;
  if (m[1]) return 0;
  const minutes = +m[3]! * 60 + (m[4] ? +m[4] : 0);
  return m[2] === '-' ? -minutes : minutes;
}

export function parseDate(input: string): DateParts | null {
  const text = input.trim();
  const read = readDate(text);
  if (!read) return null;
  const rest = text.slice(read.length);
  // A timestamp given for a date column keeps its date part, as a PostgreSQL cast does.
  if (rest !== '' && !/^([T ]\d{1,2}:\d{2}.*)$/.test(rest)) return null;
  const { year, month, day } = read.date;
  return isValidDate(year, month, day) ? read.date : null;
}

export function parseTime(input: string): TimeParts | null {
  const text = input.trim();
  const read = readTime(text);
  if (!read) return null;
  return readZone(text.slice(read.length)) === undefined ? null : read.time;
}

export function parseTimestamp(input: string): TimestampParts | null {
  const text = input.trim();
  const readD = readDate(text);
  if (!readD || !isValidDate(readD.date.year, readD.date.month, readD.date.day)) return null;
  let rest = text.slice(readD.length);
  if (rest === '') return { ...readD.date, hour: 0, minute: 0, second: 0, fraction: '', offsetMinutes: null };
  if (!/^[T ]/.test(rest)) return null;
  rest = rest.slice(1);
  const readT = readTime(rest);
  if (!readT) return null;
  const offset = readZone(rest.slice(readT.length));
  if (offset === undefined) return null;
  return { ...readD.date, ...readT.time, offsetMinutes: offset };
}

export function formatDate(d: DateParts): string {
  return `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;
}

export function formatTime(t: TimeParts): string {
  const fraction = t.fraction.replace(/0+$/, '');
  return `${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}${fraction ? `.${fraction}` : ''}`;
}

/** `YYYY-MM-DDTHH:MM:SS[.ffffff]`, the zone dropped (timestamp without time zone). */
export function formatTimestamp(t: TimestampParts): string {
  return `${formatDate(t)}T${formatTime(t)}`;
}

/** The instant in UTC, `YYYY-MM-DDTHH:MM:SS[.ffffff]+00:00` (no zone given = UTC). */
export function formatTimestampUtc(t: TimestampParts): string {
  if (!t.offsetMinutes) return `${formatTimestamp(t)}+00:00`;
  const ms = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute - t.offsetMinutes, t.second);
  const d = new Date(ms);
  const shifted: TimestampParts = {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    fraction: t.fraction,
    offsetMinutes: 0,
  };
  return `${formatTimestamp(shifted)}+00:00`;
}
