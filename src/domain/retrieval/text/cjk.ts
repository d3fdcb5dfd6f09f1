// CJK text has no spaces: a run of Han, kana or Hangul becomes its
// character bigrams (the usual choice for Chinese search without a
// dictionary: most words are two characters) plus its content characters
// as unigrams, which let a query find a memory that shares only single
// characters of a word (客户 / 用户). Queries weigh unigrams low.
import { CHINESE_STOP_CHARACTERS } from './stop-words.js';

export const CJK_CHARACTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc\u3005]/u;

const isStop = (ch: string) => CHINESE_STOP_CHARACTERS.has(ch);

export function cjkTerms(run: string): string[] {
  const chars = [...run];
  const terms: string[] = [];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    const next = chars[i + 1];
    if (!isStop(ch)) terms.push(ch);
    if (next !== undefined && !(isStop(ch) && isStop(next))) terms.push(ch + next);
  }
  return terms;
}

/** A single CJK character: a unigram term, which queries weigh less than a bigram. */
export function isCjkUnigram(term: string): boolean {
  return term.length === 1 && CJK_CHARACTER.test(term);
}
