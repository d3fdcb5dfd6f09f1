// Text to index terms, for memories and queries alike (one tokenizer, so
// they meet). Mixed text is split into CJK runs (bigrams + unigrams) and
// word runs. A word run joined by - _ . / : # @ + ' is kept whole when it
// holds a digit (ORD-A1B2C3D4, INC-55120, 3:15, 22.04 are identifiers a
// user quotes exactly) and also split into its parts; other joined words
// give their parts (e-mail also gives "email"; "user's" gives "user").
import { CJK_CHARACTER, cjkTerms } from './cjk.js';
import { englishTerm } from './english.js';
import { normaliseText } from './normalise.js';

const CJK_RUN = CJK_CHARACTER.source.slice(0, -1) + ']+';
const WORD_CHAR = `(?:(?!${CJK_CHARACTER.source})[\\p{L}\\p{N}\\p{M}])`;
const SEGMENT = new RegExp(`(${CJK_RUN})|(${WORD_CHAR}+(?:[-_./:#@+']${WORD_CHAR}+)*)`, 'gu');
const JOINER = /[-_./:#@+']/;
const CONTRACTION = /'(?:s|t|m|ll|re|ve|d)$/;

function wordTerms(compound: string, out: string[]): void {
  const word = compound.replace(CONTRACTION, '');
  if (!JOINER.test(word)) {
    const term = englishTerm(word);
    if (term !== undefined) out.push(term);
    return;
  }
  const parts = word.split(JOINER).filter((p) => p.length > 0);
  if (/\d/.test(word)) out.push(word);
  else if (/^[\p{L}]+(?:-[\p{L}]+)+$/u.test(word)) {
    const joined = englishTerm(parts.join(''));
    if (joined !== undefined) out.push(joined);
  }
  for (const part of parts) {
    const term = englishTerm(part);
    if (term !== undefined) out.push(term);
  }
}

/** The terms of a text, in order, with repeats (term frequency counts). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const match of normaliseText(text).matchAll(SEGMENT)) {
    if (match[1] !== undefined) out.push(...cjkTerms(match[1]));
    else if (match[2] !== undefined) wordTerms(match[2], out);
  }
  return out;
}
