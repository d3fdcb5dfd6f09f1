// Secrets recognised by what surrounds them: "password: …", "密码：…",
// "api_key = …", "Authorization: Bearer …", credentials in URLs. The value
// after the label is the finding, unless it is plainly not a secret: masked,
// a placeholder, a path, a word of the sentence ("the password is wrong"),
// or Chinese prose ("密码已重置").
import type { KindPattern } from '../pattern-scan.js';

const NOT_A_VALUE = new Set(
  (
    'is was at the a an to for of and or not no yes ok okay wrong incorrect invalid required expired weak strong correct too must ' +
    'should needs need reset changed change updated update set saved stored hidden redacted none null nil empty missing same ' +
    'different policy manager field length characters chars protected sent link please here below above unknown n/a true false ' +
    'hint optional mandatory forgotten locked unchanged masked secret password token example sample placeholder dummy being'
  ).split(' '),
);

/** A value that stands for a secret without being one. */
export function isPlaceholder(value: string): boolean {
  const v = value.toLowerCase();
  if (NOT_A_VALUE.has(v)) return true;
  if (/^[*•·x#._-]+$/i.test(v)) return true; // masked
  if (/^(?:<.*>|\$\{.*\}|\$[a-z_][a-z0-9_]*|\{\{.*\}\}|%[a-z_]+%|\[.*\])$/i.test(v)) return true; // placeholder
  return /^(?:your|my|the|enter|insert)[_-]/i.test(v);
}

const CJK = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;
const quoteTrimmed = (value: string) => value.replace(/^["'`“‘]+|["'`”’.,;:!?)\]}，。；！？）]+$/g, '');

function passwordValue(raw: string): boolean {
  const value = quoteTrimmed(raw);
  if (value.length < 4 || CJK.test(value) || isPlaceholder(value)) return false;
  return !/^(?:\/|~\/|[A-Za-z]:\\)/.test(value); // `pwd: /home/…` is a directory
}

function tokenValue(raw: string): boolean {
  const value = quoteTrimmed(raw);
  if (value.length < 8 || isPlaceholder(value) || /^(.)\1+$/.test(value)) return false;
  return /\d/.test(value) || (/[a-z]/.test(value) && /[A-Z]/.test(value)) || value.length >= 20;
}

const PASSWORD_LABEL = '(?:pass(?:word|wd|phrase|code)|pwd)';
/** A password value: up to a space, a quote or CJK text ("密码是abc123哦" gives "abc123"). */
const VALUE = '([^\\s"\'“”\\u3000-\\u303f\\u3400-\\u9fff\\uff00-\\uffef]{1,128})';
/** "password: x", "password is x", `"password": "x"`, "password=x". */
const PASSWORD_EN = new RegExp(
  `(?<![A-Za-z])${PASSWORD_LABEL}["']?\\s*(?:[:=：]|=>|\\b(?:is|was|will be|should be)\\b)\\s*["'“]?${VALUE}`,
  'dgi',
);
/** "密码：x", "密码是x", "支付密码 123456" (a bare value only when it starts right after the label). */
const PASSWORD_ZH = new RegExp(`(?:密码|口令)\\s*(?:[:=：]|是|为|改成|改为|设为|设置为)?\\s*["'“]?${VALUE}`, 'dg');

const TOKEN_LABEL =
  '(?:api[_-]?key|apikey|api[_-]?secret|client[_-]?secret|secret[_-]?key|app[_-]?secret|access[_-]?key(?:[_-]?id)?|' +
  'access[_-]?token|auth[_-]?token|refresh[_-]?token|private[_-]?key|secret|token)';
/** "api_key = x", "client_secret: 'x'", `"apiKey": "x"`, "access_token）：x". */
const ASSIGNMENT = new RegExp(`${TOKEN_LABEL}["'）)\\]]?\\s*(?:[:=：]|=>)\\s*["'“]?([A-Za-z0-9_\\-+/=.~]{8,})`, 'dgi');

export const CREDENTIAL_SHAPES: readonly KindPattern[] = [
  { kind: 'secret:password', re: PASSWORD_EN, group: 1, accept: passwordValue },
  { kind: 'secret:password', re: PASSWORD_ZH, group: 1, accept: passwordValue },
  { kind: 'secret:credential_assignment', re: ASSIGNMENT, group: 1, accept: tokenValue },
  { kind: 'secret:bearer_token', re: /\bBearer\s+([A-Za-z0-9._~+/-]{20,}=*)/dgi, group: 1, accept: tokenValue },
  {
    // user:password@host in any URL scheme.
    kind: 'secret:url_credentials',
    re: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]+:([^\s/?#@]+)@/dgi,
    group: 1,
    accept: (v) => !isPlaceholder(decodeURIComponentSafe(v)),
  },
  {
    kind: 'secret:credential_in_url',
    re: /[?&#](?:api[_-]?key|apikey|key|token|access_token|auth|auth_token|sig|signature|x-amz-signature|secret|client_secret|password|pwd)=([^&#\s]{8,})/dgi,
    group: 1,
    accept: (v) => tokenValue(decodeURIComponentSafe(v)),
  },
];

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
