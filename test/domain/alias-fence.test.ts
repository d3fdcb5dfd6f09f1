import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/domain/events/manifest.js';
import { decide } from '../../src/domain/subject/decide.js';
import type { SubjectState } from '../../src/domain/subject/state.js';
import { record, run, runAll, sealed, T0, T1, T2, T3 } from './fixtures.js';

const text = (t: string) => ({ type: 'text', text: t });

function snapshotState() {
  return runAll([
    record('m-1', sealed({ validFrom: T0 }), T0),
    record('m-2', sealed({ key: 'order.status', kind: 'episodic', value: text('shipped'), content: 'Order shipped.' }), T0),
  ]).state;
}

function manifestOf(state: SubjectState, artifactId: string, patch: Partial<Manifest> = {}): Manifest {
  const inputs = [...state.entries.values()]
    .filter((e) => e.status === 'active')
    .sort((a, b) => a.sequence - b.sequence)
    .map((e) => ({
      memoryId: e.memoryId,
      sequence: e.sequence,
      valueHash: e.valueHash,
      ...(e.contentHash ? { contentHash: e.contentHash } : {}),
    }));
  return {
    artifactId,
    tenant: 'acme',
    subject: 'user-1',
    newCoversThrough: state.highWaterMark,
    inputEpoch: state.inputEpoch,
    expectedAlias: state.alias,
    inputs,
    inputRoot: '0'.repeat(64),
    conflictIds: [...state.openConflictIds],
    parentArtifactId: null,
    selectorVersion: 'selector-1',
    promptVersion: 'prompt-1',
    modelSnapshot: 'deterministic-1',
    ...patch,
  };
}

const switchTo = (manifest: Manifest, now = T2) => ({ type: 'SwitchSummaryAlias' as const, manifest, now });

describe('SwitchSummaryAlias', () => {
  it('switches when nothing changed since the snapshot', () => {
    const state = snapshotState();
    const { state: next, events } = run(state, switchTo(manifestOf(state, 'a-1')));
    expect(events).toEqual([
      { type: 'SummaryAliasSwitched', data: { artifactId: 'a-1', sourceEpoch: 0, coversThrough: 2, previous: null, switchedAt: T2 } },
    ]);
    expect(next.alias).toEqual({ artifactId: 'a-1', sourceEpoch: 0, coversThrough: 2 });
  });

  it('tail appends and corroborations do not block the switch', () => {
    const state = snapshotState();
    const manifest = manifestOf(state, 'a-1');
    const { state: later } = runAll(
      [
        record('m-3', sealed({ key: 'profile.language', value: text('zh-CN') })),
        record('m-4', sealed({ source: { type: 'human_review', refs: [] } })),
      ],
      state,
    );
    expect(later.entries.get('m-1')?.corroborations).toBe(1);
    expect(decide(later, switchTo(manifest)).ok).toBe(true);
  });

  it('a retraction between gate and switch blocks it (epoch_changed)', () => {
    const state = snapshotState();
    const manifest = manifestOf(state, 'a-1');
    const { state: later } = run(state, { type: 'RetractMemory', memoryId: 'm-2', reason: 'not shipped after all', now: T1 });
    expect(decide(later, switchTo(manifest))).toMatchObject({
      ok: false,
      rejection: { code: 'epoch_changed', field: 'manifest.inputEpoch' },
    });
  });

  it('an older consolidation that finishes after a newer one is refused (alias_changed)', () => {
    const state = snapshotState();
    const older = manifestOf(state, 'a-1');
    const newer = manifestOf(state, 'a-2');
    const { state: switched } = run(state, switchTo(newer));
    expect(decide(switched, switchTo(older, T3))).toMatchObject({
      ok: false,
      rejection: { code: 'alias_changed', field: 'manifest.expectedAlias' },
    });
  });

  it('refuses an input that is no longer active or whose hash differs', () => {
    const state = snapshotState();
    const { state: later } = run(state, { type: 'RetractMemory', memoryId: 'm-2', reason: 'wrong', now: T1 });
    const stale = manifestOf(state, 'a-1', { inputEpoch: later.inputEpoch });
    expect(decide(later, switchTo(stale))).toMatchObject({ ok: false, rejection: { code: 'input_not_active' } });
    const base = manifestOf(state, 'a-1');
    const wrongHash = { ...base, inputs: base.inputs.map((i) => (i.memoryId === 'm-1' ? { ...i, valueHash: 'f'.repeat(64) } : i)) };
    expect(decide(state, switchTo(wrongHash))).toMatchObject({ ok: false, rejection: { code: 'input_hash_changed' } });
    const wrongContent = { ...base, inputs: base.inputs.map((i) => (i.memoryId === 'm-2' ? { ...i, contentHash: 'e'.repeat(64) } : i)) };
    expect(decide(state, switchTo(wrongContent))).toMatchObject({ ok: false, rejection: { code: 'input_hash_changed' } });
    const unknown = { ...base, inputs: [...base.inputs, { memoryId: 'm-404', sequence: 9, valueHash: 'a'.repeat(64) }] };
    expect(decide(state, switchTo(unknown))).toMatchObject({ ok: false, rejection: { code: 'input_not_active' } });
  });

  it('refuses when the open conflicts differ from those the artifact was built with (new_conflict)', () => {
    const state = runAll([
      record('m-1', sealed({ value: text('email'), validFrom: T0, source: { type: 'human_review', refs: [] } })),
      record('m-2', sealed({ validFrom: T1 }), T1, 'c-1'),
    ]).state;
    expect(state.openConflictIds).toEqual(['c-1']);
    expect(decide(state, switchTo(manifestOf(state, 'a-1'))).ok).toBe(true);
    expect(decide(state, switchTo(manifestOf(state, 'a-1', { conflictIds: [] })))).toMatchObject({
      ok: false,
      rejection: { code: 'new_conflict', field: 'manifest.conflictIds' },
    });
  });

  it('never lowers coverage, and never covers beyond H', () => {
    const state = snapshotState();
    const { state: switched } = run(state, switchTo(manifestOf(state, 'a-1')));
    expect(decide(switched, switchTo(manifestOf(switched, 'a-2', { newCoversThrough: 1 })))).toMatchObject({
      ok: false,
      rejection: { code: 'coverage_regressed' },
    });
    expect(decide(switched, switchTo(manifestOf(switched, 'a-2', { newCoversThrough: 2 }))).ok).toBe(true);
    expect(decide(switched, switchTo(manifestOf(switched, 'a-2', { newCoversThrough: 3 })))).toMatchObject({
      ok: false,
      rejection: { code: 'coverage_beyond_head' },
    });
    const second = decide(switched, switchTo(manifestOf(switched, 'a-2')));
    expect(second.ok && second.events[0]!.data).toMatchObject({ previous: { artifactId: 'a-1', sourceEpoch: 0, coversThrough: 2 } });
  });

  it('refuses after the subject was forgotten', () => {
    const state = snapshotState();
    const manifest = manifestOf(state, 'a-1');
    const { state: gone } = run(state, {
      type: 'ForgetSubject',
      receiptId: 'r-1',
      destroyedKeyIds: [],
      invalidatedArtifactIds: [],
      now: T1,
    });
    expect(decide(gone, switchTo(manifest))).toMatchObject({ ok: false, rejection: { code: 'subject_forgotten' } });
  });
});
