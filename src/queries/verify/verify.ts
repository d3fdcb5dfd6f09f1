// verify, the daily evaluation: for a sample of a tenant's subjects, rebuild
// the summary from the raw layer (in memory; nothing is written) and measure
// it, measure the summary recall actually serves against the raw entries it
// covers, and judge — from the event log, not from the projection recall
// read — whether what recall served was STALE. It fails (the CLI exits 3)
// on any loss — a key fact or a fact of the words not recalled, a conflict
// dropped — when any summary states a false new fact, or when any STALE
// artifact is visible.
import { createHash } from 'node:crypto';
import { openOutput } from '../../reads/opened/artifact-output.js';
import { readArtifact } from '../../reads/streams/artifact-stream.js';
import { openEntries } from '../../reads/opened/opened-entries.js';
import { toInput, type ConflictRef } from '../../domain/consolidation/input.js';
import { extractMustPreserve } from '../../domain/consolidation/must-preserve.js';
import { selectEntries } from '../../domain/consolidation/selector.js';
import { generationRequest, takeSnapshot } from '../../domain/consolidation/snapshot.js';
import { subjectStreamName } from '../../domain/events/stream-names.js';
import type { CountTokens } from '../../domain/consolidation/cold-tier.js';
import type { Summarizer } from '../../infrastructure/summarizer/port.js';
import { openConflicts } from '../../domain/subject/state.js';
import { InvalidInput } from '../../domain/validation/invalid-input.js';
import { requireId } from '../../domain/values/ids.js';
import { parseInstant } from '../../domain/values/instant.js';
import { readMemoryTables } from '../memory-tables.js';
import type { ReadSide } from '../read-side.js';
import { SubjectProjectionFaulted } from '../projection-faulted.js';
import { composeRecall } from '../recall/recall.js';
import { requireRecallInput } from '../recall/request.js';
import { measureSummary, type SummaryMetrics } from './summary-metrics.js';
import { aggregate, lossesOf, metricFindings, type VerifyFinding, type VerifyReport } from './verify-report.js';
import { foldThrough, staleCause } from './served-staleness.js';

export const DEFAULT_SAMPLE = 20;
export const MAX_SAMPLE = 10_000;

export interface VerifyInput {
  readonly tenant: string;
  readonly sample?: number;
  /** Picks which subjects are sampled when there are more than `sample`. */
  readonly seed?: string;
  readonly now?: string;
}

/** What verify regenerates a summary with (consolidation's own, src/commands/consolidation/services.ts). */
interface Services {
  readonly summarizer: Summarizer;
  readonly countTokens: CountTokens;
  readonly tokenBudget: number;
}

export async function verify(read: ReadSide, services: Services, input: VerifyInput): Promise<VerifyReport> {
  const tenant = requireId('tenant', input.tenant);
  const sample = input.sample ?? DEFAULT_SAMPLE;
  if (!Number.isInteger(sample) || sample < 1 || sample > MAX_SAMPLE)
    throw new InvalidInput('sample', `must be a whole number from 1 to ${MAX_SAMPLE}`);
  const now = input.now === undefined ? read.clock().toISOString() : instantOrThrow('now', input.now);
  const population = await readMemoryTables(read.projections, (tables) =>
    tables
      .selectFrom('subject_clock')
      .select('subject')
      .where('tenant', '=', tenant)
      .where('forgotten', '=', false)
      .where('high_water_mark', '>', 0)
      .orderBy('subject')
      .execute(),
  );
  const sampled = pickSample(
    population.map((r) => r.subject),
    sample,
    input.seed ?? 'memledger',
  );
  const rebuilt: SummaryMetrics[] = [];
  const published: SummaryMetrics[] = [];
  const findings: VerifyFinding[] = [];
  let staleVisible = 0;
  for (const subject of sampled) {
    const result = await verifySubject(read, services, tenant, subject, now);
    findings.push(...result.findings);
    if (result.rebuilt) rebuilt.push(result.rebuilt);
    if (result.published) published.push(result.published);
    if (result.staleVisible) staleVisible++;
  }
  const rebuiltAggregate = aggregate(rebuilt);
  const publishedAggregate = aggregate(published);
  const failures = [...lossesOf('rebuilt', rebuiltAggregate), ...lossesOf('published', publishedAggregate)];
  if (staleVisible > 0) failures.push(`${staleVisible} STALE summar${staleVisible === 1 ? 'y is' : 'ies are'} visible through recall`);
  return {
    tenant,
    now,
    population: population.length,
    sampled,
    rebuilt: rebuiltAggregate,
    published: publishedAggregate,
    staleVisible,
    findings,
    passed: failures.length === 0,
    failures,
  };
}

interface SubjectResult {
  readonly rebuilt?: SummaryMetrics;
  readonly published?: SummaryMetrics;
  readonly staleVisible: boolean;
  readonly findings: VerifyFinding[];
}

async function verifySubject(read: ReadSide, services: Services, tenant: string, subject: string, now: string): Promise<SubjectResult> {
  const ref = { tenant, subject };
  const stream = subjectStreamName(tenant, subject);
  const loaded = await read.subjects.load(stream);
  const state = loaded.state;
  const findings: VerifyFinding[] = [];

  // The rebuild: the current valid inputs, from raw, through the current summarizer.
  const selected = new Set(selectEntries(state, { now }).entries.map((e) => e.memoryId));
  const open = await openEntries(read.eventStore, read.keyStore, ref, stream, loaded.revision, selected);
  const snapshot = takeSnapshot(state, open, {
    ...ref,
    now,
    tokenBudget: services.tokenBudget,
    countTokens: services.countTokens,
    promptVersion: services.summarizer.promptVersion,
    modelSnapshot: services.summarizer.modelSnapshot,
    fromRaw: true,
  });
  let rebuilt: SummaryMetrics | undefined;
  if (snapshot.inputs.length > 0) {
    const generation = await services.summarizer.summarize({ ...ref, ...generationRequest(snapshot) });
    if (generation.ok) {
      rebuilt = measureSummary(snapshot.inputs, snapshot.mustPreserve, snapshot.conflicts, generation.output, services.countTokens);
      findings.push(...metricFindings(subject, 'rebuilt', undefined, rebuilt));
    } else {
      findings.push({ subject, check: 'generation_failed', message: `${generation.failure.code}: ${generation.failure.message}` });
    }
  }

  // What recall serves, judged from the log: folded through the same subject revision the answer reflects, so a projection that is merely behind is not taken for a fault.
  const served = await composeRecall(read, requireRecallInput({ tenant, subject, maxSensitivity: 'restricted', now })).catch(
    (error: unknown) => {
      if (!(error instanceof SubjectProjectionFaulted)) throw error;
      findings.push({ subject, check: 'projection_fault', message: error.message });
      return undefined;
    },
  );
  if (!served) return { ...(rebuilt ? { rebuilt } : {}), staleVisible: false, findings };
  if (served.source !== 'summary' || !served.alias) return { ...(rebuilt ? { rebuilt } : {}), staleVisible: false, findings };
  const seen = served.revision === null ? undefined : await foldThrough(read.eventStore, stream, served.revision);
  const artifactId = served.alias.artifactId;
  const record = await readArtifact(read.eventStore, artifactId);
  const manifest = record.generated?.manifest;
  const cause = seen ? staleCause(seen.state, served.alias.sourceEpoch, manifest) : 'the answer reflects no subject event';
  if (cause) findings.push({ subject, check: 'stale_visible', artifactId, cause });
  const output = record.generated ? await openOutput(read.keyStore, ref, artifactId, record.generated.output) : undefined;
  if (!seen || !manifest || !output) return { ...(rebuilt ? { rebuilt } : {}), staleVisible: cause !== undefined, findings };
  const covered = new Set(manifest.inputs.map((i) => i.memoryId));
  const judged = seen.state;
  const openCovered = await openEntries(read.eventStore, read.keyStore, ref, stream, seen.revision, covered);
  const openIds = new Set(judged.openConflictIds);
  const inputs = manifest.inputs.flatMap((i) => {
    const entry = judged.entries.get(i.memoryId);
    const opened = entry && entry.status === 'active' ? openCovered(entry) : undefined;
    return entry && opened ? [toInput(entry, opened, openIds)] : [];
  });
  const conflicts: ConflictRef[] = openConflicts(judged).map((c) => ({
    conflictId: c.conflictId,
    key: c.key,
    scopes: c.scopes,
    memoryIds: c.memoryIds,
  }));
  const publishedMetrics = measureSummary(inputs, extractMustPreserve(inputs), conflicts, output, services.countTokens);
  findings.push(...metricFindings(subject, 'published', artifactId, publishedMetrics));
  return { ...(rebuilt ? { rebuilt } : {}), published: publishedMetrics, staleVisible: cause !== undefined, findings };
}

/** Every subject when there are few enough; otherwise the first `size` by a seeded hash (a stable, spread-out sample). */
export function pickSample(subjects: readonly string[], size: number, seed: string): string[] {
  if (subjects.length <= size) return [...subjects];
  const rank = (s: string) => createHash('sha256').update(`${seed}\u0000${s}`).digest('hex');
  return subjects
    .map((s) => [rank(s), s] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, size)
    .map(([, s]) => s)
    .sort();
}

function instantOrThrow(field: string, text: string): string {
  const parsed = parseInstant(text);
  if (!parsed.ok) throw new InvalidInput(field, parsed.message);
  return parsed.instant;
}
