// Negations and prohibitions in English and Chinese, with what they apply
// to: each cue opens a negation whose object is the words after it (up to
// the next cue or the end of the clause), and whose count is the number of
// cues in the clause so far — "not true that she never calls" negates
// "calls" twice, and a summary that keeps only "never" flips it.
import type { ObjectTerm, Span, TextFact } from './fact.js';
import { clauses } from './segments.js';
import { tokens, type Token } from './negation-cues.js';

/** Characters that start an object without saying what it is (prepositions, pronouns, auxiliaries). */
const ZH_LEADING = new Set([...'再也都就还会能可要想用去来给在对向把被请我你他她它们的了']);
const ZH_OBJECT_CHARS = 4;
const MAX_OBJECT_TERMS = 3;

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
