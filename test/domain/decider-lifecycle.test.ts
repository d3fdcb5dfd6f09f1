import { describe, expect, it } from 'vitest';
import { decide } from '../../src/domain/subject/decide.js';
import { evolve } from '../../src/domain/subject/evolve.js';
import { activeEntriesInSlot } from '../../src/domain/subject/state.js';
import { slotOf } from '../../src/domain/entry/scopes.js';
import type { SubjectEvent, SubjectEventType } from '../../src/domain/events/subject-events.js';
import { effectiveTrust } from '../../src/domain/subject/trust.js';
import { record, run, runAll, sealed, T0, T1, T2, T3 } from './fixtures.js';

const SLOT = slotOf('notification.preference', {});
const text = (t: string) => ({ type: 'text', text: t });
const human = { type: 'human_review' as const, refs: ['review://r-1'] };

/** m-1 (human, email) and m-2 (user, phone) in open conflict c-1; m-3 another key that expires at T2. */
function conflicted() {
  return runAll([
    record('m-1', sealed({ value: text('email'), validFrom: T0, source: human }), T0),
    record('m-2', sealed({ value: text('phone'), validFrom: T1 }), T1, 'c-1'),
    record('m-3', sealed({ key: 'order.status', kind: 'episodic', value: text('shipped'), expiresAt: T2 }), T1),
  ]);
}

describe('inputEpoch advances by exactly the events DESIGN section 3 lists', () => {
  const { state } = conflicted();
  const cases: Array<[SubjectEventType, SubjectEvent, number, number]> = [
    [
      'MemoryRecorded',
      { type: 'MemoryRecorded', data: { ...sealed(), memoryId: 'm-9', sequence: 4, trust: 'user_assertion', validFrom: T2 } },
      0,
      1,
    ],
    ['MemoryCorroborated', { type: 'MemoryCorroborated', data: { memoryId: 'm-1', source: human, corroboratedAt: T2 } }, 0, 0],
    [
      'MemorySuperseded',
      { type: 'MemorySuperseded', data: { memoryId: 'm-2', supersededBy: 'm-1', validTo: T2, cause: 'explicit', supersededAt: T2 } },
      1,
      0,
    ],
    ['MemoryRetracted', { type: 'MemoryRetracted', data: { memoryId: 'm-2', reason: 'wrong', retractedAt: T2 } }, 1, 0],
    [
      'ConflictDetected',
      {
        type: 'ConflictDetected',
        data: { conflictId: 'c-9', key: 'notification.preference', scopes: {}, memoryIds: ['m-1', 'm-2'], detectedAt: T2 },
      },
      1,
      0,
    ],
    ['ConflictResolved', { type: 'ConflictResolved', data: { conflictId: 'c-1', winner: 'm-1', losers: ['m-2'], resolvedAt: T2 } }, 1, 0],
    ['TrustChanged', { type: 'TrustChanged', data: { sourceRef: 'review://r-1', level: 'model_inference', changedAt: T2 } }, 1, 0],
    [
      'TaintPolicyEscalated',
      { type: 'TaintPolicyEscalated', data: { policyVersion: 1, refPatterns: ['msg://*'], sourceTypes: [], reason: 'r', escalatedAt: T2 } },
      1,
      0,
    ],
    ['MemoryExpired', { type: 'MemoryExpired', data: { memoryId: 'm-3', expiresAt: T2, expiredAt: T2 } }, 1, 0],
    ['MemoryForgotten', { type: 'MemoryForgotten', data: { memoryId: 'm-2', forgottenAt: T2 } }, 1, 0],
    ['SubjectForgotten', { type: 'SubjectForgotten', data: { forgottenAt: T2 } }, 1, 0],
    [
      'SummaryAliasSwitched',
      { type: 'SummaryAliasSwitched', data: { artifactId: 'a-1', sourceEpoch: 1, coversThrough: 3, previous: null, switchedAt: T2 } },
      0,
      0,
    ],
    [
      'DeletionReceiptIssued',
      {
        type: 'DeletionReceiptIssued',
        data: { receiptId: 'r-1', scope: 'memory', memoryIds: ['m-2'], destroyedKeyIds: [], invalidatedArtifactIds: [], issuedAt: T2 },
      },
      0,
      0,
    ],
  ];

  it('covers every subject event type', () => {
    expect(cases.map(([type]) => type).sort()).toEqual([
      'ConflictDetected',
      'ConflictResolved',
      'DeletionReceiptIssued',
      'MemoryCorroborated',
      'MemoryExpired',
      'MemoryForgotten',
      'MemoryRecorded',
      'MemoryRetracted',
      'MemorySuperseded',
      'SubjectForgotten',
      'SummaryAliasSwitched',
      'TaintPolicyEscalated',
      'TrustChanged',
    ]);
  });

  it.each(cases)('%s: inputEpoch and H move as the table says', (_type, event, epochDelta, headDelta) => {
    const next = evolve(state, event);
    expect(next.inputEpoch - state.inputEpoch).toBe(epochDelta);
    expect(next.highWaterMark - state.highWaterMark).toBe(headDelta);
  });

  it('SummaryAliasSwitched moves only the alias', () => {
    const next = evolve(state, cases[11]![1]);
    expect(next.alias).toEqual({ artifactId: 'a-1', sourceEpoch: 1, coversThrough: 3 });
    expect(state.alias).toBeNull();
  });
});

describe('RetractMemory', () => {
  it('withdraws an active entry and moots the conflicts it leaves with one member', () => {
    const { state } = conflicted();
    const { state: next, events } = run(state, { type: 'RetractMemory', memoryId: 'm-2', reason: 'user corrected it', now: T2 });
    expect(events).toEqual([{ type: 'MemoryRetracted', data: { memoryId: 'm-2', reason: 'user corrected it', retractedAt: T2 } }]);
    expect(next.entries.get('m-2')?.status).toBe('retracted');
    expect(activeEntriesInSlot(next, SLOT).map((e) => e.memoryId)).toEqual(['m-1']);
    expect(next.openConflictIds).toEqual([]);
    expect(next.conflicts.get('c-1')?.status).toBe('moot');
  });

  it('also withdraws a superseded entry, but not twice, and not an unknown one', () => {
    const { state } = runAll([record('m-1', sealed({ value: text('email'), validFrom: T0 })), record('m-2', sealed({ validFrom: T1 }))]);
    expect(state.entries.get('m-1')?.status).toBe('superseded');
    const { state: retracted } = run(state, { type: 'RetractMemory', memoryId: 'm-1', reason: 'never true', now: T2 });
    expect(retracted.entries.get('m-1')?.status).toBe('retracted');
    expect(decide(retracted, { type: 'RetractMemory', memoryId: 'm-1', reason: 'again', now: T2 })).toMatchObject({
      ok: false,
      rejection: { code: 'already_retracted', field: 'memoryId' },
    });
    expect(decide(retracted, { type: 'RetractMemory', memoryId: 'm-404', reason: 'x', now: T2 })).toMatchObject({
      ok: false,
      rejection: { code: 'memory_not_found', field: 'memoryId' },
    });
  });
});

describe('ResolveConflict', () => {
  it('keeps the winner, supersedes the other members, and closes the conflict', () => {
    const { state } = conflicted();
    const { state: next, events } = run(state, {
      type: 'ResolveConflict',
      conflictId: 'c-1',
      winner: 'm-1',
      reason: 'confirmed by phone',
      now: T3,
    });
    expect(events.map((e) => e.type)).toEqual(['ConflictResolved', 'MemorySuperseded']);
    expect(events[0]!.data).toEqual({ conflictId: 'c-1', winner: 'm-1', losers: ['m-2'], reason: 'confirmed by phone', resolvedAt: T3 });
    // The loser started after the winner: it never held.
    expect(events[1]!.data).toEqual({ memoryId: 'm-2', supersededBy: 'm-1', validTo: T1, cause: 'conflict_resolution', supersededAt: T3 });
    expect(next.conflicts.get('c-1')).toMatchObject({ status: 'resolved', winner: 'm-1' });
    expect(next.openConflictIds).toEqual([]);
    expect(activeEntriesInSlot(next, SLOT).map((e) => e.memoryId)).toEqual(['m-1']);
  });

  it('a winner that started later closes the loser at its own validFrom', () => {
    const { state } = conflicted();
    const { events } = run(state, { type: 'ResolveConflict', conflictId: 'c-1', winner: 'm-2', now: T3 });
    expect(events[1]!.data).toMatchObject({ memoryId: 'm-1', validTo: T1 });
  });

  it.each([
    ['an unknown conflict', { conflictId: 'c-404' }, 'conflict_not_found', 'conflictId'],
    ['a winner outside the conflict', { winner: 'm-3' }, 'winner_not_in_conflict', 'winner'],
  ])('refuses %s', (_name, patch, code, field) => {
    const { state } = conflicted();
    expect(decide(state, { type: 'ResolveConflict', conflictId: 'c-1', winner: 'm-1', now: T3, ...patch })).toMatchObject({
      ok: false,
      rejection: { code, field },
    });
  });

  it('refuses a conflict that is no longer open', () => {
    const { state } = conflicted();
    const { state: resolved } = run(state, { type: 'ResolveConflict', conflictId: 'c-1', winner: 'm-1', now: T3 });
    expect(decide(resolved, { type: 'ResolveConflict', conflictId: 'c-1', winner: 'm-2', now: T3 })).toMatchObject({
      ok: false,
      rejection: { code: 'conflict_not_open' },
    });
  });
});

describe('ChangeTrust and EscalateTaintPolicy', () => {
  it('sets a per-ref trust level; the same level again appends nothing', () => {
    const { state } = conflicted();
    const { state: next, events } = run(state, {
      type: 'ChangeTrust',
      sourceRef: 'review://r-1',
      level: 'derived_summary',
      reason: 'reviewer account compromised',
      now: T2,
    });
    expect(events).toEqual([
      {
        type: 'TrustChanged',
        data: { sourceRef: 'review://r-1', level: 'derived_summary', reason: 'reviewer account compromised', changedAt: T2 },
      },
    ]);
    expect(effectiveTrust(next, human)).toBe('derived_summary');
    expect(decide(next, { type: 'ChangeTrust', sourceRef: 'review://r-1', level: 'derived_summary', now: T3 })).toEqual({
      ok: true,
      events: [],
    });
    const again = decide(next, { type: 'ChangeTrust', sourceRef: 'review://r-1', level: 'human_review', now: T3 });
    expect(again.ok && again.events[0]!.data).toMatchObject({ previousLevel: 'derived_summary', level: 'human_review' });
  });

  it('the lowest override among an entry’s refs decides its trust', () => {
    const { state } = runAll([
      { type: 'ChangeTrust', sourceRef: 'a://1', level: 'human_review', now: T0 },
      { type: 'ChangeTrust', sourceRef: 'a://2', level: 'model_inference', now: T0 },
    ]);
    expect(effectiveTrust(state, { type: 'user_assertion', refs: ['a://1'] })).toBe('human_review');
    expect(effectiveTrust(state, { type: 'user_assertion', refs: ['a://1', 'a://2'] })).toBe('model_inference');
    expect(effectiveTrust(state, { type: 'user_assertion', refs: ['a://3'] })).toBe('user_assertion');
  });

  it('escalation only adds: new patterns get the next policy version, known ones append nothing', () => {
    const { state, events } = runAll([
      { type: 'EscalateTaintPolicy', refPatterns: ['msg://thread-66/*'], sourceTypes: ['model_inference'], reason: 'injection', now: T1 },
    ]);
    expect(events[0]!.data).toMatchObject({ policyVersion: 1, refPatterns: ['msg://thread-66/*'], sourceTypes: ['model_inference'] });
    expect(effectiveTrust(state, { type: 'human_review', refs: ['msg://thread-66/turn-1'] })).toBe('untrusted');
    expect(effectiveTrust(state, { type: 'human_review', refs: ['msg://thread-660/turn-1'] })).toBe('human_review');
    expect(effectiveTrust(state, { type: 'model_inference', refs: [] })).toBe('untrusted');
    expect(
      decide(state, { type: 'EscalateTaintPolicy', refPatterns: ['msg://thread-66/*'], sourceTypes: [], reason: 'again', now: T2 }),
    ).toEqual({ ok: true, events: [] });
    const more = decide(state, {
      type: 'EscalateTaintPolicy',
      refPatterns: ['msg://thread-66/*', 'doc://leak'],
      sourceTypes: [],
      reason: 'more',
      now: T2,
    });
    expect(more.ok && more.events[0]!.data).toMatchObject({ policyVersion: 2, refPatterns: ['doc://leak'] });
    expect(decide(state, { type: 'EscalateTaintPolicy', refPatterns: [], sourceTypes: [], reason: 'nothing', now: T2 })).toMatchObject({
      ok: false,
      rejection: { code: 'nothing_to_escalate' },
    });
  });
});

describe('ExpireMemories', () => {
  it('expires active entries whose expiresAt is at or before now, once', () => {
    const { state } = conflicted();
    expect(decide(state, { type: 'ExpireMemories', now: T1 })).toEqual({ ok: true, events: [] });
    const { state: next, events } = run(state, { type: 'ExpireMemories', now: T2 });
    expect(events).toEqual([{ type: 'MemoryExpired', data: { memoryId: 'm-3', expiresAt: T2, expiredAt: T2 } }]);
    expect(next.entries.get('m-3')?.status).toBe('expired');
    expect(decide(next, { type: 'ExpireMemories', now: T3 })).toEqual({ ok: true, events: [] });
  });

  it('does not expire entries that left the active set', () => {
    const { state } = runAll([
      record('m-1', sealed({ value: text('email'), validFrom: T0, expiresAt: T1 })),
      record('m-2', sealed({ validFrom: T0, expiresAt: T3 })),
    ]);
    const expired = decide(state, { type: 'ExpireMemories', now: T3 });
    expect(expired.ok && expired.events.map((e) => e.data)).toEqual([{ memoryId: 'm-2', expiresAt: T3, expiredAt: T3 }]);
  });
});

describe('forgetting', () => {
  it('ForgetMemory appends the tombstone and a receipt naming the alias artifact that covered it', () => {
    const { state } = runAll([
      record('m-1', sealed({ validFrom: T0 })),
      {
        type: 'SwitchSummaryAlias',
        now: T1,
        manifest: manifestFor('a-1', 0, 1, null, [{ memoryId: 'm-1', sequence: 1, valueHash: sealed().valueHash }]),
      },
    ]);
    const { state: next, events } = run(state, {
      type: 'ForgetMemory',
      memoryId: 'm-1',
      receiptId: 'r-1',
      destroyedKeyIds: ['k-m-1'],
      invalidatedArtifactIds: [],
      now: T2,
    });
    expect(events).toEqual([
      { type: 'MemoryForgotten', data: { memoryId: 'm-1', forgottenAt: T2 } },
      {
        type: 'DeletionReceiptIssued',
        data: {
          receiptId: 'r-1',
          scope: 'memory',
          memoryIds: ['m-1'],
          destroyedKeyIds: ['k-m-1'],
          invalidatedArtifactIds: ['a-1'],
          issuedAt: T2,
        },
      },
    ]);
    expect(next.entries.get('m-1')?.status).toBe('forgotten');
    expect(
      decide(next, { type: 'ForgetMemory', memoryId: 'm-1', receiptId: 'r-2', destroyedKeyIds: [], invalidatedArtifactIds: [], now: T3 }),
    ).toMatchObject({ ok: false, rejection: { code: 'already_forgotten' } });
    expect(decide(next, { type: 'RetractMemory', memoryId: 'm-1', reason: 'x', now: T3 })).toMatchObject({
      ok: false,
      rejection: { code: 'already_forgotten' },
    });
  });

  it('ForgetSubject forgets every entry, closes open conflicts, and refuses every later command', () => {
    const { state } = conflicted();
    const { state: next, events } = run(state, {
      type: 'ForgetSubject',
      receiptId: 'r-1',
      destroyedKeyIds: ['k-subject'],
      invalidatedArtifactIds: [],
      reason: 'erasure request',
      now: T2,
    });
    expect(events.map((e) => e.type)).toEqual(['SubjectForgotten', 'DeletionReceiptIssued']);
    expect(events[1]!.data).toMatchObject({
      scope: 'subject',
      memoryIds: ['m-1', 'm-2', 'm-3'],
      destroyedKeyIds: ['k-subject'],
      invalidatedArtifactIds: [],
    });
    expect([...next.entries.values()].every((e) => e.status === 'forgotten')).toBe(true);
    expect(next.openConflictIds).toEqual([]);
    expect(next.forgotten).toBe(true);
    for (const command of [
      record('m-9', sealed()),
      { type: 'RetractMemory' as const, memoryId: 'm-1', reason: 'x', now: T3 },
      { type: 'ChangeTrust' as const, sourceRef: 'a://1', level: 'human_review' as const, now: T3 },
      { type: 'ForgetSubject' as const, receiptId: 'r-2', destroyedKeyIds: [], invalidatedArtifactIds: [], now: T3 },
    ]) {
      expect(decide(next, command)).toMatchObject({ ok: false, rejection: { code: 'subject_forgotten' } });
    }
    expect(decide(next, { type: 'ExpireMemories', now: T3 })).toEqual({ ok: true, events: [] });
  });
});

function manifestFor(
  artifactId: string,
  inputEpoch: number,
  newCoversThrough: number,
  expectedAlias: { artifactId: string; sourceEpoch: number; coversThrough: number } | null,
  inputs: Array<{ memoryId: string; sequence: number; valueHash: string }>,
) {
  return {
    artifactId,
    tenant: 'acme',
    subject: 'user-1',
    newCoversThrough,
    inputEpoch,
    expectedAlias,
    inputs,
    inputRoot: '0'.repeat(64),
    conflictIds: [],
    parentArtifactId: null,
    selectorVersion: 's1',
    promptVersion: 'p1',
    modelSnapshot: 'deterministic-1',
  };
}
