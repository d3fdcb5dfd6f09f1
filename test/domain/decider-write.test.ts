import { describe, expect, it } from 'vitest';
import { decide } from '../../src/domain/subject/decide.js';
import { evolve } from '../../src/domain/subject/evolve.js';
import { activeEntriesInSlot, initialState, type SubjectState } from '../../src/domain/subject/state.js';
import { slotOf } from '../../src/domain/entry/scopes.js';
import type { SubjectCommand } from '../../src/domain/subject/commands.js';
import { record, run, runAll, sealed, T0, T1, T2, T3 } from './fixtures.js';

const SLOT = slotOf('notification.preference', {});
const text = (t: string) => ({ type: 'text', text: t });
const user = (ref = 'msg://thread-9/turn-14') => ({ type: 'user_assertion', refs: [ref] });
const human = { type: 'human_review', refs: ['review://r-1'] };
const model = { type: 'model_inference', refs: ['model://extractor-3'] };
const tool = { type: 'verified_tool_fact', refs: ['tool://crm'] };

function decided(state: SubjectState, command: SubjectCommand) {
  const result = decide(state, command);
  if (!result.ok) throw new Error(`rejected: ${result.rejection.code}`);
  return { ...result, state: result.events.reduce(evolve, state) };
}

const activeIds = (state: SubjectState, slot = SLOT) => activeEntriesInSlot(state, slot).map((e) => e.memoryId);

describe('NEW', () => {
  it('records the first statement of a slot with the next sequence, valid from now when no validFrom is given', () => {
    const result = decided(initialState(), record('m-1', sealed(), T2));
    expect(result.decision).toEqual({
      outcome: 'NEW',
      memoryId: 'm-1',
      sequence: 1,
      supersedes: [],
      conflictsWith: [],
      reasons: ['no_competing_statement'],
    });
    expect(result.events.map((e) => e.type)).toEqual(['MemoryRecorded']);
    expect(result.events[0]!.data).toMatchObject({ sequence: 1, validFrom: T2 });
    expect(result.state.highWaterMark).toBe(1);
    expect(result.state.inputEpoch).toBe(0);
  });

  it('treats other scopes as other slots', () => {
    const { state } = run(initialState(), record('m-1', sealed({ scopes: { project: 'shop-a' } })));
    const result = decided(state, record('m-2', sealed({ value: text('email'), scopes: { project: 'shop-b' } })));
    expect(result.decision?.outcome).toBe('NEW');
    expect(activeIds(result.state, slotOf('notification.preference', { project: 'shop-a' }))).toEqual(['m-1']);
  });

  it('does not compete with an entry whose valid window ended before the new one starts', () => {
    const { state } = run(initialState(), record('m-1', sealed({ value: text('email'), validFrom: T0, validTo: T1 })));
    const result = decided(state, record('m-2', sealed({ validFrom: T2 })));
    expect(result.decision?.outcome).toBe('NEW');
    expect(activeIds(result.state)).toEqual(['m-1', 'm-2']);
  });
});

describe('DUPLICATE', () => {
  it('records nothing new: a corroboration of the existing entry with the new source', () => {
    const { state } = run(initialState(), record('m-1', sealed({ validFrom: T0 })));
    const result = decided(state, record('m-2', sealed({ source: { type: 'verified_tool_fact', refs: ['tool://crm'] } }), T2));
    const reasons = ['same_value_and_polarity:m-1'];
    expect(result.decision).toEqual({ outcome: 'DUPLICATE', memoryId: 'm-1', sequence: 1, supersedes: [], conflictsWith: [], reasons });
    expect(result.events).toEqual([
      {
        type: 'MemoryCorroborated',
        data: { memoryId: 'm-1', source: tool, corroboratedAt: T2, decision: { outcome: 'DUPLICATE', reasons } },
      },
    ]);
    expect(result.state.highWaterMark).toBe(1);
    expect(result.state.inputEpoch).toBe(0);
    expect(result.state.entries.has('m-2')).toBe(false);
    expect(result.state.entries.get('m-1')?.corroborations).toBe(1);
  });

  it('compares canonical values: 72 h duplicates 3 d, 72 d does not', () => {
    const key = 'delivery.delay';
    const { state } = run(
      initialState(),
      record('m-1', sealed({ key, kind: 'semantic', value: { type: 'number', amount: '72', unit: 'h' }, validFrom: T0 })),
    );
    expect(
      decided(state, record('m-2', sealed({ key, kind: 'semantic', value: { type: 'number', amount: 3, unit: 'd' } }))).decision?.outcome,
    ).toBe('DUPLICATE');
    expect(
      decided(state, record('m-2', sealed({ key, kind: 'semantic', value: { type: 'number', amount: '72', unit: 'd' } }))).decision
        ?.outcome,
    ).toBe('SUPERSEDES');
  });

  it('a negation of the same value is not a duplicate', () => {
    const { state } = run(initialState(), record('m-1', sealed({ validFrom: T0 })));
    const result = decided(state, record('m-2', sealed({ polarity: 'negated', validFrom: T2 })));
    expect(result.decision?.outcome).toBe('SUPERSEDES');
  });
});

describe('SUPERSEDES', () => {
  it('a newer statement from an equally trusted source closes the old valid window at its validFrom', () => {
    const { state } = run(initialState(), record('m-1', sealed({ value: text('email'), validFrom: T0 }), T1));
    const result = decided(state, record('m-2', sealed({ validFrom: T2 }), T3));
    expect(result.decision).toEqual({
      outcome: 'SUPERSEDES',
      memoryId: 'm-2',
      sequence: 2,
      supersedes: ['m-1'],
      conflictsWith: [],
      reasons: ['newer_and_as_trusted:m-1'],
    });
    expect(result.events.map((e) => e.type)).toEqual(['MemorySuperseded', 'MemoryRecorded']);
    expect(result.events[0]!.data).toEqual({
      memoryId: 'm-1',
      supersededBy: 'm-2',
      validTo: T2,
      cause: 'newer_statement',
      supersededAt: T3,
    });
    expect(result.state.entries.get('m-1')).toMatchObject({ status: 'superseded', validTo: T2, supersededBy: 'm-2' });
    expect(activeIds(result.state)).toEqual(['m-2']);
    expect(result.state.inputEpoch).toBe(1);
  });

  it('the same validFrom counts as not earlier', () => {
    const { state } = run(initialState(), record('m-1', sealed({ value: text('email'), validFrom: T1 })));
    expect(decided(state, record('m-2', sealed({ validFrom: T1 }))).decision?.outcome).toBe('SUPERSEDES');
  });

  it('a more trusted source supersedes a less trusted one', () => {
    const { state } = run(initialState(), record('m-1', sealed({ value: text('email'), validFrom: T0, source: model })));
    expect(decided(state, record('m-2', sealed({ validFrom: T1, source: human }))).decision?.outcome).toBe('SUPERSEDES');
    expect(decided(state, record('m-2', sealed({ validFrom: T1, source: tool }))).decision?.outcome).toBe('SUPERSEDES');
  });

  it('follows the whole trust order: each level supersedes those below, never those above', () => {
    const order = [human, user(), tool, { type: 'derived_summary', refs: ['artifact://a-1'] }, model];
    for (let old = 0; old < order.length; old++) {
      const { state } = run(initialState(), record('m-1', sealed({ value: text('email'), validFrom: T0, source: order[old] })));
      for (let next = 0; next < order.length; next++) {
        const outcome = decided(state, record('m-2', sealed({ validFrom: T1, source: order[next] }))).decision?.outcome;
        expect(outcome, `${order[next]!.type} over ${order[old]!.type}`).toBe(next <= old ? 'SUPERSEDES' : 'CONFLICTS');
      }
    }
  });
});

describe('CONFLICTS', () => {
  it('a newer statement from a less trusted source: both stay active and a ConflictDetected follows in the same batch', () => {
    const { state } = run(initialState(), record('m-1', sealed({ value: text('email'), validFrom: T0, source: human })));
    const result = decided(state, record('m-2', sealed({ validFrom: T2 }), T2, 'c-7'));
    expect(result.decision).toEqual({
      outcome: 'CONFLICTS',
      memoryId: 'm-2',
      sequence: 2,
      supersedes: [],
      conflictsWith: ['m-1'],
      conflictId: 'c-7',
      reasons: ['less_trusted_than:m-1'],
    });
    expect(result.events.map((e) => e.type)).toEqual(['MemoryRecorded', 'ConflictDetected']);
    expect(result.events[1]!.data).toEqual({
      conflictId: 'c-7',
      key: 'notification.preference',
      scopes: {},
      memoryIds: ['m-1', 'm-2'],
      detectedAt: T2,
    });
    expect(activeIds(result.state)).toEqual(['m-1', 'm-2']);
    expect(result.state.openConflictIds).toEqual(['c-7']);
    expect(result.state.inputEpoch).toBe(1);
  });

  it('an equally trusted statement that claims an earlier start', () => {
    const { state } = run(initialState(), record('m-1', sealed({ value: text('email'), validFrom: T1 })));
    const result = decided(state, record('m-2', sealed({ validFrom: T0 })));
    expect(result.decision).toMatchObject({ outcome: 'CONFLICTS', reasons: ['older_than:m-1'] });
  });

  it('with several active entries, supersedes those it may and conflicts with the rest', () => {
    const { state } = runAll([
      record('m-1', sealed({ value: text('email'), validFrom: T0, source: human })),
      record('m-2', sealed({ value: text('phone'), validFrom: T1 }), T1, 'c-1'),
    ]);
    expect(state.openConflictIds).toEqual(['c-1']);
    const result = decided(state, record('m-3', sealed({ validFrom: T2 }), T2, 'c-2'));
    expect(result.decision).toEqual({
      outcome: 'CONFLICTS',
      memoryId: 'm-3',
      sequence: 3,
      supersedes: ['m-2'],
      conflictsWith: ['m-1'],
      conflictId: 'c-2',
      reasons: ['newer_and_as_trusted:m-2', 'less_trusted_than:m-1'],
    });
    expect(result.events.map((e) => e.type)).toEqual(['MemorySuperseded', 'MemoryRecorded', 'ConflictDetected']);
    expect(activeIds(result.state)).toEqual(['m-1', 'm-3']);
    // c-1 lost a member before anyone resolved it: moot, no longer open.
    expect(result.state.conflicts.get('c-1')?.status).toBe('moot');
    expect(result.state.openConflictIds).toEqual(['c-2']);
  });

  it('a statement that beats every active entry supersedes them all', () => {
    const { state } = runAll([
      record('m-1', sealed({ value: text('email'), validFrom: T0, source: human })),
      record('m-2', sealed({ value: text('phone'), validFrom: T1 }), T1, 'c-1'),
    ]);
    const result = decided(state, record('m-3', sealed({ validFrom: T2, source: { type: 'human_review', refs: ['review://r-2'] } })));
    expect(result.decision?.outcome).toBe('SUPERSEDES');
    expect(result.decision?.supersedes).toEqual(['m-1', 'm-2']);
    expect(result.state.conflicts.get('c-1')?.status).toBe('moot');
  });

  it('a duplicate of one side of an open conflict is a corroboration', () => {
    const { state } = runAll([
      record('m-1', sealed({ value: text('email'), validFrom: T0, source: human })),
      record('m-2', sealed({ value: text('phone'), validFrom: T1 }), T1, 'c-1'),
    ]);
    const result = decided(state, record('m-3', sealed({ value: text('email'), source: user('msg://thread-10/turn-1') })));
    expect(result.decision).toMatchObject({ outcome: 'DUPLICATE', memoryId: 'm-1' });
  });
});

describe('trust overrides and taint in write decisions', () => {
  it('a source demoted by TrustChanged no longer supersedes a statement of its former level', () => {
    const { state } = runAll([
      record('m-1', sealed({ value: text('email'), validFrom: T0 })),
      { type: 'ChangeTrust', sourceRef: 'msg://thread-10/turn-1', level: 'model_inference', now: T1 },
    ]);
    expect(decided(state, record('m-2', sealed({ validFrom: T2, source: user('msg://thread-10/turn-1') }))).decision?.outcome).toBe(
      'CONFLICTS',
    );
    expect(decided(state, record('m-2', sealed({ validFrom: T2, source: user('msg://thread-11/turn-1') }))).decision?.outcome).toBe(
      'SUPERSEDES',
    );
  });

  it('the trust recorded is the effective trust at the time', () => {
    const { state } = run(initialState(), { type: 'ChangeTrust', sourceRef: 'tool://crm', level: 'human_review', now: T0 });
    const result = decided(state, record('m-1', sealed({ source: tool })));
    expect(result.events[0]!.data).toMatchObject({ trust: 'human_review' });
  });

  it('a tainted source is untrusted: it supersedes nothing', () => {
    const { state } = runAll([
      record('m-1', sealed({ value: text('email'), validFrom: T0, source: model })),
      {
        type: 'EscalateTaintPolicy',
        refPatterns: ['msg://thread-66/*'],
        sourceTypes: [],
        reason: 'prompt injection in thread 66',
        now: T1,
      },
    ]);
    const result = decided(state, record('m-2', sealed({ validFrom: T2, source: user('msg://thread-66/turn-3') })));
    expect(result.decision?.outcome).toBe('CONFLICTS');
    expect(result.events[0]!.data).toMatchObject({ trust: 'untrusted' });
  });
});

describe('RecordMemory rejections', () => {
  it('refuses a memoryId that exists, naming it', () => {
    const { state } = run(initialState(), record('m-1', sealed()));
    expect(decide(state, record('m-1', sealed({ value: text('email') })))).toMatchObject({
      ok: false,
      rejection: { code: 'memory_id_taken', field: 'memoryId' },
    });
  });

  it('refuses a validTo not after the defaulted validFrom', () => {
    expect(decide(initialState(), record('m-1', sealed({ validTo: T1 }), T2))).toMatchObject({
      ok: false,
      rejection: { code: 'valid_time_order', field: 'entry.validTo' },
    });
  });

  it('refuses a conflict id that exists when a conflict must be recorded', () => {
    const { state } = runAll([
      record('m-1', sealed({ value: text('email'), validFrom: T0, source: human })),
      record('m-2', sealed({ value: text('phone'), validFrom: T1 }), T1, 'c-1'),
    ]);
    expect(decide(state, record('m-3', sealed({ value: text('fax'), validFrom: T0 }), T2, 'c-1'))).toMatchObject({
      ok: false,
      rejection: { code: 'conflict_id_taken' },
    });
  });

  it('is deterministic: the same state and command give the same result', () => {
    const { state } = runAll([
      record('m-1', sealed({ value: text('email'), validFrom: T0, source: human })),
      record('m-2', sealed({ value: text('phone'), validFrom: T1 }), T1, 'c-1'),
    ]);
    const command = record('m-3', sealed({ validFrom: T2 }), T2, 'c-2');
    expect(decide(state, command)).toEqual(decide(state, command));
  });
});

describe('SupersedeMemory (explicit)', () => {
  const email = () => record('m-1', sealed({ value: text('email'), validFrom: T0, source: human }));

  it('replaces the named entry even from a less trusted source', () => {
    const { state } = run(initialState(), email());
    const result = decided(state, {
      type: 'SupersedeMemory',
      memoryId: 'm-1',
      newMemoryId: 'm-2',
      conflictId: 'c-1',
      entry: sealed({ validFrom: T2 }),
      now: T2,
    });
    expect(result.decision).toEqual({
      outcome: 'SUPERSEDES',
      memoryId: 'm-2',
      sequence: 2,
      supersedes: ['m-1'],
      conflictsWith: [],
      reasons: ['named_by_caller:m-1'],
    });
    expect(result.events[0]!.data).toMatchObject({ memoryId: 'm-1', supersededBy: 'm-2', validTo: T2, cause: 'explicit' });
    expect(activeIds(result.state)).toEqual(['m-2']);
  });

  it('records a conflict with another disagreeing active entry instead of superseding it', () => {
    const { state } = runAll([email(), record('m-2', sealed({ value: text('phone'), validFrom: T1 }), T1, 'c-1')]);
    const result = decided(state, {
      type: 'SupersedeMemory',
      memoryId: 'm-2',
      newMemoryId: 'm-3',
      conflictId: 'c-2',
      entry: sealed({ validFrom: T2 }),
      now: T2,
    });
    expect(result.decision).toMatchObject({ outcome: 'CONFLICTS', supersedes: ['m-2'], conflictsWith: ['m-1'], conflictId: 'c-2' });
  });

  it.each([
    ['an unknown memory', { memoryId: 'm-9' }, 'memory_not_found', 'memoryId'],
    ['another key', { entry: sealed({ key: 'contact.phone', validFrom: T2 }) }, 'slot_mismatch', 'entry.key'],
    ['other scopes', { entry: sealed({ scopes: { project: 'x' }, validFrom: T2 }) }, 'slot_mismatch', 'entry.scopes'],
    ['an earlier validFrom', { entry: sealed({ validFrom: '2026-06-01T00:00:00Z' }) }, 'valid_time_order', 'entry.validFrom'],
    ['a taken new id', { newMemoryId: 'm-1' }, 'memory_id_taken', 'newMemoryId'],
  ])('refuses %s', (_name, patch, code, field) => {
    const { state } = run(initialState(), email());
    const command = {
      type: 'SupersedeMemory' as const,
      memoryId: 'm-1',
      newMemoryId: 'm-2',
      conflictId: 'c-1',
      entry: sealed({ validFrom: T2 }),
      now: T2,
      ...patch,
    };
    expect(decide(state, command)).toMatchObject({ ok: false, rejection: { code, field } });
  });

  it('refuses an entry that is no longer active', () => {
    const { state } = runAll([email(), { type: 'RetractMemory', memoryId: 'm-1', reason: 'wrong', now: T1 }]);
    expect(
      decide(state, { type: 'SupersedeMemory', memoryId: 'm-1', newMemoryId: 'm-2', conflictId: 'c-1', entry: sealed(), now: T2 }),
    ).toMatchObject({
      ok: false,
      rejection: { code: 'memory_not_active', field: 'memoryId' },
    });
  });
});
