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

function folded(text: string): Char[] {
  const out: Char[] = [];
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    if (!ZERO_WIDTH.test(ch)) for (const c of ch.normalize('NFKC').toLowerCase()) out.push({ c, at: i });
    i += ch.length;
  }
  return out.map((x, i, all) => {
    const leet = LEET[x.c];
    const besideLetter = LETTER.test(all[i - 1]?.c ?? '') || LETTER.test(all[i + 1]?.c ?? '');
    return leet !== undefined && besideLetter ? { c: leet, at: x.at } : x;
  });
}

/** Drops separators between Chinese characters, and joins letters spelt apart. */
function squeezed(chars: Char[]): Char[] {
  const out: Char[] = [];
  for (let i = 0; i < chars.length; i++) {
    const x = chars[i]!;
    if (SEPARATOR.test(x.c) && x.c !== ':' && x.c !== '：') {
      let j = i;
      while (j < chars.length && SEPARATOR.test(chars[j]!.c)) j++;
      const before = out[out.length - 1]?.c ?? '';
      const after = chars[j]?.c ?? '';
      const gap = j - i;
      if (HAN.test(before) && HAN.test(after)) {
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
  const lone = (k: number) => LETTER.test(chars[k]?.c ?? '') && !LETTER.test(chars[k - 1]?.c ?? '') && !LETTER.test(chars[k + 1]?.c ?? '');
  if (!lone(i - 1) || !lone(i + 1)) return false;
  return lone(i - 3) || lone(i + 3);
}

export function normalise(text: string): NormalText {
  const chars = squeezed(folded(text));
  let out = '';
  const origin: number[] = [];
  for (const x of chars) {
    const c = SEPARATOR.test(x.c) && !KEPT_PUNCTUATION.test(x.c) ? ' ' : x.c;
    if (c === ' ' && out.endsWith(' ')) continue;
    out += c;
    origin.push(x.at);
  }
  return { text: out, origin };
}

/** The span in the original text of normalised [start, end). */
export function originalSpan(normal: NormalText, start: number, end: number, original: string): [number, number] {
  const first = normal.origin[start] ?? 0;
  const lastAt = normal.origin[end - 1] ?? first;
  const last = lastAt + (String.fromCodePoint(original.codePointAt(lastAt) ?? 32).length || 1);
  return [first, last];
}
