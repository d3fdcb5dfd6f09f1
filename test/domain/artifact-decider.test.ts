import { describe, expect, it } from 'vitest';
import type { ArtifactCommand } from '../../src/domain/artifact/commands.js';
import { artifactDecider } from '../../src/domain/artifact/decider.js';
import type { ArtifactState } from '../../src/domain/artifact/state.js';
import { encodeEvent } from '../../src/domain/events/decode.js';
import type { ArtifactEvent } from '../../src/domain/events/artifact-events.js';
import type { Manifest } from '../../src/domain/events/manifest.js';
import { T0, T1, T2 } from './fixtures.js';
import { legacyRecordOf } from '../support/legacy-record.js';

const { initialState, evolve, decide } = artifactDecider;

const manifest: Manifest = {
  artifactId: 'a-1',
  tenant: 'acme',
  subject: 'user-1',
  newCoversThrough: 2,
  inputEpoch: 0,
  expectedAlias: null,
  inputs: [{ memoryId: 'm-1', sequence: 1, valueHash: 'a'.repeat(64) }],
  inputRoot: '0'.repeat(64),
  conflictIds: [],
  parentArtifactId: null,
  selectorVersion: 'selector-1',
  promptVersion: 'prompt-1',
  modelSnapshot: 'deterministic-1',
};
const output = { alg: 'A256GCM' as const, keyId: 'ak_1', iv: 'AAAAAAAAAAAAAAAA', ct: 'AAAA' };
const recordArtifact = (passed: boolean, now = T0): ArtifactCommand => ({
  type: 'RecordArtifact',
  artifactId: 'a-1',
  manifest,
  output,
  outputHash: 'b'.repeat(64),
  record: legacyRecordOf(manifest),
  gate: passed
    ? { passed: true, mustPreserveCount: 1 }
    : { passed: false, reasons: [{ code: 'missing_fact', message: 'x'.repeat(1500), memoryId: 'm-1' }] },
  now,
});
const approve = (extra: Partial<ArtifactCommand & { type: 'ApproveArtifact' }> = {}): ArtifactCommand => ({
  type: 'ApproveArtifact',
  artifactId: 'a-1',
  tenant: 'acme',
  approvedBy: 'reviewer',
  now: T1,
  ...extra,
});
const reject = (reason: 'epoch_changed' | 'alias_changed', now = T1): ArtifactCommand => ({
  type: 'RejectSwitch',
  artifactId: 'a-1',
  reason,
  message: `${reason}!`,
  now,
});

/** Decides, checks every event against its schema, and folds. */
function run(state: ArtifactState, command: ArtifactCommand): { state: ArtifactState; events: readonly ArtifactEvent[] } {
  const decided = decide(state, command);
  if (!decided.ok) throw new Error(`rejected: ${decided.rejection.code}`);
  for (const event of decided.events) encodeEvent(event);
  return { state: decided.events.reduce(evolve, state), events: decided.events };
}

describe('the artifact decider', () => {
  it('writes an artifact once: the generation and its verdict, then nothing for a second writer', () => {
    const { state, events } = run(initialState(), recordArtifact(true));
    expect(events.map((e) => e.type)).toEqual(['ArtifactGenerated', 'GatePassed']);
    expect(events[1]!.data).toEqual({ artifactId: 'a-1', mustPreserveCount: 1, checkedAt: T0 });
    expect(state.generated?.manifest).toEqual(manifest);
    expect(run(state, recordArtifact(false, T1)).events).toEqual([]);
    expect(
      run(state, { type: 'RecordGenerationFailure', artifactId: 'a-1', manifest, error: { code: 'timeout', message: 'x' }, now: T1 })
        .events,
    ).toEqual([]);
  });

  it('records a failed gate with its reasons clipped to what the event stores', () => {
    const { events } = run(initialState(), recordArtifact(false));
    expect(events.map((e) => e.type)).toEqual(['ArtifactGenerated', 'GateFailed']);
    const failed = events[1]!;
    if (failed.type !== 'GateFailed') throw new Error('expected GateFailed');
    expect(failed.data.reasons[0]!.message).toHaveLength(1000);
  });

  it('records a failed generation, after which the stream takes no artifact', () => {
    const { state, events } = run(initialState(), {
      type: 'RecordGenerationFailure',
      artifactId: 'a-1',
      manifest,
      error: { code: 'timeout', message: 'the model did not answer' },
      now: T0,
    });
    expect(events).toEqual([
      {
        type: 'GenerationFailed',
        data: { artifactId: 'a-1', manifest, error: { code: 'timeout', message: 'the model did not answer' }, failedAt: T0 },
      },
    ]);
    expect(run(state, recordArtifact(true, T1)).events).toEqual([]);
    expect(decide(state, approve())).toMatchObject({ ok: false, rejection: { code: 'generation_failed', field: 'artifact' } });
  });

  it('keeps the first rejection; refuses to reject what was never generated', () => {
    expect(decide(initialState(), reject('epoch_changed'))).toMatchObject({ ok: false, rejection: { code: 'artifact_not_found' } });
    const generated = run(initialState(), recordArtifact(true)).state;
    const first = run(generated, reject('epoch_changed'));
    expect(first.events).toEqual([
      { type: 'ConsolidationRejected', data: { artifactId: 'a-1', reason: 'epoch_changed', message: 'epoch_changed!', rejectedAt: T1 } },
    ]);
    expect(run(first.state, reject('alias_changed', T2)).events).toEqual([]);
    expect(
      evolve(first.state, {
        type: 'ConsolidationRejected',
        data: { artifactId: 'a-1', reason: 'alias_changed', message: 'm', rejectedAt: T2 },
      }).rejected?.reason,
    ).toBe('epoch_changed');
  });

  it('approves a gated artifact of the caller once, and nothing that is not publishable', () => {
    expect(decide(initialState(), approve())).toMatchObject({ ok: false, rejection: { code: 'artifact_not_found' } });
    const failedGate = run(initialState(), recordArtifact(false)).state;
    expect(decide(failedGate, approve())).toMatchObject({ ok: false, rejection: { code: 'gate_failed' } });
    const gated = run(initialState(), recordArtifact(true)).state;
    expect(decide(gated, approve({ tenant: 'other' }))).toMatchObject({ ok: false, rejection: { code: 'artifact_not_found' } });
    expect(decide(gated, approve({ subject: 'user-2' }))).toMatchObject({ ok: false, rejection: { code: 'artifact_not_found' } });
    const approved = run(gated, approve());
    expect(approved.events).toEqual([{ type: 'ArtifactApproved', data: { artifactId: 'a-1', approvedBy: 'reviewer', approvedAt: T1 } }]);
    expect(run(approved.state, approve({ now: T2 })).events).toEqual([]);
    expect(run(run(gated, reject('epoch_changed')).state, approve()).events).toEqual([]);
  });
});
