// Exact numbers with their units, and amounts of money, read from text.
// Units reuse the exact conversions of src/domain/canonical/units.ts, so
// "72 hours", "72h", "72小时" and "3 days" have one canonical value, while
// "72 days" and a bare "72" do not share it.
import { canonicalValue } from '../../canonical/canonical-value.js';
import { canonicalJson } from '../../canonical/canonical-json.js';
import { formatDecimal, multiplyDecimal, parseDecimal } from '../../canonical/decimal.js';
import { unitConversion } from '../../canonical/units.js';
import type { TextFact } from './fact.js';

/** A written amount: 1,200.50 or 72 or 3.5, with an optional multiplier (k, thousand, million, 万, 亿). */
const AMOUNT = String.raw`(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\s?(thousand|million|billion)\b|(k|K)(?![\p{L}\p{N}])|(万|亿))?`;
/** Not inside a word, an id, a decimal or a range's letters ("shop-31" is no number; "3-5 days" has two). */
const NUMBER_START = String.raw`(?<![\p{Script=Latin}\p{N}_.#:@$€£¥￥/])(?<!\p{Script=Latin}-)`;

const MULTIPLIERS: Readonly<Record<string, bigint>> = {
  thousand: 1_000n,
  million: 1_000_000n,
  billion: 1_000_000_000n,
  k: 1_000n,
  K: 1_000n,
  万: 10_000n,
  亿: 100_000_000n,
};

/** Unit words as written -> the unit name of the canonical tables (or a name of its own when it does not convert). */
const LATIN_UNITS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(?:business|working|work)[- ]days?/iu, 'business day'],
  [/^(?:milliseconds?|msecs?|ms)/u, 'ms'],
  [/^(?:seconds?|secs?|s)/u, 's'],
  [/^(?:minutes?|mins?)/iu, 'min'],
  [/^(?:hours?|hrs?|h)/iu, 'h'],
  [/^(?:days?|d)/iu, 'd'],
  [/^(?:weeks?|wks?)/iu, 'w'],
  [/^(?:months?)/iu, 'month'],
  [/^(?:years?|yrs?)/iu, 'year'],
  [/^(?:millimet(?:er|re)s?|mm)/iu, 'mm'],
  [/^(?:centimet(?:er|re)s?|cm)/iu, 'cm'],
  [/^(?:kilomet(?:er|re)s?|km)/iu, 'km'],
  [/^(?:met(?:er|re)s?|m)/u, 'm'],
  [/^(?:milligrams?|mg)/iu, 'mg'],
  [/^(?:kilograms?|kilos?|kg)/iu, 'kg'],
  [/^(?:grams?|g)/u, 'g'],
  [/^(?:tonnes?)/iu, 't'],
  [/^(?:KiB|MiB|GiB|TiB|PiB)/u, ''],
  [/^(?:KB|kB|MB|GB|TB|PB)/u, ''],
  [/^(?:bytes?)/iu, 'B'],
  [/^(?:percent|per cent|%)/iu, '%'],
];
const CJK_UNITS: ReadonlyArray<readonly [string, string]> = [
  ['个工作日', 'business day'],
  ['工作日', 'business day'],
  ['毫秒', 'ms'],
  ['秒钟', 's'],
  ['秒', 's'],
  ['分钟', 'min'],
  ['个小时', 'h'],
  ['小时', 'h'],
  ['钟头', 'h'],
  ['天', 'd'],
  ['个星期', 'w'],
  ['星期', 'w'],
  ['周', 'w'],
  ['个月', 'month'],
  ['年', 'year'],
  ['公里', 'km'],
  ['千米', 'km'],
  ['毫米', 'mm'],
  ['厘米', 'cm'],
  ['米', 'm'],
  ['公斤', 'kg'],
  ['千克', 'kg'],
  ['毫克', 'mg'],
  ['克', 'g'],
  ['吨', 't'],
];

const CURRENCY_WORDS: ReadonlyArray<readonly [string, string]> = [
  ['US$', 'USD'],
  ['$', 'USD'],
  ['USD', 'USD'],
  ['dollars', 'USD'],
  ['dollar', 'USD'],
  ['美元', 'USD'],
  ['€', 'EUR'],
  ['EUR', 'EUR'],
  ['euros', 'EUR'],
  ['euro', 'EUR'],
  ['欧元', 'EUR'],
  ['£', 'GBP'],
  ['GBP', 'GBP'],
  ['英镑', 'GBP'],
  // ¥ is read as renminbi: the histories this serves write yen as JPY or 日元.
  ['¥', 'CNY'],
  ['￥', 'CNY'],
  ['CNY', 'CNY'],
  ['RMB', 'CNY'],
  ['人民币', 'CNY'],
  ['yuan', 'CNY'],
  ['块钱', 'CNY'],
  ['元', 'CNY'],
  ['块', 'CNY'],
  ['JPY', 'JPY'],
  ['日元', 'JPY'],
  ['CHF', 'CHF'],
];
const escape = (s: string) => s.replace(/[$.*+?^()[\]{}|\\]/gu, '\\$&');
const CURRENCY_ALTERNATIVES = CURRENCY_WORDS.map(([w]) => escape(w)).join('|');
const MONEY_BEFORE = new RegExp(String.raw`(?<![\p{Script=Latin}])(${CURRENCY_ALTERNATIVES})\s?${AMOUNT}`, 'gu');
const MONEY_AFTER = new RegExp(String.raw`${NUMBER_START}${AMOUNT}\s?(${CURRENCY_ALTERNATIVES})(?![\p{Script=Latin}])`, 'gu');
const NUMBER = new RegExp(String.raw`${NUMBER_START}${AMOUNT}`, 'gu');

function amountOf(written: string, multiplier: string | undefined): { written: string; amount: string } | undefined {
  const parsed = parseDecimal(written.replace(/,/gu, ''));
  if (!parsed.ok) return undefined;
  const factor = multiplier ? MULTIPLIERS[multiplier] : undefined;
  const decimal = factor ? multiplyDecimal(parsed.decimal, factor) : parsed.decimal;
  return { written: formatDecimal(parsed.decimal), amount: formatDecimal(decimal) };
}

function currencyOf(word: string): string {
  return CURRENCY_WORDS.find(([w]) => w.toLowerCase() === word.toLowerCase())?.[1] ?? word;
}

/** Amounts of money, currency before or after the amount. */
export function moneyFacts(text: string): TextFact[] {
  const facts: TextFact[] = [];
  const add = (start: number, end: number, currencyWord: string, amountText: string, multiplier: string | undefined) => {
    const amount = amountOf(amountText, multiplier);
    if (!amount) return;
    const currency = currencyOf(currencyWord);
    facts.push({ kind: 'money', currency, amount: amount.amount, span: { start, end }, canonical: `${currency} ${amount.amount}` });
  };
  for (const m of text.matchAll(MONEY_BEFORE)) add(m.index, m.index + m[0].length, m[1]!, m[2]!, m[3] ?? m[4] ?? m[5]);
  for (const m of text.matchAll(MONEY_AFTER)) add(m.index, m.index + m[0].length, m[5]!, m[1]!, m[2] ?? m[3] ?? m[4]);
  return facts;
}

/** Numbers, with the unit that follows them when it is one we know. */
export function numberFacts(text: string): TextFact[] {
  const facts: TextFact[] = [];
  for (const m of text.matchAll(NUMBER)) {
    const amount = amountOf(m[1]!, m[2] ?? m[3] ?? m[4]);
    if (!amount) continue;
    const end = m.index + m[0].length;
    const unit = unitAfter(text, end);
    if (unit === null) continue; // glued to letters: part of a word, not a number
    const stop = unit ? unit.end : end;
    const canonical = canonicalValue({ type: 'number', amount: amount.amount, ...(unit ? { unit: unit.name } : {}) });
    facts.push({
      kind: 'number',
      written: amount.written,
      ...(unit ? { unit: unit.name } : {}),
      dimension: unit ? (unitConversion(unit.name)?.dimension ?? unit.name) : 'none',
      span: { start: m.index, end: stop },
      canonical: canonicalJson(canonical),
    });
  }
  return facts;
}

/** The unit right after a number; undefined when none follows, null when the number runs into a word. */
function unitAfter(text: string, at: number): { name: string; end: number } | undefined | null {
  const rest = text.slice(at, at + 24);
  for (const [word, name] of CJK_UNITS) if (rest.startsWith(word)) return { name, end: at + word.length };
  const gap = /^[\s-]?/u.exec(rest)![0].length;
  const after = rest.slice(gap);
  for (const [pattern, name] of LATIN_UNITS) {
    const m = pattern.exec(after);
    if (!m || /^[\p{Script=Latin}\p{N}]/u.test(after.slice(m[0].length))) continue;
    return { name: name === '' ? m[0] : name, end: at + gap + m[0].length };
  }
  return /^[\p{Script=Latin}\p{N}]/u.test(rest) ? null : undefined;
}
