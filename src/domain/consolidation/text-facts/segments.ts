// How free text is cut for reading facts: sentences (what a shortened
// statement keeps or drops whole) and clauses (what a negation can reach:
// "No, she never calls" negates "calls" once, not twice; a semicolon or a
// dash ends a clause too).
import type { Span } from './fact.js';

export interface Segment extends Span {
  readonly text: string;
}

/** A sentence ends at . ! ? before a space or the end, at 。 ！ ？ or a line break. */
const SENTENCE_END = /[.!?](?=\s|$)|[。！？\n]/gu;
/** A clause also ends at a comma (not at a colon: in "Phone calls: never" the cue applies to what precedes it). */
const CLAUSE_END = /[.!?](?=\s|$)|[;；。！？\n,，、]|—+|\s-\s/gu;

export function sentences(text: string): Segment[] {
  return cut(text, SENTENCE_END);
}

export function clauses(text: string): Segment[] {
  return cut(text, CLAUSE_END);
}

/** Segments with their terminator, without surrounding white space; empty ones left out. */
function cut(text: string, boundary: RegExp): Segment[] {
  const segments: Segment[] = [];
  let from = 0;
  const push = (start: number, end: number) => {
    let s = start;
    let e = end;
    while (s < e && /\s/u.test(text[s]!)) s++;
    while (e > s && /\s/u.test(text[e - 1]!)) e--;
    if (e > s) segments.push({ start: s, end: e, text: text.slice(s, e) });
  };
  for (const match of text.matchAll(boundary)) {
    const end = match.index + match[0].length;
    push(from, end);
    from = end;
  }
  push(from, text.length);
  return segments;
}

/** Ends a statement with a sentence terminator, so text appended after it starts a new sentence. */
export function closed(statement: string): string {
  const trimmed = statement.trim();
  if (/[.!?;。；！？]$/u.test(trimmed)) return trimmed;
  return /\p{Script=Han}$/u.test(trimmed) ? `${trimmed}。` : `${trimmed}.`;
}
