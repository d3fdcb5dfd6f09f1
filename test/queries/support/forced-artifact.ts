// A seeded fault: an artifact whose output (or compaction record) the test
// alters after generation and marks as gated anyway (GatePassed without the
// gate), then publishes through the real fenced switch. The loss gate never
// saw it.
import { sealOutput } from '../../../src/commands/consolidation/artifact-output.js';
import { executeArtifactCommand } from '../../../src/commands/consolidation/artifact-stream.js';
import { openEntries } from '../../../src/reads/opened/opened-entries.js';
import { publishArtifact } from '../../../src/commands/consolidation/publish.js';
import type { ConsolidationServices } from '../../../src/commands/consolidation/services.js';
import type { CommandContext, Ledger } from '../../../src/commands/ledger.js';
import { summarizeDeterministically } from '../../../src/domain/consolidation/deterministic-summary.js';
import type { SummarizerOutput } from '../../../src/domain/consolidation/output.js';
import { selectEntries } from '../../../src/domain/consolidation/selector.js';
import { compactionRecordOf, takeSnapshot, type ConsolidationSnapshot } from '../../../src/domain/consolidation/snapshot.js';
import type { CompactionRecord } from '../../../src/domain/compaction/record.js';
import { subjectStreamName } from '../../../src/domain/events/stream-names.js';

/** The subject's snapshot now, from raw entries, as a forced artifact's `attempt`. */
export async function snapshotNow(
  ledger: Ledger,
  services: ConsolidationServices,
  context: CommandContext,
  attempt = 77,
): Promise<ConsolidationSnapshot> {
  const stream = subjectStreamName(context.tenant, context.subject);
  const loaded = await ledger.subjects.load(stream);
  const now = ledger.clock().toISOString();
  const ids = new Set(selectEntries(loaded.state, { now }).entries.map((e) => e.memoryId));
  const open = await openEntries(ledger.eventStore, ledger.keyStore, context, stream, loaded.revision, ids);
  return takeSnapshot(loaded.state, open, {
    tenant: context.tenant,
    subject: context.subject,
    now,
    tokenBudget: services.tokenBudget,
    countTokens: services.countTokens,
    promptVersion: services.summarizer.promptVersion,
    modelSnapshot: services.summarizer.modelSnapshot,
    fromRaw: true,
    attempt,
  });
}

export async function forceArtifact(
  ledger: Ledger,
  services: ConsolidationServices,
  context: CommandContext,
  tamper: (output: SummarizerOutput) => SummarizerOutput,
  publish = true,
  tamperRecord: (record: CompactionRecord) => CompactionRecord = (r) => r,
  attempt = 77,
): Promise<string> {
  const snapshot = await snapshotNow(ledger, services, context, attempt);
  const artifactId = snapshot.manifest.artifactId;
  const output = tamper(summarizeDeterministically({ inputs: snapshot.hot, conflicts: snapshot.conflicts }));
  const gate = { passed: true as const, mustPreserveCount: snapshot.mustPreserve.length };
  const built = compactionRecordOf(snapshot, output, gate);
  const sealed = await sealOutput(ledger.keyStore, context, artifactId, output, undefined, built.statements);
  if (sealed.status !== 'sealed') throw new Error('the subject was forgotten');
  const recorded = await executeArtifactCommand(ledger, { artifactId, commandId: `forced:${artifactId}` }, (at) => ({
    type: 'RecordArtifact',
    artifactId,
    manifest: snapshot.manifest,
    output: sealed.output,
    outputHash: sealed.outputHash,
    record: tamperRecord(built.record),
    ...(sealed.statements ? { statements: sealed.statements } : {}),
    gate,
    now: at,
  }));
  if (!recorded.ok || recorded.result.events.length !== 2)
    throw new Error(`the forced artifact was not written: ${JSON.stringify(recorded)}`);
  if (publish) {
    const published = await publishArtifact(ledger, services, { tenant: context.tenant }, artifactId);
    if (!published.ok || published.result.status !== 'switched')
      throw new Error(`the forced artifact was not published: ${JSON.stringify(published)}`);
  }
  return artifactId;
}
