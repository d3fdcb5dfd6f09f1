// The one way an artifact becomes readable: the alias points at it, its
// sourceEpoch equals the subject's inputEpoch and it is not STALE. Otherwise
// readers fall back to raw entries (seed 000: "检索要求 alias epoch 等于 clock；
// 变更后摘要未重建时回退原始检索"). Prepared, gated or rejected artifacts
// are never returned here.
import type { SummarizerOutput } from '../../domain/consolidation/output.js';
import { artifactStaleness } from '../../domain/consolidation/staleness.js';
import type { AliasTuple } from '../../domain/events/alias.js';
import { subjectStreamName } from '../../domain/events/stream-names.js';
import type { SubjectRef } from '../../infrastructure/key-store/port.js';
import type { Ledger } from '../ledger.js';
import { openOutput } from '../../reads/opened/artifact-output.js';
import { readArtifact } from '../../reads/streams/artifact-stream.js';

export type ReadableSummary =
  | { readonly status: 'summary'; readonly alias: AliasTuple; readonly output: SummarizerOutput }
  | { readonly status: 'raw'; readonly reason: 'no_alias' | 'behind_epoch' | 'stale' | 'unreadable'; readonly alias: AliasTuple | null };

export async function readableSummary(ledger: Ledger, ref: SubjectRef): Promise<ReadableSummary> {
  const state = (await ledger.subjects.load(subjectStreamName(ref.tenant, ref.subject))).state;
  const alias = state.alias;
  if (!alias) return { status: 'raw', reason: 'no_alias', alias };
  if (alias.sourceEpoch !== state.inputEpoch) return { status: 'raw', reason: 'behind_epoch', alias };
  const record = await readArtifact(ledger.eventStore, alias.artifactId);
  if (!record.generated || !record.gatePassed) return { status: 'raw', reason: 'unreadable', alias };
  if (artifactStaleness(record.generated.manifest, state).stale) return { status: 'raw', reason: 'stale', alias };
  const output = await openOutput(ledger.keyStore, ref, alias.artifactId, record.generated.output);
  return output ? { status: 'summary', alias, output } : { status: 'raw', reason: 'unreadable', alias };
}
