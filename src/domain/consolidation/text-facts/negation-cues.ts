// The words of a clause as tokens: negation cues in English and Chinese
// (longest first; words that contain a cue but negate nothing masked out),
// and the terms between them, Latin words stemmed, Chinese runs whole.
import type { Segment } from './segments.js';

export type Token =
  | { readonly type: 'cue'; readonly start: number; readonly end: number }
  | { readonly type: 'latin' | 'cjk'; readonly text: string; readonly start: number; readonly end: number };

const EN_CUES = new Set([
  'never',
  'not',
  'no',
  'without',
  'cannot',
  'nor',
  'neither',
  'none',
  'nothing',
  'nobody',
  'nowhere',
  'forbidden',
  'prohibited',
]);
const EN_CONTRACTED = /n['’]t$/u;

const EN_STOPWORDS = new Set(
  (
    'a an the to of for in on at by with from as is are was were be been being am do does did doing done will would shall should ' +
    'can could may might must have has had having i me my we us our you your he him his she her it its they them their this that ' +
    'these those and or but so if then than there here please ever any also just again anymore very really too'
  ).split(' '),
);

/** Longest first, so 不接受 is one cue and not 不 followed by 接受. */
const ZH_CUES = [
  '不接受',
  '不需要',
  '不希望',
  '不允许',
  '不可以',
  '不应该',
  '不要',
  '不能',
  '不会',
  '不可',
  '不得',
  '不是',
  '不准',
  '不许',
  '不用',
  '不想',
  '不愿',
  '不必',
  '从不',
  '从未',
  '绝不',
  '决不',
  '并不',
  '没有',
  '禁止',
  '严禁',
  '无法',
  '无需',
  '不',
  '没',
  '别',
  '勿',
  '未',
];
/** Words that contain a cue character but negate nothing ("not bad", "but", "other people", "special", "future", "must"). */
const ZH_NOT_CUES = [
  '不错',
  '不过',
  '不少',
  '不断',
  '不同',
  '不仅',
  '不管',
  '不久',
  '不得不',
  '不然',
  '要不',
  '差不多',
  '不如',
  '不论',
  '没错',
  '别人',
  '别的',
  '特别',
  '区别',
  '分别',
  '告别',
  '识别',
  '级别',
  '类别',
  '性别',
  '个别',
  '差别',
  '别处',
  '未来',
];

/** Latin words and numbers, and runs of Chinese characters. */
const WORD = /\p{Script=Han}+|[\p{Script=Latin}\p{N}]+(?:['’]\p{Script=Latin}+)*/gu;

export function tokens(clause: Segment, source: string): Token[] {
  const out: Token[] = [];
  for (const match of clause.text.matchAll(WORD)) {
    const start = clause.start + match.index;
    const word = match[0];
    if (/^\p{Script=Han}/u.test(word)) {
      out.push(...cjkTokens(word, start));
      continue;
    }
    const end = start + word.length;
    const lower = word.toLowerCase();
    if (isLatinCue(lower, source, end, clause)) out.push({ type: 'cue', start, end });
    else if (!EN_STOPWORDS.has(lower)) out.push({ type: 'latin', text: stem(lower), start, end });
  }
  return out;
}

function isLatinCue(lower: string, source: string, end: number, clause: Segment): boolean {
  if (!EN_CUES.has(lower) && !EN_CONTRACTED.test(lower)) return false;
  const after = source.slice(end, clause.end + 20);
  if (lower === 'not' && /^\s+only\b/iu.test(after)) return false;
  // "No. 5" is a number, not a negation.
  if (lower === 'no' && /^\.?\s*\d/u.test(after)) return false;
  return true;
}

/** Plural and possessive endings off, so "calls" and "call" are one word. */
export function stem(word: string): string {
  const w = word.replace(/['’]s$/u, '');
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/u.test(w)) return w.slice(0, -1);
  return w;
}

function cjkTokens(run: string, offset: number): Token[] {
  const masked = new Array<boolean>(run.length).fill(false);
  for (const word of ZH_NOT_CUES) {
    for (let i = run.indexOf(word); i >= 0; i = run.indexOf(word, i + 1)) masked.fill(true, i, i + word.length);
  }
  const out: Token[] = [];
  let textFrom = 0;
  let i = 0;
  while (i < run.length) {
    const cue = masked[i] ? undefined : ZH_CUES.find((c) => run.startsWith(c, i) && !masked.slice(i, i + c.length).includes(true));
    if (!cue) {
      i++;
      continue;
    }
    if (i > textFrom) out.push({ type: 'cjk', text: run.slice(textFrom, i), start: offset + textFrom, end: offset + i });
    out.push({ type: 'cue', start: offset + i, end: offset + i + cue.length });
    i += cue.length;
    textFrom = i;
  }
  if (run.length > textFrom) out.push({ type: 'cjk', text: run.slice(textFrom), start: offset + textFrom, end: offset + run.length });
  return out;
}
