// Entity ids and permission scopes read from text. Ids are exact strings:
// order ids (ORD-A1B2C3D4), tickets (TCK-88231, #48213), invoices
// (INV-2026-0042), rule ids (R001), phone numbers, e-mail addresses. A
// permission scope is what someone may do: "orders:read", "read-only",
// "write access", 只读, 管理员权限.
import type { TextFact } from './fact.js';

type Reader = readonly [RegExp, (m: RegExpMatchArray) => { canonical: string; shape: string } | undefined];

const LATIN_BEFORE = String.raw`(?<![A-Za-z0-9_\-])`;
const LATIN_AFTER = String.raw`(?![A-Za-z0-9_])`;

const ID_READERS: readonly Reader[] = [
  [/[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/gu, (m) => ({ canonical: m[0].toLowerCase(), shape: '@' })],
  [
    /(?<![\p{N}+])\+\d{1,3}(?:[\s.-]?\(?\d{1,4}\)?){2,6}(?![\p{N}])/gu,
    (m) => {
      const digits = m[0].replace(/\D/gu, '');
      return digits.length >= 8 && digits.length <= 15 ? { canonical: `+${digits}`, shape: '+' } : undefined;
    },
  ],
  // A mainland mobile number.
  [/(?<![\p{N}])1[3-9]\d{9}(?![\p{N}])/gu, (m) => ({ canonical: m[0], shape: '+' })],
  [
    new RegExp(String.raw`${LATIN_BEFORE}[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+${LATIN_AFTER}`, 'gu'),
    (m) => (/\d/u.test(m[0]) ? { canonical: m[0], shape: `${m[0].split('-')[0]!}-` } : undefined),
  ],
  [
    new RegExp(String.raw`${LATIN_BEFORE}[A-Z]{1,4}\d{2,}[A-Z0-9]*${LATIN_AFTER}`, 'gu'),
    (m) => ({ canonical: m[0], shape: /^[A-Z]+/u.exec(m[0])![0] }),
  ],
  [/(?<![\p{L}\p{N}&])#\d{2,}(?![\p{N}])/gu, (m) => ({ canonical: m[0], shape: '#' })],
  // Account and tracking numbers: long digit runs, not amounts.
  [/(?<![\p{N}.,])\d{7,}(?![\p{N}.,])/gu, (m) => ({ canonical: m[0], shape: 'digits' })],
];

const ACTIONS = 'read|write|admin|delete|manage|view|edit|create|update';
const PERMISSION_READERS: ReadonlyArray<readonly [RegExp, (m: RegExpMatchArray) => string]> = [
  [new RegExp(String.raw`(?<![\w:])[a-z][a-z_.]*:(?:${ACTIONS}|\*)(?![\w:])`, 'gu'), (m) => m[0]],
  [new RegExp(String.raw`(?<![\w:])(?:${ACTIONS}):[a-z][a-z_.*]*(?![\w:])`, 'gu'), (m) => m[0]],
  [/\bread[-/ ](?:and[- ])?write\b/giu, () => 'read-write'],
  [new RegExp(String.raw`\b(${ACTIONS})[- ]only\b`, 'giu'), (m) => `${m[1]!.toLowerCase()}-only`],
  [new RegExp(String.raw`\b(${ACTIONS}|full)[- ](?:access|permissions?|rights?|privileges?)\b`, 'giu'), (m) => m[1]!.toLowerCase()],
  [/只读/gu, () => 'read-only'],
  [/读写/gu, () => 'read-write'],
  [/(管理员|管理|查看|只看|编辑|修改|删除|写入|写|读取|读)权限/gu, (m) => ZH_PERMISSIONS[m[1]!]!],
];
const ZH_PERMISSIONS: Readonly<Record<string, string>> = {
  管理员: 'admin',
  管理: 'admin',
  查看: 'view',
  只看: 'view',
  编辑: 'edit',
  修改: 'edit',
  删除: 'delete',
  写入: 'write',
  写: 'write',
  读取: 'read',
  读: 'read',
};

export function identifierFacts(text: string): TextFact[] {
  const facts: TextFact[] = [];
  // Without a digit only an e-mail address can be an id.
  for (const [pattern, read] of /\d/u.test(text) ? ID_READERS : ID_READERS.slice(0, 1)) {
    for (const m of text.matchAll(pattern)) {
      const id = read(m);
      if (id)
        facts.push({
          kind: 'identifier',
          shape: id.shape,
          span: { start: m.index, end: m.index + m[0].length },
          canonical: id.canonical,
        });
    }
  }
  return facts;
}

const MAY_NAME_A_PERMISSION = new RegExp(String.raw`${ACTIONS}|full|只读|读写|权限`, 'iu');

export function permissionFacts(text: string): TextFact[] {
  const facts: TextFact[] = [];
  if (!MAY_NAME_A_PERMISSION.test(text)) return facts;
  for (const [pattern, canonical] of PERMISSION_READERS) {
    for (const m of text.matchAll(pattern))
      facts.push({ kind: 'permission', span: { start: m.index, end: m.index + m[0].length }, canonical: canonical(m) });
  }
  return facts;
}
