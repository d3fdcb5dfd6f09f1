// High-entropy tokens: a long run of base64-like characters that reads like
// random data, with no provider prefix to name it. Ids and digests look
// random too, so the guards come first:
//   - hex and digits only (git SHAs, SHA-256/MD5 digests, UUIDs, order
//     numbers): never, by this check alone (a labelled one is an assignment);
//   - inside a URL, a data: URI, an armoured public block, an SSH public key
//     or an SRI hash: never (secrets in URLs have their own shapes);
//   - id-like: segments of at most 11 characters between - _ /, upper case
//     and digits shorter than 32 (ULIDs, order ids), or a known public-id
//     prefix (Stripe `cus_`, `pk_live_` …);
//   - base64 of printable text, or of a known file type (PNG, JPEG, GIF,
//     PDF, ZIP, WebP, SVG).
// What remains must mix upper and lower case (or be long upper-case base32),
// have a Shannon entropy near the maximum for its length, change character
// class often and not read as words (random text does; camelCase does not).
import type { Span } from '../detection.js';
import { decodeBase64Text } from './base64.js';
import { PUBLIC_BLOCK } from './private-key.js';

const TOKEN = /(?<![A-Za-z0-9+/_=-])[A-Za-z0-9+/_-]{20,}={0,2}(?![A-Za-z0-9+/_=-])/g;

const SHIELDS: readonly RegExp[] = [
  /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"'“”，。]+/gi, // URLs
  /data:[\w/+.-]+(?:;[\w=.-]+)*;base64,[A-Za-z0-9+/=]+/gi,
  PUBLIC_BLOCK,
  /(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com) AAAA[A-Za-z0-9+/=]+/g,
  /\bsha(?:256|384|512)-[A-Za-z0-9+/]+=*/g,
];

const PUBLIC_ID_PREFIX = /^(?:pk_(?:live|test)|cs_(?:live|test)|cus|price|prod|pi|ch|txn|sub|in|evt|pm|seti|acct|req|src|po|ba|card|plan)_/;
const FILE_MAGIC = /^(?:iVBORw0KGgo|\/9j\/|R0lGOD|JVBERi0|UEsDB|UklGR|PHN2Zy|PD94bWwg|AAAA)/;

function shieldedRanges(text: string): Array<[number, number]> {
  return SHIELDS.flatMap((re) => [...text.matchAll(re)].map((m): [number, number] => [m.index, m.index + m[0].length]));
}

function shannon(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / text.length) * Math.log2(n / text.length);
  return bits;
}

const classOf = (c: string) => (c >= 'a' && c <= 'z' ? 0 : c >= 'A' && c <= 'Z' ? 1 : c >= '0' && c <= '9' ? 2 : 3);

function classChanges(text: string): number {
  let changes = 0;
  for (let i = 1; i < text.length; i++) if (classOf(text[i]!) !== classOf(text[i - 1]!)) changes++;
  return changes / Math.max(1, text.length - 1);
}

/** Share of the token in English-looking words (a capital or not, two or more lower-case letters, a vowel, no run of four consonants). */
function wordiness(text: string): number {
  let inWords = 0;
  for (const m of text.matchAll(/[A-Z]?[a-z]{2,}/g)) if (/[aeiouy]/i.test(m[0]) && !/[^aeiouy]{4}/i.test(m[0])) inWords += m[0].length;
  return inWords / text.length;
}

function isBase64Text(token: string): boolean {
  if (token.length % 4 !== 0) return false;
  const decoded = decodeBase64Text(token);
  return decoded !== undefined && /^[\x20-\x7e\n\t]+$/.test(decoded) && decoded.includes(' ');
}

/** Why a token is not taken for a secret, or undefined when it reads as random data. */
export function notRandom(token: string): string | undefined {
  const bare = token.replace(/=+$/, '');
  if (/^(?:0x)?[0-9a-f-]+$/i.test(bare)) return 'hex or digits';
  if (PUBLIC_ID_PREFIX.test(bare)) return 'public id';
  if (FILE_MAGIC.test(bare) || isBase64Text(token)) return 'encoded file or text';
  const core = bare.split(/[-_/]/).reduce((a, b) => (b.length > a.length ? b : a), '');
  if (core.length < 12) return 'id-like segments';
  const lower = /[a-z]/.test(core);
  const upper = /[A-Z]/.test(core);
  if (!upper) return 'no upper case';
  if (!lower && core.length < 32) return 'upper-case id';
  const ceiling = Math.log2(Math.min(core.length, lower ? 64 : 32));
  if (shannon(core) < (lower ? 0.8 : 0.75) * ceiling) return 'low entropy';
  // Measured on random base62 tokens: these two checks pass over about 1 in 60 of 20 characters, 1 in 300 of 32.
  if (lower && (classChanges(core) < 0.35 || wordiness(core) >= 0.65)) return 'word-like';
  return undefined;
}

export function highEntropySpans(text: string): Span[] {
  const shields = shieldedRanges(text);
  const spans: Span[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const start = m.index;
    const end = start + m[0].length;
    if (shields.some(([s, e]) => start < e && s < end)) continue;
    if (notRandom(m[0]) === undefined) spans.push({ kind: 'secret:high_entropy', start, end });
  }
  return spans;
}
