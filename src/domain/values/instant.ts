// Points in time as the ledger stores them: ISO 8601 / RFC 3339 with an
// explicit offset, normalised to UTC at millisecond precision
// ("2026-07-10T00:00:00.000Z"). That form sorts as text, matches the store's
// recordedAt precision, and makes equal instants equal strings.

/** A normalised instant: `YYYY-MM-DDTHH:MM:SS.sssZ`. */
export type Instant = string;
/** A calendar date: `YYYY-MM-DD`. */
export type CalendarDate = string;

export type InstantParse = { ok: true; instant: Instant } | { ok: false; message: string };

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const SHAPE_MESSAGE = 'must be an ISO 8601 date-time with an offset, such as "2026-07-10T00:00:00Z" or "2026-07-10T08:00:00+08:00"';

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

function realDate(year: number, month: number, day: number): string | undefined {
  if (month < 1 || month > 12) return `has no month ${month}`;
  if (day < 1 || day > daysInMonth(year, month))
    return `has no day ${day} in ${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`;
  return undefined;
}

export function parseInstant(text: string): InstantParse {
  const m = DATE_TIME.exec(text);
  if (!m) return { ok: false, message: SHAPE_MESSAGE };
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number, number];
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const fraction = m[7] ?? '';
  const notReal = realDate(year, month, day);
  if (notReal) return { ok: false, message: `is not a real date: ${notReal}` };
  if (hour > 23 || minute > 59 || second > 59)
    return { ok: false, message: 'is not a real time of day (hours 00-23, minutes and seconds 00-59)' };
  if (/[1-9]/.test(fraction.slice(3))) return { ok: false, message: 'has sub-millisecond precision; the ledger stores milliseconds' };
  let offsetMinutes = 0;
  if (!m[8]) {
    const offsetHours = Number(m[10]);
    const offsetMins = Number(m[11]);
    if (offsetHours > 18 || offsetMins > 59 || offsetHours * 60 + offsetMins > 18 * 60)
      return { ok: false, message: 'has an offset outside ±18:00' };
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  const millis = Number(fraction.slice(0, 3).padEnd(3, '0'));
  // Date.UTC maps years 0-99 to 1900-1999; set the year separately.
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, millis));
  date.setUTCFullYear(year);
  const utc = new Date(date.getTime() - offsetMinutes * 60_000);
  const utcYear = utc.getUTCFullYear();
  if (utcYear < 0 || utcYear > 9999) return { ok: false, message: 'is outside the years 0000-9999 in UTC' };
  return { ok: true, instant: utc.toISOString() };
}

export function parseCalendarDate(text: string): { ok: true; date: CalendarDate } | { ok: false; message: string } {
  const m = DATE.exec(text);
  if (!m) return { ok: false, message: 'must be a calendar date YYYY-MM-DD' };
  const notReal = realDate(Number(m[1]), Number(m[2]), Number(m[3]));
  if (notReal) return { ok: false, message: `is not a real date: ${notReal}` };
  return { ok: true, date: text };
}

/** The normalised instant of a Date (for callers that hold a clock). */
export function instantOf(date: Date): Instant {
  return date.toISOString();
}

/** Instants are normalised, so text order is time order. */
export function compareInstants(a: Instant, b: Instant): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The instant `seconds` after `instant`. */
export function plusSeconds(instant: Instant, seconds: number): Instant {
  return new Date(Date.parse(instant) + seconds * 1000).toISOString();
}
