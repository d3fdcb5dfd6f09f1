import { describe, expect, it } from 'vitest';
import { decide } from '../../src/domain/subject/decide.js';
import { refines } from '../../src/domain/subject/refinement.js';
import type { SubjectCommand } from '../../src/domain/subject/commands.js';
import type { SubjectState } from '../../src/domain/subject/state.js';
import type { Value } from '../../src/domain/values/value.js';
import { initialState } from '../../src/domain/subject/state.js';
import { record, run, sealed, T0, T1, T2 } from './fixtures.js';

const text = (t: string): Value => ({ type: 'text', text: t });
const date = (d: string): Value => ({ type: 'date', date: d });
const human = { type: 'human_review', refs: ['review://r-1'] };

function decided(state: SubjectState, command: SubjectCommand) {
  const result = decide(state, command);
  if (!result.ok) throw new Error(`rejected: ${result.rejection.code}`);
  return result;
}

describe('the refinement rule', () => {
  it('a text that keeps every word of the old one and adds one refines it (case, punctuation and width do not matter)', () => {
    expect(refines(text('lives in Berlin'), text('Lives in BERLIN-Mitte, Torstraße 5'))).toBe(true);
    expect(refines(text('ｓｍｓ'), text('sms after 18:00'))).toBe(true);
  });

  it('a text that drops or changes a word, or adds none, does not', () => {
    expect(refines(text('lives in Berlin'), text('lives in Hamburg Altona'))).toBe(false);
    expect(refines(text('lives in Berlin'), text('Berlin, lives in'))).toBe(false);
    expect(refines(text('sms'), text('email'))).toBe(false);
    expect(refines(text('!!'), text('sms'))).toBe(false);
  });

  it('a date-time on the calendar date refines the date; another day, or a date for a date-time, does not', () => {
    expect(refines(date('2026-03-14'), date('2026-03-14T09:30:00Z'))).toBe(true);
    expect(refines(date('2026-03-14'), date('2026-03-15T09:30:00Z'))).toBe(false);
    expect(refines(date('2026-03-14T09:30:00Z'), date('2026-03-14'))).toBe(false);
    expect(refines(date('2026-03-14'), date('2026-03-14'))).toBe(false);
  });

  it('other types and mixed types are never refinements', () => {
    expect(refines({ type: 'number', amount: '3' }, { type: 'number', amount: '3.25' })).toBe(false);
    expect(refines(text('3'), { type: 'number', amount: '3' })).toBe(false);
  });
});

describe('REFINEMENT in the decider', () => {
  const first = () => run(initialState(), record('m-1', sealed({ value: text('Berlin'), validFrom: T0 }))).state;

  it('a supersession the command names as a refinement: cause refinement, lineage on MemoryRecorded, the reason', () => {
    const result = decided(first(), { ...record('m-2', sealed({ value: text('Berlin Mitte'), validFrom: T1 }), T2), refines: ['m-1'] });
    expect(result.decision).toMatchObject({
      outcome: 'REFINEMENT',
      supersedes: ['m-1'],
      reasons: ['newer_and_as_trusted:m-1', 'refines:m-1'],
    });
    expect(result.events.map((e) => e.type)).toEqual(['MemorySuperseded', 'MemoryRecorded']);
    expect(result.events[0]!.data).toMatchObject({ memoryId: 'm-1', supersededBy: 'm-2', cause: 'refinement' });
    expect(result.events[1]!.data).toMatchObject({
      memoryId: 'm-2',
      refines: ['m-1'],
      decision: { outcome: 'REFINEMENT', reasons: ['newer_and_as_trusted:m-1', 'refines:m-1'] },
    });
  });

  it('without the word it is a SUPERSEDES with no lineage edge', () => {
    const result = decided(first(), record('m-2', sealed({ value: text('Berlin Mitte'), validFrom: T1 }), T2));
    expect(result.decision?.outcome).toBe('SUPERSEDES');
    expect(result.events[0]!.data).toMatchObject({ cause: 'newer_statement' });
    expect(result.events[1]!.data).not.toHaveProperty('refines');
  });

  it('a refinement from a less trusted source may not supersede: CONFLICTS, no refinement recorded', () => {
    const state = run(initialState(), record('m-1', sealed({ value: text('Berlin'), validFrom: T0, source: human }))).state;
    const result = decided(state, { ...record('m-2', sealed({ value: text('Berlin Mitte'), validFrom: T1 }), T2), refines: ['m-1'] });
    expect(result.decision).toMatchObject({ outcome: 'CONFLICTS', reasons: ['less_trusted_than:m-1'] });
    expect(result.events.map((e) => e.type)).toEqual(['MemoryRecorded', 'ConflictDetected']);
    expect(result.events[0]!.data).not.toHaveProperty('refines');
  });

  it('an explicit supersession that refines: REFINEMENT, named by the caller', () => {
    const result = decided(first(), {
      type: 'SupersedeMemory',
      memoryId: 'm-1',
      newMemoryId: 'm-2',
      conflictId: 'c-2',
      entry: sealed({ value: text('Berlin Mitte'), validFrom: T1 }),
      refines: ['m-1'],
      now: T2,
    });
    expect(result.decision).toMatchObject({ outcome: 'REFINEMENT', reasons: ['named_by_caller:m-1', 'refines:m-1'] });
    expect(result.events[0]!.data).toMatchObject({ cause: 'refinement' });
  });
});
