// Personal identifiers: e-mail addresses, phone numbers (E.164-style
// international, North American, Chinese mobile), Chinese resident ID
// numbers, payment card numbers and IBANs (each with its check digits), and
// postal addresses (Chinese road-and-number, English number-and-street).
import type { Span } from '../detection.js';
import { scanAll, type KindPattern } from '../pattern-scan.js';
import { cnIdCheckValid, ibanCheckValid, luhnValid } from './checksums.js';

const NOT_ALNUM_BEFORE = '(?<![0-9A-Za-z])';
const NOT_ALNUM_AFTER = '(?![0-9A-Za-z])';

function realBirthDate(id: string): boolean {
  const [y, m, d] = [Number(id.slice(6, 10)), Number(id.slice(10, 12)), Number(id.slice(12, 14))];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** Issuer prefixes and lengths of the card networks (Visa, Mastercard, Amex, Discover, UnionPay, JCB, Diners, Mir). */
const CARD_NETWORKS: ReadonlyArray<[RegExp, readonly number[]]> = [
  [/^4/, [13, 16, 19]],
  [/^(?:5[1-5]|2(?:2[2-9]|[3-6]\d|7[01]|720))/, [16]],
  [/^3[47]/, [15]],
  [/^(?:6011|65|64[4-9])/, [16, 17, 18, 19]],
  [/^62/, [16, 17, 18, 19]],
  [/^35(?:2[89]|[3-8])/, [16, 17, 18, 19]],
  [/^3(?:0[0-5]|[689])/, [14, 15, 16, 17, 18, 19]],
  [/^220[0-4]/, [16, 17, 18, 19]],
];

function plausibleCard(found: string): boolean {
  const digits = found.replace(/[ -]/g, '');
  if (!CARD_NETWORKS.some(([prefix, lengths]) => prefix.test(digits) && lengths.includes(digits.length))) return false;
  return luhnValid(digits);
}

/** IBAN lengths by country (ISO 13616 registry, the common ones): an unknown country is not taken for an IBAN. */
const IBAN_LENGTHS = new Map(
  (
    'AD24 AE23 AT20 BE16 BG22 BH22 BR29 CH21 CY28 CZ24 DE22 DK18 EE20 ES24 FI18 FR27 GB22 GR27 HR21 HU28 IE22 IL23 IS26 IT27 ' +
    'KW30 KZ20 LB28 LI21 LT20 LU20 LV21 MC27 MT31 NL18 NO15 PK24 PL28 PT25 QA29 RO24 RS22 SA24 SE24 SI19 SK24 SM27 TR26 UA29'
  )
    .split(' ')
    .map((entry) => [entry.slice(0, 2), Number(entry.slice(2))] as const),
);

function plausibleIban(found: string): boolean {
  const iban = found.replace(/ /g, '');
  return IBAN_LENGTHS.get(iban.slice(0, 2)) === iban.length && ibanCheckValid(iban);
}

/** An address in a URL's authority (`postgres://u:p@host`) or a git remote (`git@host:org/repo`) is not a person's. */
function emailAt(text: string, start: number, end: number): boolean {
  const tokenStart = Math.max(text.lastIndexOf(' ', start), text.lastIndexOf('\n', start)) + 1;
  if (text.slice(tokenStart, start).includes('://')) return false;
  return !(text.slice(start, text.indexOf('@', start)) === 'git' && text[end] === ':');
}

const HAN = '\\u4e00-\\u9fff';
export const IDENTIFIER_PATTERNS: readonly KindPattern[] = [
  {
    kind: 'personal:cn_national_id',
    re: new RegExp(
      `${NOT_ALNUM_BEFORE}[1-8]\\d{5}(?:18|19|20)\\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\\d|3[01])\\d{3}[0-9Xx]${NOT_ALNUM_AFTER}`,
      'dg',
    ),
    accept: (id) => cnIdCheckValid(id) && realBirthDate(id),
  },
  {
    kind: 'personal:iban',
    re: new RegExp(`${NOT_ALNUM_BEFORE}[A-Z]{2}\\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?${NOT_ALNUM_AFTER}`, 'dg'),
    accept: plausibleIban,
  },
  {
    kind: 'personal:card_number',
    re: new RegExp(`${NOT_ALNUM_BEFORE}\\d(?:[ -]?\\d){11,18}${NOT_ALNUM_AFTER}`, 'dg'),
    accept: plausibleCard,
  },
  {
    kind: 'personal:phone',
    re: new RegExp(`${NOT_ALNUM_BEFORE}(?:(?:\\+|00)86[\\s-]?)?1[3-9]\\d(?:[\\s-]?\\d{4}){2}${NOT_ALNUM_AFTER}`, 'dg'),
  },
  {
    kind: 'personal:phone',
    re: /(?<![0-9A-Za-z+])\+[1-9]\d{0,2}(?:[\s.-]?\(?\d{1,4}\)?){2,5}(?![0-9A-Za-z])/dg,
    accept: (found) => {
      const digits = found.replace(/\D/g, '').length;
      return digits >= 8 && digits <= 15;
    },
  },
  { kind: 'personal:phone', re: /(?<![0-9A-Za-z])\(?[2-9]\d{2}\)?[\s.-]\d{3}[\s.-]\d{4}(?![0-9A-Za-z])/dg },
  {
    kind: 'personal:postal_address',
    re: new RegExp(
      `(?:[${HAN}]{2,8}(?:省|自治区|市))?(?:[${HAN}]{1,8}(?:市|区|县|旗))?[${HAN}0-9]{1,12}(?:路|街|大街|大道|巷|弄|胡同)\\s*[0-9０-９一二三四五六七八九十百千零]+\\s*号`,
      'dg',
    ),
  },
  {
    kind: 'personal:postal_address',
    re: /\b\d{1,5}\s+(?:[A-Z][a-z]+\.?\s+){1,3}(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Way|Court|Ct|Place|Pl|Terrace|Crescent|Close|Square|Sq)\b\.?/dg,
  },
];

const EMAIL =
  /(?<![A-Za-z0-9._%+-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![A-Za-z0-9-])/g;

export function identifierSpans(text: string): Span[] {
  const emails = [...text.matchAll(EMAIL)]
    .filter((m) => emailAt(text, m.index, m.index + m[0].length))
    .map((m): Span => ({ kind: 'personal:email', start: m.index, end: m.index + m[0].length }));
  return [...emails, ...scanAll(text, IDENTIFIER_PATTERNS)];
}
