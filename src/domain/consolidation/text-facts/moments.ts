// Dates and times of day read from text, in English and Chinese forms, to
// one canonical form each: "2026-07-15", "15 July 2026", "July 15th, 2026"
// and "2026年7月15日" are all 2026-07-15; "9pm", "21:00" and "晚上9点" are
// 21:00. A date without a year stays without one (--07-15). Relative dates
// ("tomorrow", "下周一") are words, not read as dates.
import { parseCalendarDate, parseInstant } from '../../values/instant.js';
import type { TextFact } from './fact.js';

const MONTHS = [
  ['january', 'jan'],
  ['february', 'feb'],
  ['march', 'mar'],
  ['april', 'apr'],
  ['may'],
  ['june', 'jun'],
  ['july', 'jul'],
  ['august', 'aug'],
  ['september', 'sept', 'sep'],
  ['october', 'oct'],
  ['november', 'nov'],
  ['december', 'dec'],
] as const;
const MONTH_NAMES = MONTHS.flat().join('|');
const ORDINAL = '(?:st|nd|rd|th)?';
const NOT_BEFORE = String.raw`(?<![\p{Script=Latin}\p{N}])`;
const NOT_AFTER = String.raw`(?![\p{Script=Latin}\p{N}])`;

const pad = (n: number | string) => String(n).padStart(2, '0');

function monthNumber(name: string): number {
  const lower = name.toLowerCase().replace(/\.$/u, '');
  return MONTHS.findIndex((names) => (names as readonly string[]).includes(lower)) + 1;
}

/** YYYY-MM-DD, --MM-DD without a year, or undefined when there is no such day. */
function calendar(year: number | undefined, month: number, day: number): string | undefined {
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  if (year === undefined) return `--${pad(month)}-${pad(day)}`;
  const text = `${String(year).padStart(4, '0')}-${pad(month)}-${pad(day)}`;
  return parseCalendarDate(text).ok ? text : undefined;
}

type Reader = readonly [RegExp, (m: RegExpMatchArray) => string | undefined];

const DATE_READERS: readonly Reader[] = [
  [
    /(?<![\p{N}])(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?/gu,
    (m) => {
      if (m[7]) {
        const parsed = parseInstant(m[0]);
        return parsed.ok ? parsed.instant : undefined;
      }
      const day = calendar(Number(m[1]), Number(m[2]), Number(m[3]));
      return day && Number(m[4]) < 24 && Number(m[5]) < 60 ? `${day}T${m[4]}:${m[5]}${m[6] ? `:${m[6]}` : ''}` : undefined;
    },
  ],
  [/(?<![\p{N}])(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?![\p{N}])/gu, (m) => calendar(Number(m[1]), Number(m[2]), Number(m[3]))],
  [
    /(?:(\d{4})\s?年\s?)?(\d{1,2})\s?月\s?(\d{1,2})\s?[日号]/gu,
    (m) => calendar(m[1] ? Number(m[1]) : undefined, Number(m[2]), Number(m[3])),
  ],
  [/(\d{4})\s?年\s?(\d{1,2})\s?月(?![\p{N}])/gu, (m) => (Number(m[2]) >= 1 && Number(m[2]) <= 12 ? `${m[1]}-${pad(m[2]!)}` : undefined)],
  [
    new RegExp(String.raw`${NOT_BEFORE}(\d{1,2})${ORDINAL}\s+(?:of\s+)?(${MONTH_NAMES})\.?(?:,?\s+(\d{4}))?${NOT_AFTER}`, 'giu'),
    (m) => calendar(m[3] ? Number(m[3]) : undefined, monthNumber(m[2]!), Number(m[1])),
  ],
  [
    new RegExp(String.raw`${NOT_BEFORE}(${MONTH_NAMES})\.?\s+(\d{1,2})${ORDINAL}(?:,?\s+(\d{4}))?${NOT_AFTER}`, 'giu'),
    (m) => (m[1] === 'may' ? undefined : calendar(m[3] ? Number(m[3]) : undefined, monthNumber(m[1]!), Number(m[2]))),
  ],
  [
    new RegExp(String.raw`${NOT_BEFORE}(${MONTH_NAMES})\.?\s+(\d{4})${NOT_AFTER}`, 'giu'),
    (m) => (m[1] === 'may' ? undefined : `${m[2]}-${pad(monthNumber(m[1]!))}`),
  ],
  [
    /(?<![\p{N}/])(\d{1,2})\/(\d{1,2})\/(\d{4})(?![\p{N}])/gu,
    (m) => {
      const [a, b, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
      // Day and month are told apart only when one of them cannot be a month.
      if (a > 12) return calendar(year, b, a);
      if (b > 12) return calendar(year, a, b);
      return a === b ? calendar(year, a, b) : `${year}-?${pad(a)}/${pad(b)}`;
    },
  ],
];

const HALF_DAY_PM = new Set(['下午', '傍晚', '晚上']);

const TIME_READERS: readonly Reader[] = [
  [
    /(?<![\p{N}:])(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s?([ap])\.?m\.?(?![\p{Script=Latin}]))?(?![\p{N}:])/giu,
    (m) => clock(Number(m[1]), Number(m[2]), m[3], m[4]),
  ],
  [/(?<![\p{Script=Latin}\p{N}:.])(\d{1,2})\s?([ap])\.?m\.?(?![\p{Script=Latin}])/giu, (m) => clock(Number(m[1]), 0, undefined, m[2])],
  [
    /(凌晨|早上|早晨|上午|中午|下午|傍晚|晚上)?(\d{1,2})\s?[点點时](?:(\d{1,2})\s?分|(半))?/gu,
    (m) => {
      let hour = Number(m[2]);
      if (m[1] && HALF_DAY_PM.has(m[1]) && hour < 12) hour += 12;
      if (m[1] === '中午' && hour < 11) hour += 12;
      return clock(hour, m[4] ? 30 : Number(m[3] ?? 0), undefined, undefined);
    },
  ],
];

function clock(hour: number, minute: number, second: string | undefined, half: string | undefined): string | undefined {
  let h = hour;
  if (half) {
    if (h < 1 || h > 12) return undefined;
    h = (h % 12) + (half.toLowerCase() === 'p' ? 12 : 0);
  }
  if (h > 23 || minute > 59 || (second !== undefined && Number(second) > 59)) return undefined;
  return `${pad(h)}:${pad(minute)}${second !== undefined ? `:${second}` : ''}`;
}

function read(text: string, readers: readonly Reader[], kind: 'date' | 'time'): TextFact[] {
  const facts: TextFact[] = [];
  for (const [pattern, canonical] of readers) {
    for (const m of text.matchAll(pattern)) {
      const value = canonical(m);
      if (value !== undefined) facts.push({ kind, span: { start: m.index, end: m.index + m[0].length }, canonical: value });
    }
  }
  return facts;
}

export function dateFacts(text: string): TextFact[] {
  return read(text, DATE_READERS, 'date');
}

export function timeFacts(text: string): TextFact[] {
  return read(text, TIME_READERS, 'time');
}
