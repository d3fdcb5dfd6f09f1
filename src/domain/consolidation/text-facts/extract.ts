// Every fact of a text, read deterministically. Kinds are read in a fixed
// order and each span is read once: an id's digits are not also a number,
// a date's digits are not also a time. Negations overlap freely (the object
// of "never before 9pm" holds a time). UUIDs (memory, conflict and artifact
// ids) are no facts of the text: they are skipped.
import type { Span, TextFact } from './fact.js';
import { identifierFacts, permissionFacts } from './identifiers.js';
import { dateFacts, timeFacts } from './moments.js';
import { negations, readClauses, type ReadClause } from './negations.js';
import { moneyFacts, numberFacts } from './quantities.js';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** Readers in the order they claim spans; most need a digit, and most words have none. */
const READERS = [identifierFacts, permissionFacts, dateFacts, timeFacts, moneyFacts, numberFacts];
const WITHOUT_DIGITS = [identifierFacts, permissionFacts];

/** A text read once: its facts, and its clauses for checking negations against. */
export interface ReadText {
  readonly facts: readonly TextFact[];
  readonly clauses: readonly ReadClause[];
}

export function readText(text: string): ReadText {
  const clauses = readClauses(text);
  return { facts: extractTextFacts(text, clauses), clauses };
}

export function extractTextFacts(text: string, clauses: readonly ReadClause[] = readClauses(text)): TextFact[] {
  const claimed: Span[] = [...text.matchAll(UUID)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
  const facts: TextFact[] = [];
  const overlaps = (a: Span) => claimed.some((b) => a.start < b.end && b.start < a.end);
  for (const found of /\d/u.test(text) ? READERS : WITHOUT_DIGITS) {
    for (const fact of found(text)) {
      if (overlaps(fact.span)) continue;
      claimed.push(fact.span);
      facts.push(fact);
    }
  }
  facts.push(...negations(clauses));
  return facts.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
}
