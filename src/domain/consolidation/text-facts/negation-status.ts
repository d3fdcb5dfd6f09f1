// Whether a text states a negation: the same object reached by the same
// count of negations, by another count (a flipped polarity), or not at all;
// for one text, or looked up across many by term.
import type { ObjectTerm, TextFact } from './fact.js';
import type { Token } from './negation-cues.js';
import type { ReadClause } from './negations.js';

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
