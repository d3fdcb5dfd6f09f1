// What the words of a summary do with the words of its inputs (issue 15):
// for every must-preserve text fact, whether the claims and open items that
// cite its input state it (same canonical value, same polarity, same id);
// for every fact in served text — a claim's statement, an open item, the
// summary text — whether an input it cites has it. The gate turns this into
// reasons, the daily evaluation into recall and false-new-fact figures.
import type { ConsolidationInput } from './input.js';
import { citingByMemory, type SummarizerOutput } from './output.js';
import { factChange } from './text-facts/comparison.js';
import { readText, type ReadText } from './text-facts/extract.js';
import { sameFact, type InputTextFact, type TextFact, type TextFactKind } from './text-facts/fact.js';
import { inputWords, type InputWords } from './text-facts/input-words.js';
import { NegationIndex, negationStatus } from './text-facts/negation-status.js';
import type { ReadClause } from './text-facts/negations.js';

export type FactStatus = 'stated' | 'uncited' | 'missing_fact' | 'value_changed' | 'unit_changed' | 'polarity_flipped';

export type ServedPart =
  | { readonly part: 'claim'; readonly index: number; readonly claimKey: string; readonly derivedFrom: readonly string[] }
  | { readonly part: 'open_item'; readonly index: number; readonly derivedFrom: readonly string[] }
  | { readonly part: 'summary' };

/** A fact in served text that its cited inputs do not have. */
export interface UnsupportedFact {
  readonly code: 'false_new_fact' | 'missing_derivation' | 'polarity_flipped';
  readonly factKind: TextFactKind;
  readonly in: ServedPart;
  /** missing_derivation: an input that has it but is not cited; polarity_flipped: an input that states it the other way. */
  readonly memoryId?: string;
}

export interface WordCheck {
  /** Every must-preserve text fact of the inputs, with what became of it. */
  readonly facts: ReadonlyArray<{ readonly fact: InputTextFact; readonly status: FactStatus }>;
  readonly unsupported: readonly UnsupportedFact[];
}

interface ReadPart {
  readonly part: ServedPart;
  readonly derivedFrom: readonly string[];
  /** Facts of the served words (what the part adds to its typed statement). */
  readonly facts: readonly TextFact[];
  /** Facts and clauses of everything the part states, its typed text value included. */
  readonly statedFacts: readonly TextFact[];
  readonly statedClauses: readonly ReadClause[];
}

export function checkWords(inputs: readonly ConsolidationInput[], output: SummarizerOutput): WordCheck {
  const all = inputs.map(inputWords);
  const words = new Map(all.map((w) => [w.input.memoryId, w]));
  const known = new Known(all);
  const parts = servedParts(output);
  const ungrounded: Array<{ part: ReadPart; fact: TextFact }> = [];
  const unsupported: UnsupportedFact[] = [];
  for (const part of parts) ground(part, words, known, ungrounded, unsupported);

  const citingOf = citingByMemory(parts);
  const facts: Array<{ fact: InputTextFact; status: FactStatus }> = [];
  for (const w of all) {
    const citing = citingOf.get(w.input.memoryId) ?? [];
    for (const fact of w.facts) facts.push({ fact, status: citing.length === 0 ? 'uncited' : statusOf(fact, citing, ungrounded) });
  }
  for (const { part, fact } of ungrounded) {
    const elsewhere = known.grounding(fact)[0];
    unsupported.push(
      elsewhere
        ? { code: 'missing_derivation', factKind: fact.kind, in: part.part, memoryId: elsewhere.input.memoryId }
        : { code: 'false_new_fact', factKind: fact.kind, in: part.part },
    );
  }
  return { facts, unsupported };
}

/** What every input states, looked up by fact: facts by kind and canonical value, negations by their terms. */
class Known {
  private readonly grounds = new Map<string, InputWords[]>();
  private readonly negations = new NegationIndex<InputWords>();

  constructor(all: readonly InputWords[]) {
    for (const w of all) {
      for (const g of w.grounds) {
        const list = this.grounds.get(factKey(g)) ?? [];
        if (list.at(-1) !== w) list.push(w);
        this.grounds.set(factKey(g), list);
      }
      this.negations.add(w, w.clauses);
    }
  }

  grounding(fact: TextFact): readonly InputWords[] {
    return this.grounds.get(factKey(fact)) ?? [];
  }

  negation(fact: Extract<TextFact, { kind: 'negation' }>): { readonly stated?: InputWords; readonly flipped?: InputWords } {
    return this.negations.find(fact);
  }
}

const factKey = (fact: TextFact) => `${fact.kind}\u0000${fact.canonical}`;

function servedParts(output: SummarizerOutput): ReadPart[] {
  // Within one check a text is read once: a statement, and the summary line that repeats it.
  const known = new Map<string, ReadText>();
  const read = (text: string) => known.get(text) ?? known.set(text, readText(text)).get(text)!;
  const part = (served: ServedPart, derivedFrom: readonly string[], words: readonly string[], stated: readonly string[]): ReadPart => ({
    part: served,
    derivedFrom,
    facts: words.flatMap((w) => read(w).facts),
    statedFacts: stated.flatMap((w) => read(w).facts),
    statedClauses: stated.flatMap((w) => read(w).clauses),
  });
  return [
    ...output.claims.map((c, index) => {
      const words = c.statement !== undefined ? [c.statement] : [];
      const value = c.value.type === 'text' ? [c.value.text] : [];
      return part({ part: 'claim', index, claimKey: c.key, derivedFrom: c.derivedFrom }, c.derivedFrom, words, [...value, ...words]);
    }),
    ...output.openItems.map((o, index) =>
      part({ part: 'open_item', index, derivedFrom: o.derivedFrom }, o.derivedFrom, [o.text], [o.text]),
    ),
    // The summary text line by line (a line break ends every clause), a list item's bullet aside.
    part(
      { part: 'summary' },
      [],
      output.summary.split('\n').map((line) => line.replace(/^\s*[-*•]\s+/u, '')),
      [],
    ),
  ];
}

/**
 * Every fact of a part's words must be had by an input it cites (the
 * summary text: by any input). Negations are judged here; other facts
 * without ground wait to be paired with a fact they may have changed.
 */
function ground(
  part: ReadPart,
  words: ReadonlyMap<string, InputWords>,
  known: Known,
  ungrounded: Array<{ part: ReadPart; fact: TextFact }>,
  unsupported: UnsupportedFact[],
): void {
  const anyInput = part.part.part === 'summary';
  const cited = [...new Set(part.derivedFrom.flatMap((id) => words.get(id) ?? []))];
  for (const fact of part.facts) {
    if (fact.kind !== 'negation') {
      const grounds = known.grounding(fact);
      if (!(anyInput ? grounds.length > 0 : grounds.some((w) => cited.includes(w)))) ungrounded.push({ part, fact });
      continue;
    }
    // The summary text may rest on any input; a claim or open item on those it cites.
    const statuses = anyInput ? [] : cited.map((w) => [w, negationStatus(w.clauses, fact)] as const);
    if (statuses.some(([, status]) => status === 'stated')) continue;
    const anywhere = known.negation(fact);
    if (anyInput && anywhere.stated) continue;
    const flipped = anyInput ? anywhere.flipped : statuses.find(([, status]) => status === 'other_polarity')?.[0];
    unsupported.push(
      flipped
        ? { code: 'polarity_flipped', factKind: 'negation', in: part.part, memoryId: flipped.input.memoryId }
        : anywhere.stated
          ? { code: 'missing_derivation', factKind: 'negation', in: part.part, memoryId: anywhere.stated.input.memoryId }
          : { code: 'false_new_fact', factKind: 'negation', in: part.part },
    );
  }
}

/** Whether the parts that cite a fact's input state it; a fact they changed is paired with the ungrounded fact it became. */
function statusOf(fact: InputTextFact, citing: readonly ReadPart[], ungrounded: Array<{ part: ReadPart; fact: TextFact }>): FactStatus {
  if (fact.kind === 'negation') {
    const status = negationStatus(
      citing.flatMap((p) => p.statedClauses),
      fact,
    );
    return status === 'stated' ? 'stated' : status === 'other_polarity' ? 'polarity_flipped' : 'missing_fact';
  }
  if (citing.some((p) => p.statedFacts.some((f) => sameFact(f, fact)))) return 'stated';
  for (let i = 0; i < ungrounded.length; i++) {
    const candidate = ungrounded[i]!;
    if (!citing.includes(candidate.part)) continue;
    const change = factChange(fact, candidate.fact);
    if (!change) continue;
    ungrounded.splice(i, 1);
    return change;
  }
  return 'missing_fact';
}
