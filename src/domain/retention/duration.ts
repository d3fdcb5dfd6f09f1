// Retention durations as ISO 8601 durations limited to fixed-length units
// (weeks, days, hours, minutes, seconds): months and years vary in length,
// so a TTL written with them would not say how long it is.
import { z } from 'zod';

const DURATION = /^P(?:(\d{1,6})W)?(?:(\d{1,7})D)?(?:T(?:(\d{1,8})H)?(?:(\d{1,9})M)?(?:(\d{1,10})S)?)?$/;
const RULE = 'must be an ISO 8601 duration in weeks, days, hours, minutes and seconds, e.g. "P30D", "PT12H" or "P1W2D"';
/** A century: anything longer is surely a typo. */
export const MAX_DURATION_SECONDS = 100 * 366 * 86_400;

export type DurationParse = { readonly ok: true; readonly seconds: number } | { readonly ok: false; readonly message: string };

export function parseDuration(text: string): DurationParse {
  const m = DURATION.exec(text);
  if (!m || text === 'P' || text.endsWith('T')) return { ok: false, message: RULE };
  const [weeks, days, hours, minutes, seconds] = [m[1], m[2], m[3], m[4], m[5]].map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const total = (((weeks * 7 + days) * 24 + hours) * 60 + minutes) * 60 + seconds;
  if (total > MAX_DURATION_SECONDS) return { ok: false, message: 'must be at most 100 years' };
  return { ok: true, seconds: total };
}

/** The shortest ISO 8601 form of a number of seconds (days and a time part; "PT0S" for zero). */
export function formatDuration(totalSeconds: number): string {
  const days = Math.floor(totalSeconds / 86_400);
  let rest = totalSeconds - days * 86_400;
  const hours = Math.floor(rest / 3600);
  rest -= hours * 3600;
  const minutes = Math.floor(rest / 60);
  const seconds = rest - minutes * 60;
  const time = `${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${seconds ? `${seconds}S` : ''}`;
  if (days === 0 && time === '') return 'PT0S';
  return `P${days ? `${days}D` : ''}${time ? `T${time}` : ''}`;
}

/** A duration field: the ISO text in, seconds out. */
export const durationSchema = z.string({ error: 'must be a string such as "P30D"' }).transform((text, ctx) => {
  const parsed = parseDuration(text);
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', message: parsed.message });
    return z.NEVER;
  }
  return parsed.seconds;
});
