// Phase 2, publish: reload the subject stream (revision R'), decide the
// switch again against the manifest — inputEpoch unchanged, alias tuple as
// expected, every input still active with the same hashes, no new conflict,
// coverage not decreasing, gate passed — and append SummaryAliasSwitched
// with expected revision R'. On WrongExpectedVersion the command loop reloads
// and decides again (tail appends alone do not block a switch). A failed
// fence appends ConsolidationRejected to the artifact stream; the alias stays.
// No SQL compare-and-set anywhere: the stream revision is the fence.
import { publishable } from '../../domain/artifact/publishable.js';
import type { AliasTuple, FenceFailure } from '../../domain/events/alias.js';
import { subjectStreamName } from '../../domain/events/stream-names.js';
import { decodeStoredEvent } from '../../domain/events/decode.js';
import { requireId } from '../../domain/values/ids.js';
import type { Ledger } from '../ledger.js';
import { executeSubjectCommand } from '../subject/execute.js';
import { readArtifact } from '../../reads/streams/artifact-stream.js';
import { placedEvent } from '../../reads/streams/placed-event.js';
import { switchedPlace } from '../../reads/streams/subject-repository.js';
import { executeArtifactCommand } from './artifact-stream.js';
import type { Result } from '../../domain/result/result.js';
import type { ConsolidationServices } from './services.js';

export interface ArtifactContext {
  readonly tenant: string;
  /** When given, the artifact must belong to this subject. */
  readonly subject?: string;
  readonly actor?: string;
  readonly correlationId?: string;
}

export type PublishResult =
  | {
      readonly status: 'switched';
      readonly artifactId: string;
      readonly alias: AliasTuple;
      readonly previous: AliasTuple | null;
      readonly revision: number;
      readonly replayed: boolean;
    }
  | {
      readonly status: 'rejected';
      readonly artifactId: string;
      readonly reason: FenceFailure;
      readonly message: string;
      readonly replayed: boolean;
    }
  | { readonly status: 'awaiting_approval'; readonly artifactId: string };

export async function publishArtifact(
  ledger: Ledger,
  services: ConsolidationServices,
  context: ArtifactContext,
  artifactIdInput: string,
): Promise<Result<PublishResult>> {
  const artifactId = requireId('artifact', artifactIdInput);
  const record = await readArtifact(ledger.eventStore, artifactId);
  const checked = publishable(artifactId, record, context);
  if (!checked.ok) return checked;
  const manifest = checked.result;
  if (record.rejected)
    return {
      ok: true,
      result: { status: 'rejected', artifactId, reason: record.rejected.reason, message: record.rejected.message, replayed: true },
    };
  if (services.shadowMode(manifest.tenant) && !record.approved) return { ok: true, result: { status: 'awaiting_approval', artifactId } };

  const stream = subjectStreamName(manifest.tenant, manifest.subject);
  const origin = {
    ...(context.actor ? { actor: context.actor } : {}),
    ...(context.correlationId ? { correlationId: context.correlationId } : {}),
  };
  const outcome = await executeSubjectCommand(ledger, { stream, commandId: `publish:${artifactId}`, ...origin }, (_loaded, now) => ({
    type: 'SwitchSummaryAlias',
    manifest,
    now,
  }));
  if (outcome.ok) {
    const switched = outcome.result.events.find((e) => e.event.type === 'SummaryAliasSwitched');
    if (!switched || switched.event.type !== 'SummaryAliasSwitched')
      throw new Error(`publishing ${artifactId} appended no SummaryAliasSwitched`);
    const { data } = switched.event;
    return {
      ok: true,
      result: {
        status: 'switched',
        artifactId,
        alias: { artifactId, sourceEpoch: data.sourceEpoch, coversThrough: data.coversThrough },
        previous: data.previous,
        revision: switched.stored.streamRevision,
        replayed: outcome.result.replayed,
      },
    };
  }
  const reason = outcome.rejection.code as FenceFailure;
  // Beyond the command window a repeated publish is decided afresh: if it switched long ago, say so rather than reject it.
  if (reason === 'alias_changed' || reason === 'coverage_regressed') {
    const earlier = await earlierSwitch(ledger, stream, artifactId);
    if (earlier) return { ok: true, result: { status: 'switched', artifactId, ...earlier, replayed: true } };
  }
  const recorded = await executeArtifactCommand(ledger, { artifactId, commandId: `reject:${artifactId}`, ...origin }, (now) => ({
    type: 'RejectSwitch',
    artifactId,
    reason,
    message: outcome.rejection.message,
    now,
  }));
  if (!recorded.ok) return recorded;
  // The first rejection stands: another publisher may have recorded its own reason first.
  const rejected = recorded.result.state.rejected;
  if (!rejected) throw new Error(`rejecting ${artifactId} recorded no ConsolidationRejected`);
  return { ok: true, result: { status: 'rejected', artifactId, reason: rejected.reason, message: rejected.message, replayed: false } };
}

/**
 * This artifact's SummaryAliasSwitched, when the subject's fold saw one: read
 * alone at the place the fold keeps (LoadedStream.places), where every
 * fenced-out publish used to read the whole subject stream for it.
 */
async function earlierSwitch(
  ledger: Ledger,
  stream: string,
  artifactId: string,
): Promise<{ alias: AliasTuple; previous: AliasTuple | null; revision: number } | undefined> {
  const stored = await placedEvent(ledger.eventStore, await ledger.subjects.load(stream), switchedPlace(artifactId));
  if (!stored) return undefined;
  const event = decodeStoredEvent(stored);
  if (event.type !== 'SummaryAliasSwitched' || event.data.artifactId !== artifactId) return undefined;
  return {
    alias: { artifactId, sourceEpoch: event.data.sourceEpoch, coversThrough: event.data.coversThrough },
    previous: event.data.previous,
    revision: stored.streamRevision,
  };
}
