import { formatDate, formatTimestamp, formatTimestampUtc, isValidDate, parseTimestamp, type TimestampParts } from '../values/datetime';
import { SqlQueryError } from './sql-errors';

/**
 * PostgreSQL's date/time functions over Deskstore's canonical texts (`2020-01-02`,
 * `2020-01-02T03:04:05.678`, `…+00:00`): date_trunc, extract/date_part, to_char, to_date /
 * to_timestamp, interval arithmetic with literal intervals.
 */

const pad = (n: number, width = 2): string => String(Math.trunc(n)).padStart(width, '0');

function parts(value: unknown): TimestampParts | null {
  if (value === null || value === undefined) return null;
  const t = parseTimestamp(String(value));
  if (!t) throw new SqlQueryError(`invalid input syntax for type timestamp: "${String(value)}"`);
  return t;
}

/** The canonical text of `t` for a value of `type` (date, timestamp, timestamptz). */
function format(t: TimestampParts, type: string): string {
  if (type === 'date') return formatDate(t);
  return type === 'timestamptz' ? formatTimestampUtc({ ...t, offsetMinutes: 0 }) : formatTimestamp(t);
}

const fromMillis = (ms: number, fraction = ''): TimestampParts => {
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    fraction,
    offsetMinutes: 0,
  };
};
const toMillis = (t: TimestampParts): number => Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);

export function dateTrunc(unit: unknown, value: unknown, type: string): string | null {
  const t = parts(value);
  if (t === null || unit === null) return null;
  const u = String(unit).toLowerCase().replace(/s$/, '');
  const out: TimestampParts = { ...t, fraction: '', offsetMinutes: 0 };
  switch (u) {
    case 'millennium':
      out.year = Math.floor((t.year - 1) / 1000) * 1000 + 1;
      out.month = 1;
      out.day = 1;
      break;
    case 'century':
      out.year = Math.floor((t.year - 1) / 100) * 100 + 1;
      out.month = 1;
      out.day = 1;
      break;
    case 'decade':
      out.year = Math.floor(t.year / 10) * 10;
      out.month = 1;
      out.day = 1;
      break;
    case 'year':
      out.month = 1;
      out.day = 1;
      break;
    case 'quarter':
      out.month = Math.floor((t.month - 1) / 3) * 3 + 1;
      out.day = 1;
      break;
    case 'month':
      out.day = 1;
      break;
    case 'week': {
      const weekday = (new Date(Date.UTC(t.year, t.month - 1, t.day)).getUTCDay() + 6) % 7; // Monday = 0
      Object.assign(out, fromMillis(Date.UTC(t.year, t.month - 1, t.day - weekday)));
      break;
    }
    case 'day':
      break;
    case 'hour':
      out.minute = 0;
      out.second = 0;
      return format(out, type === 'date' ? 'timestamp' : type);
    case 'minute':
      out.second = 0;
      return format(out, type === 'date' ? 'timestamp' : type);
    case 'second':
      return format(out, type === 'date' ? 'timestamp' : type);
    case 'millisecond':
    case 'microsecond':
      return format(
        { ...t, offsetMinutes: 0, fraction: u === 'millisecond' ? t.fraction.slice(0, 3) : t.fraction },
        type === 'date' ? 'timestamp' : type,
      );
    default:
      throw new SqlQueryError(`unit "${String(unit)}" not recognized for type timestamp without time zone`);
  }
  out.hour = 0;
  out.minute = 0;
  out.second = 0;
  return format(out, type === 'date' ? 'timestamp' : type);
}

/** extract/date_part: the field as a number (seconds with their fraction). */
export function extractField(field: unknown, value: unknown, type: string): number | null {
  const t = parts(value);
  if (t === null || field === null) return null;
  const f = String(field).toLowerCase();
  const seconds = t.second + (t.fraction ? Number(`0.${t.fraction}`) : 0);
  const date = new Date(Date.UTC(t.year, t.month - 1, t.day));
  switch (f) {
    case 'year':
    case 'years':
      return t.year;
    case 'month':
    case 'months':
      return t.month;
    case 'day':
    case 'days':
      return t.day;
    case 'hour':
    case 'hours':
      return t.hour;
    case 'minute':
    case 'minutes':
      return t.minute;
    case 'second':
    case 'seconds':
      return seconds;
    case 'milliseconds':
      return seconds * 1000;
    case 'microseconds':
      return Math.round(seconds * 1e6);
    case 'quarter':
      return Math.floor((t.month - 1) / 3) + 1;
    case 'dow':
      return date.getUTCDay();
    case 'isodow':
      return date.getUTCDay() || 7;
    case 'doy':
      return Math.round((date.getTime() - Date.UTC(t.year, 0, 1)) / 86400000) + 1;
    case 'decade':
      return Math.floor(t.year / 10);
    case 'century':
      return Math.ceil(t.year / 100);
    case 'millennium':
      return Math.ceil(t.year / 1000);
    case 'week':
      return isoWeek(date).week;
    case 'isoyear':
      return isoWeek(date).year;
    case 'epoch':
      return toMillis(t) / 1000 + (t.fraction ? Number(`0.${t.fraction}`) : 0);
    default:
      throw new SqlQueryError(`unit "${String(field)}" not recognized for type ${type === 'date' ? 'date' : 'timestamp'}`);
  }
}

function isoWeek(date: Date): { week: number; year: number } {
  const d = new Date(date.getTime());
  d.setUTCDate(d.getUTCDate() + 3 - ((d.getUTCDay() + 6) % 7));
  const firstThursday = new Date(Date.UTC(d.getUTCFullYear(), 0, 4));
  const week = 1 + Math.round(((d.getTime() - firstThursday.getTime()) / 86400000 - 3 + ((firstThursday.getUTCDay() + 6) % 7)) / 7);
  return { week, year: d.getUTCFullYear() };
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** to_char for dates and timestamps: the common PostgreSQL template patterns. */
export function formatDateTemplate(value: unknown, template: string): string | null {
  const t = parts(value);
  if (t === null) return null;
  const date = new Date(Date.UTC(t.year, t.month - 1, t.day));
  const hour12 = t.hour % 12 === 0 ? 12 : t.hour % 12;
  const micro = t.fraction.padEnd(6, '0');
  const fields: [string, (fm: boolean) => string][] = [
    ['YYYY', () => pad(t.year, 4)],
    ['YY', () => pad(t.year % 100)],
    ['Y', () => String(t.year % 10)],
    ['MONTH', (fm) => (fm ? MONTHS[t.month - 1]! : MONTHS[t.month - 1]!.padEnd(9)).toUpperCase()],
    ['Month', (fm) => (fm ? MONTHS[t.month - 1]! : MONTHS[t.month - 1]!.padEnd(9))],
    ['month', (fm) => (fm ? MONTHS[t.month - 1]! : MONTHS[t.month - 1]!.padEnd(9)).toLowerCase()],
    ['MON', () => MONTHS[t.month - 1]!.slice(0, 3).toUpperCase()],
    ['Mon', () => MONTHS[t.month - 1]!.slice(0, 3)],
    ['mon', () => MONTHS[t.month - 1]!.slice(0, 3).toLowerCase()],
    ['MM', (fm) => (fm ? String(t.month) : pad(t.month))],
    ['DAY', (fm) => (fm ? DAYS[date.getUTCDay()]! : DAYS[date.getUTCDay()]!.padEnd(9)).toUpperCase()],
    ['Day', (fm) => (fm ? DAYS[date.getUTCDay()]! : DAYS[date.getUTCDay()]!.padEnd(9))],
    ['day', (fm) => (fm ? DAYS[date.getUTCDay()]! : DAYS[date.getUTCDay()]!.padEnd(9)).toLowerCase()],
    ['DY', () => DAYS[date.getUTCDay()]!.slice(0, 3).toUpperCase()],
    ['Dy', () => DAYS[date.getUTCDay()]!.slice(0, 3)],
    ['dy', () => DAYS[date.getUTCDay()]!.slice(0, 3).toLowerCase()],
    ['DDD', () => pad(extractField('doy', value, 'timestamp')!, 3)],
    ['DD', (fm) => (fm ? String(t.day) : pad(t.day))],
    ['D', () => String(date.getUTCDay() + 1)],
    ['HH24', (fm) => (fm ? String(t.hour) : pad(t.hour))],
    ['HH12', (fm) => (fm ? String(hour12) : pad(hour12))],
    ['HH', (fm) => (fm ? String(hour12) : pad(hour12))],
    ['MI', (fm) => (fm ? String(t.minute) : pad(t.minute))],
    ['SS', (fm) => (fm ? String(t.second) : pad(t.second))],
    ['MS', () => micro.slice(0, 3)],
    ['US', () => micro],
    ['AM', () => (t.hour < 12 ? 'AM' : 'PM')],
    ['PM', () => (t.hour < 12 ? 'AM' : 'PM')],
    ['am', () => (t.hour < 12 ? 'am' : 'pm')],
    ['pm', () => (t.hour < 12 ? 'am' : 'pm')],
    ['Q', () => String(Math.floor((t.month - 1) / 3) + 1)],
    ['IW', () => pad(isoWeek(date).week)],
    ['WW', () => pad(Math.floor((extractField('doy', value, 'timestamp')! - 1) / 7) + 1)],
    ['TZ', () => 'UTC'],
  ];
  let out = '';
  for (let i = 0; i < template.length;) {
    if (template[i] === '"') {
      const end = template.indexOf('"', i + 1);
      out += template.slice(i + 1, end < 0 ? undefined : end);
      i = end < 0 ? template.length : end + 1;
      continue;
    }
    const fm = template.startsWith('FM', i);
    const at = fm ? i + 2 : i;
    const field = fields.find(([pattern]) => template.startsWith(pattern, at));
    if (field) {
      out += field[1](fm);
      i = at + field[0].length;
    } else {
      out += template[i];
      i++;
    }
  }
  return out;
}

/** to_date / to_timestamp with a template (YYYY, MM, DD, HH24, MI, SS, and literal separators). */
export function parseDateTemplate(text: unknown, template: unknown, type: string): string | null {
  if (text === null || template === null) return null;
  const source = String(text);
  const tmpl = String(template);
  const found: Record<string, number> = {};
  let pos = 0;
  for (let i = 0; i < tmpl.length;) {
    const pattern = ['YYYY', 'HH24', 'HH12', 'MM', 'DD', 'HH', 'MI', 'SS', 'YY'].find((p) => tmpl.startsWith(p, i));
    if (!pattern) {
      if (/\s/.test(tmpl[i]!) || !/[0-9]/.test(source[pos] ?? '')) pos++;
      i++;
      continue;
    }
    const width = pattern === 'YYYY' ? 4 : 2;
    const m = new RegExp(`^\\d{1,${width}}`).exec(source.slice(pos));
    if (!m) throw new SqlQueryError(`invalid value "${source.slice(pos, pos + width)}" for "${pattern}"`);
    found[pattern.slice(0, 2)] = Number(m[0]);
    pos += m[0].length;
    i += pattern.length;
  }
  const year = found.YY !== undefined && found.YY < 100 && !tmpl.includes('YYYY') ? 2000 + found.YY : (found.YY ?? 1);
  const t: TimestampParts = {
    year,
    month: found.MM ?? 1,
    day: found.DD ?? 1,
    hour: found.HH ?? 0,
    minute: found.MI ?? 0,
    second: found.SS ?? 0,
    fraction: '',
    offsetMinutes: 0,
  };
  if (!isValidDate(t.year, t.month, t.day)) throw new SqlQueryError(`date/time field value out of range: "${source}"`);
  return format(t, type);
}

const INTERVAL_UNITS: Record<string, [keyof IntervalParts, number]> = {
  year: ['months', 12],
  years: ['months', 12],
  y: ['months', 12],
  mon: ['months', 1],
  mons: ['months', 1],
  month: ['months', 1],
  months: ['months', 1],
  week: ['days', 7],
  weeks: ['days', 7],
  w: ['days', 7],
  day: ['days', 1],
  days: ['days', 1],
  d: ['days', 1],
  hour: ['seconds', 3600],
  hours: ['seconds', 3600],
  h: ['seconds', 3600],
  minute: ['seconds', 60],
  minutes: ['seconds', 60],
  min: ['seconds', 60],
  mins: ['seconds', 60],
  m: ['seconds', 60],
  second: ['seconds', 1],
  seconds: ['seconds', 1],
  sec: ['seconds', 1],
  secs: ['seconds', 1],
  s: ['seconds', 1],
};

interface IntervalParts {
  months: number;
  days: number;
  seconds: number;
}

export function parseInterval(text: string): IntervalParts {
  const out: IntervalParts = { months: 0, days: 0, seconds: 0 };
  const source = text.trim().toLowerCase().replace(/^@\s*/, '');
  const re = /\s*(?:([+-]?\d+(?:\.\d+)?)\s*([a-z]+)|([+-])?(\d+):(\d{2})(?::(\d{2}(?:\.\d+)?))?)\s*/y;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while (consumed < source.length && (m = re.exec(source))) {
    consumed = re.lastIndex;
    if (m[1] !== undefined) {
      const unit = INTERVAL_UNITS[m[2]!];
      if (!unit) throw new SqlQueryError(`invalid input syntax for type interval: "${text}"`);
      out[unit[0]] += Number(m[1]) * unit[1];
    } else {
      const sign = m[3] === '-' ? -1 : 1;
      out.seconds += sign * (Number(m[4]) * 3600 + Number(m[5]) * 60 + Number(m[6] ?? 0));
    }
  }
  if (consumed !== source.length || source === '') throw new SqlQueryError(`invalid input syntax for type interval: "${text}"`);
  return out;
}

/** value ± interval, for dates (→ timestamp) and timestamps. */
export function addInterval(value: unknown, type: string, sign: number, interval: unknown): string | null {
  const t = parts(value);
  if (t === null || interval === null) return null;
  const i = parseInterval(String(interval));
  const month = t.month - 1 + sign * i.months;
  const year = t.year + Math.floor(month / 12);
  const m = ((month % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, m + 1, 0)).getUTCDate();
  const base = Date.UTC(year, m, Math.min(t.day, lastDay), t.hour, t.minute, t.second);
  const ms = base + sign * (i.days * 86400000 + i.seconds * 1000);
  return format(fromMillis(ms, t.fraction), type === 'date' ? 'timestamp' : type);
}

export function makeDate(year: unknown, month: unknown, day: unknown): string | null {
  if (year === null || month === null || day === null) return null;
  const [y, m, d] = [Number(year), Number(month), Number(day)];
  if (!isValidDate(y, m, d)) throw new SqlQueryError(`date field value out of range: ${y}-${pad(m)}-${pad(d)}`);
  return formatDate({ year: y, month: m, day: d });
}

export function epochToTimestamp(seconds: unknown): string | null {
  if (seconds === null) return null;
  const s = Number(seconds);
  const whole = Math.floor(s);
  const fraction = s - whole ? (s - whole).toFixed(6).slice(2).replace(/0+$/, '') : '';
  return format(fromMillis(whole * 1000, fraction), 'timestamptz');
}

export function nowTimestamp(now: Date): string {
  return format(
    fromMillis(now.getTime() - now.getMilliseconds(), String(now.getMilliseconds()).padStart(3, '0').replace(/0+$/, '')),
    'timestamptz',
  );
}
