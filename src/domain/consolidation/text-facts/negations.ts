// Negations and prohibitions in English and Chinese, with what they apply
// to: each cue opens a negation whose object is the words after it (up to
// the next cue or the end of the clause), and whose count is the number of
// cues in the clause so far — "not true that she never calls" negates
// "calls" twice, and a summary that keeps only "never" flips it.
import type { ObjectTerm, Span, TextFact } from './fact.js';
import { clauses, type Segment } from './segments.js';

type Token =
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
/** Characters that start an object without saying what it is (prepositions, pronouns, auxiliaries). */
const ZH_LEADING = new Set([...'再也都就还会能可要想用去来给在对向把被请我你他她它们的了']);
const ZH_OBJECT_CHARS = 4;
const MAX_OBJECT_TERMS = 3;

/** Latin words and numbers, and runs of Chinese characters. */
const WORD = /\p{Script=Han}+|[\p{Script=Latin}\p{N}]+(?:['’]\p{Script=Latin}+)*/gu;

function tokens(clause: Segment, source: string): Token[] {
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

/** A clause as tokens, with the count of negations that reach each term. */
export interface ReadClause {
  readonly tokens: readonly Token[];
  /** Per token index: the cues before it in the clause, plus cues that end the clause when the term comes before them. */
  readonly counts: readonly number[];
}

export function readClauses(text: string): ReadClause[] {
  return clauses(text).map((clause) => readClause(tokens(clause, text)));
}

function readClause(list: readonly Token[]): ReadClause {
  // Cues with no term after them ("Phone calls: never") reach back to the terms since the previous cue.
  let trailingFrom = list.length;
  while (trailingFrom > 0 && list[trailingFrom - 1]!.type === 'cue') trailingFrom--;
  const trailing = list.length - trailingFrom;
  let lastLeadingCue = -1;
  for (let i = 0; i < trailingFrom; i++) if (list[i]!.type === 'cue') lastLeadingCue = i;
  const counts: number[] = [];
  let seen = 0;
  list.forEach((token, i) => {
    if (token.type === 'cue') seen++;
    counts.push(seen + (token.type !== 'cue' && i > lastLeadingCue && i < trailingFrom ? trailing : 0));
  });
  return { tokens: list, counts };
}

/** The negations of a text's clauses: each run of terms that some cue reaches, with its first terms as the object. */
export function negations(read: readonly ReadClause[]): Array<Extract<TextFact, { kind: 'negation' }>> {
  const facts: Array<Extract<TextFact, { kind: 'negation' }>> = [];
  for (const clause of read) {
    const list = clause.tokens;
    for (let i = 0; i < list.length; i++) {
      if (list[i]!.type === 'cue' || (i > 0 && list[i - 1]!.type !== 'cue')) continue;
      const count = clause.counts[i]!;
      const object = objectFrom(list, i);
      if (count === 0 || object.terms.length === 0) continue;
      // From the cue before the run, or from the run to the cues that end the clause.
      const rest = list.slice(object.next);
      const start = i > 0 ? list[i - 1]!.start : list[i]!.start;
      const end = i === 0 && rest.length > 0 && rest.every((t) => t.type === 'cue') ? rest.at(-1)!.end : object.end;
      const span: Span = { start, end };
      facts.push({
        kind: 'negation',
        negations: count,
        object: object.terms,
        span,
        canonical: `${count}|${object.terms.map((t) => `${t.script}:${t.text}`).join(' ')}`,
      });
    }
  }
  return facts;
}

/** The object starting at a run of terms: up to three Latin stems, or the first Chinese characters. */
function objectFrom(list: readonly Token[], from: number): { terms: ObjectTerm[]; end: number; next: number } {
  const terms: ObjectTerm[] = [];
  let end = 0;
  let i = from;
  for (; i < list.length && terms.length < MAX_OBJECT_TERMS; i++) {
    const token = list[i]!;
    if (token.type === 'cue') break;
    if (token.type === 'latin') {
      terms.push({ script: 'latin', text: token.text });
      end = token.end;
      continue;
    }
    let lead = 0;
    while (lead < token.text.length && ZH_LEADING.has(token.text[lead]!)) lead++;
    const chars = token.text.slice(lead, lead + ZH_OBJECT_CHARS);
    if (chars.length === 0) continue;
    terms.push({ script: 'cjk', text: chars });
    end = token.start + lead + chars.length;
    i++;
    break;
  }
  while (i < list.length && list[i]!.type !== 'cue') i++;
  return { terms, end, next: i };
}

export type NegationStatus = 'stated' | 'other_polarity' | 'absent';
type Negation = Extract<TextFact, { kind: 'negation' }>;

/**
 * Whether some clause states the object reached by the same count of
 * negations ('stated'), only by another count ('other_polarity': "calls"
 * where "never calls" was written), or not at all.
 */
export function negationStatus(read: readonly ReadClause[], fact: Negation): NegationStatus {
  let status: NegationStatus = 'absent';
  for (const clause of read) {
    for (let at = 0; at < clause.tokens.length; at++) {
      const found = statusAt(clause, at, fact);
      if (found === 'stated') return found;
      if (found === 'other_polarity') status = found;
    }
  }
  return status;
}

/** The object's first term at token `at`, the others after it in order: stated with the count there, or not there. */
function statusAt(clause: ReadClause, at: number, fact: Negation): NegationStatus {
  const list = clause.tokens;
  if (!termMatches(list[at]!, fact.object[0]!)) return 'absent';
  let next = at + 1;
  for (let t = 1; t < fact.object.length; t++) {
    while (next < list.length && !termMatches(list[next]!, fact.object[t]!)) next++;
    if (next >= list.length) return 'absent';
    next++;
  }
  return clause.counts[at] === fact.negations ? 'stated' : 'other_polarity';
}

function termMatches(token: Token, term: ObjectTerm): boolean {
  if (token.type === 'cue') return false;
  return term.script === 'latin'
    ? token.type === 'latin' && token.text === term.text
    : token.type === 'cjk' && token.text.includes(term.text);
}

/** The clauses of many owners (inputs), found by term, so a negation is looked up rather than searched for. */
export class NegationIndex<Owner> {
  private readonly byTerm = new Map<string, Array<{ owner: Owner; clause: ReadClause; at: number }>>();

  add(owner: Owner, clauses: readonly ReadClause[]): void {
    for (const clause of clauses) {
      clause.tokens.forEach((token, at) => {
        if (token.type === 'cue') return;
        // A Chinese object is found inside a run: index the run by each of its characters.
        const keys = token.type === 'latin' ? [`l:${token.text}`] : [...new Set(token.text)].map((c) => `c:${c}`);
        for (const key of keys) {
          const list = this.byTerm.get(key) ?? [];
          list.push({ owner, clause, at });
          this.byTerm.set(key, list);
        }
      });
    }
  }

  /** The first owner that states the fact, and the first seen stating its object with another count. */
  find(fact: Negation): { readonly stated?: Owner; readonly flipped?: Owner } {
    const first = fact.object[0]!;
    const key = first.script === 'latin' ? `l:${first.text}` : `c:${first.text[0]!}`;
    let flipped: Owner | undefined;
    for (const { owner, clause, at } of this.byTerm.get(key) ?? []) {
      const status = statusAt(clause, at, fact);
      if (status === 'stated') return { stated: owner, ...(flipped !== undefined ? { flipped } : {}) };
      if (status === 'other_polarity') flipped ??= owner;
    }
    return flipped !== undefined ? { flipped } : {};
  }
}
