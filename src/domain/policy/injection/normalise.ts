// The text as the injection markers read it, robust to simple obfuscation:
//   - NFKC per character (full-width ｉｇｎｏｒｅ, ligatures), lower case;
//   - zero-width characters and soft hyphens dropped;
//   - leetspeak digits inside words (1gn0re -> ignore);
//   - letters spelt apart joined (i g n o r e, i.g.n.o.r.e); a wider gap
//     between such letters is kept as a word break;
//   - separators between Chinese characters dropped (忽 略·之 前);
//   - other punctuation as spaces (: / @ . stay: URLs and "new instructions:").
// `origin[i]` is the offset in the original text of normalised character i,
// so that a finding is reported where it is in the text the writer sent.

export interface NormalText {
  readonly text: string;
  readonly origin: readonly number[];
}

const ZERO_WIDTH = /[\u00ad\u180e\u200b-\u200f\u2060-\u2064\ufeff]/;
const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' };
const LETTER = /\p{L}/u;
const HAN = /\p{Script=Han}/u;
const KEPT_PUNCTUATION = /[:/@.：]/;
const SEPARATOR = /[\s\p{P}\p{S}]/u;

interface Char {
  c: string;
  at: number;
}

// Every write's text passes here (the gate runs before anything is sealed):
// a character's fold and classes are computed once per distinct character,
// not once per occurrence (NFKC and Unicode property tests are the cost).
const MEMO_LIMIT = 8192;
const foldMemo = new Map<string, string>();
const classMemo = new Map<string, number>();
const IS_LETTER = 1;
const IS_SEPARATOR = 2;
const IS_HAN = 4;

function foldOf(ch: string): string {
  let f = foldMemo.get(ch);
  if (f === undefined) {
    f = ZERO_WIDTH.test(ch) ? '' : ch.normalize('NFKC').toLowerCase();
    if (foldMemo.size < MEMO_LIMIT) foldMemo.set(ch, f);
  }
  return f;
}

const ASCII_CLASS: readonly number[] = Array.from({ length: 128 }, (_, code) => classOfUnicode(String.fromCharCode(code)));

function classOfUnicode(c: string): number {
  return (LETTER.test(c) ? IS_LETTER : 0) | (SEPARATOR.test(c) ? IS_SEPARATOR : 0) | (HAN.test(c) ? IS_HAN : 0);
}

function classOf(c: string): number {
  if (c.length === 1) {
    const code = c.charCodeAt(0);
    if (code < 128) return ASCII_CLASS[code]!;
  }
  let k = classMemo.get(c);
  if (k === undefined) {
    k = classOfUnicode(c);
    if (classMemo.size < MEMO_LIMIT) classMemo.set(c, k);
  }
  return k;
}

const isLetter = (c: string | undefined) => c !== undefined && (classOf(c) & IS_LETTER) !== 0;
const isSeparator = (c: string) => (classOf(c) & IS_SEPARATOR) !== 0;
const isHan = (c: string) => (classOf(c) & IS_HAN) !== 0;

function folded(text: string): Char[] {
  const out: Char[] = [];
  for (let i = 0; i < text.length;) {
    const code = text.charCodeAt(i);
    if (code < 128) {
      // ASCII folds to itself, lower-cased.
      out.push({ c: code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : text[i]!, at: i });
      i += 1;
      continue;
    }
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    for (const c of foldOf(ch)) out.push({ c, at: i });
    i += ch.length;
  }
  return out.map((x, i, all) => {
    const leet = LEET[x.c];
    return leet !== undefined && (isLetter(all[i - 1]?.c) || isLetter(all[i + 1]?.c)) ? { c: leet, at: x.at } : x;
  });
}

/** Drops separators between Chinese characters, and joins letters spelt apart. */
function squeezed(chars: Char[]): Char[] {
  const out: Char[] = [];
  for (let i = 0; i < chars.length; i++) {
    const x = chars[i]!;
    if (isSeparator(x.c) && x.c !== ':' && x.c !== '：') {
      let j = i;
      while (j < chars.length && isSeparator(chars[j]!.c)) j++;
      const before = out[out.length - 1]?.c;
      const after = chars[j]?.c;
      const gap = j - i;
      if (before !== undefined && after !== undefined && isHan(before) && isHan(after)) {
        i = j - 1;
        continue;
      }
      if (gap === 1 && isSpeltApart(chars, i)) continue;
    }
    out.push(x);
  }
  return out;
}

/** A single separator between two lone letters that are part of a run of at least three. */
function isSpeltApart(chars: Char[], i: number): boolean {
  const lone = (k: number) => isLetter(chars[k]?.c) && !isLetter(chars[k - 1]?.c) && !isLetter(chars[k + 1]?.c);
  if (!lone(i - 1) || !lone(i + 1)) return false;
  return lone(i - 3) || lone(i + 3);
}

export function normalise(text: string): NormalText {
  const chars = squeezed(folded(text));
  // Collected as parts and joined once: asking a growing string for its last
  // character flattens it every time (quadratic in the text's length).
  const parts: string[] = [];
  const origin: number[] = [];
  let last = '';
  for (const x of chars) {
    const c = isSeparator(x.c) && !KEPT_PUNCTUATION.test(x.c) ? ' ' : x.c;
    if (c === ' ' && last === ' ') continue;
    parts.push(c);
    origin.push(x.at);
    last = c;
  }
  return { text: parts.join(''), origin };
}

/** The span in the original text of normalised [start, end). */
export function originalSpan(normal: NormalText, start: number, end: number, original: string): [number, number] {
  const first = normal.origin[start] ?? 0;
  const lastAt = normal.origin[end - 1] ?? first;
  const last = lastAt + (String.fromCodePoint(original.codePointAt(lastAt) ?? 32).length || 1);
  return [first, last];
}
