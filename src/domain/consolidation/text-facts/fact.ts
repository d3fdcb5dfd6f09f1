// A fact read from the words of a memory (issue 15): what a summary may not
// lose even though it lives in free text, not in the typed value. Each fact
// is typed, carries a canonical value (72 hours and 3 days are one value;
// 72 hours and 72 days are not) and the span it was read from. Canonical
// values restate personal data: they stay in memory, never in an event or
// a message (those name memory ids, fact kinds and spans).

export const TEXT_FACT_KINDS = ['negation', 'number', 'money', 'date', 'time', 'identifier', 'permission'] as const;
export type TextFactKind = (typeof TEXT_FACT_KINDS)[number];

/** UTF-16 offsets into the text the fact was read from; end is exclusive. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** One term of what a negation applies to: a Latin word stem, or a run of Chinese characters. */
export interface ObjectTerm {
  readonly script: 'latin' | 'cjk';
  readonly text: string;
}

interface Base {
  readonly span: Span;
  /** Equal meaning, equal text (within one kind). */
  readonly canonical: string;
}

export type TextFact =
  | (Base & {
      readonly kind: 'negation';
      /** Negation cues in the clause up to this one: 2 for "not true that she never calls". */
      readonly negations: number;
      readonly object: readonly ObjectTerm[];
    })
  | (Base & {
      readonly kind: 'number';
      /** The amount as written (normalised decimal), before unit conversion. */
      readonly written: string;
      readonly unit?: string;
      /** time, length, mass, data, or the unit as written when it does not convert; 'none' without a unit. */
      readonly dimension: string;
    })
  | (Base & { readonly kind: 'money'; readonly currency: string; readonly amount: string })
  | (Base & { readonly kind: 'date' | 'time' | 'permission' })
  | (Base & {
      readonly kind: 'identifier';
      /** What kind of id, for telling a changed id from an unrelated one: "ORD-", "#", "+", "@". */
      readonly shape: string;
    });

/** Where a must-preserve text fact comes from. */
export type TextField = 'content' | 'value';

export type InputTextFact = TextFact & { readonly memoryId: string; readonly field: TextField };

export function sameFact(a: TextFact, b: TextFact): boolean {
  return a.kind === b.kind && a.canonical === b.canonical;
}
