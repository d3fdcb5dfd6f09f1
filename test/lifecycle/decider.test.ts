import { describe, expect, it } from 'vitest';
import { decide } from '../../src/domain/subject/decide.js';
import { fold } from '../../src/domain/subject/evolve.js';
import { activeEntriesInSlot } from '../../src/domain/subject/state.js';
import { fromStateSnapshot, toStateSnapshot } from '../../src/domain/subject/state-snapshot.js';
import { slotOf } from '../../src/domain/entry/scopes.js';
import { record, run, runAll, sealed, T0, T1, T2, T3 } from '../domain/fixtures.js';

const text = (t: string) => ({ type: 'text', text: t });

function twoMemories() {
  return runAll([
    record('m-1', sealed({ key: 'trip.city', kind: 'episodic', value: text('Lisbon') }), T0),
    record('m-2', sealed({ key: 'trip.hotel', kind: 'episodic', value: text('Ritz') }), T0),
  ]);
}

const demotion = (memoryId: string) => ({
  memoryId,
  reason: 'unreinforced' as const,
  rule: 'demotion.unreinforcedFor.episodic',
  lastReinforcedAt: T0,
});

describe('SweepLifecycle on the subject stream', () => {
  it('demotes and archives what the plan names, under its policy version, and passes over what moved on', () => {
    const { state } = twoMemories();
    const { state: after, events } = run(state, {
      type: 'SweepLifecycle',
      policyVersion: 3,
      demotions: [demotion('m-1'), demotion('m-2'), demotion('m-9')],
      archivals: [{ memoryId: 'm-2', rule: 'capacity.episodic', value: 0.1 }],
      now: T1,
    });
    expect(events).toEqual([
      {
        type: 'MemoryArchived',
        data: { memoryId: 'm-2', reason: 'capacity', rule: 'capacity.episodic', policyVersion: 3, value: 0.1, archivedAt: T1 },
      },
      {
        type: 'MemoryDemoted',
        data: {
          memoryId: 'm-1',
          reason: 'unreinforced',
          rule: 'demotion.unreinforcedFor.episodic',
          policyVersion: 3,
          lastReinforcedAt: T0,
          demotedAt: T1,
        },
      },
    ]);
    expect(after.entries.get('m-1')).toMatchObject({
      status: 'active',
      demotion: { reason: 'unreinforced', policyVersion: 3, demotedAt: T1 },
    });
    expect(after.entries.get('m-2')?.status).toBe('archived');
    expect(activeEntriesInSlot(after, slotOf('trip.hotel', {}))).toEqual([]);
    // The same sweep again changes nothing.
    const again = decide(after, { type: 'SweepLifecycle', policyVersion: 3, demotions: [demotion('m-1')], archivals: [], now: T2 });
    expect(again.ok && again.events).toEqual([]);
    // The demotion survives a snapshot.
    expect(fromStateSnapshot(toStateSnapshot(after))?.entries.get('m-1')).toEqual(after.entries.get('m-1'));
  });

  it('writing the same statement again corroborates and restores a demoted memory; a reviewer can restore it', () => {
    const { state, events } = twoMemories();
    const demoted = run(state, { type: 'SweepLifecycle', policyVersion: 0, demotions: [demotion('m-1')], archivals: [], now: T1 });
    const rewritten = run(demoted.state, record('m-3', sealed({ key: 'trip.city', kind: 'episodic', value: text('Lisbon') }), T2));
    expect(rewritten.events.map((e) => e.type)).toEqual(['MemoryCorroborated', 'MemoryRestored']);
    expect(rewritten.events[1]).toEqual({ type: 'MemoryRestored', data: { memoryId: 'm-1', reason: 'rewritten', restoredAt: T2 } });
    expect(rewritten.state.entries.get('m-1')?.demotion).toBeUndefined();

    const restored = run(demoted.state, { type: 'RestoreMemory', memoryId: 'm-1', note: 'still true', now: T3 });
    expect(restored.events).toEqual([
      { type: 'MemoryRestored', data: { memoryId: 'm-1', reason: 'restored', note: 'still true', restoredAt: T3 } },
    ]);
    const refused = decide(restored.state, { type: 'RestoreMemory', memoryId: 'm-1', now: T3 });
    expect(!refused.ok && refused.rejection.code).toBe('memory_not_demoted');
    const unknown = decide(restored.state, { type: 'RestoreMemory', memoryId: 'm-7', now: T3 });
    expect(!unknown.ok && unknown.rejection.code).toBe('memory_not_found');
    // Folding the log gives the same state as deciding step by step.
    expect(toStateSnapshot(fold([...events, ...demoted.events, ...restored.events]))).toEqual(toStateSnapshot(restored.state));
  });

  it('a new value for a demoted memory supersedes it as for any active one', () => {
    const { state } = runAll([record('p-1', sealed({ value: text('email') }), T0)]);
    const demoted = run(state, { type: 'SweepLifecycle', policyVersion: 0, demotions: [demotion('p-1')], archivals: [], now: T1 });
    const next = run(demoted.state, record('p-2', sealed({ value: text('sms'), validFrom: T2 }), T2));
    expect(next.events.map((e) => e.type)).toEqual(['MemorySuperseded', 'MemoryRecorded']);
    expect(next.state.entries.get('p-1')?.status).toBe('superseded');
  });
});
