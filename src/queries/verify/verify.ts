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
import { artifactStaleness } from '../../domain/consolidation/staleness.js';
import type { Manifest } from '../../domain/events/manifest.js';
import { isSubjectEvent } from '../../domain/events/catalog.js';
import { decodeStoredEvent } from '../../domain/events/decode.js';
import { subjectStreamName } from '../../domain/events/stream-names.js';
import type { SubjectEvent } from '../../domain/events/subject-events.js';
import { fold } from '../../domain/subject/evolve.js';
import type { CountTokens } from '../../domain/consolidation/cold-tier.js';
import type { EventStore } from '../../infrastructure/event-store/port.js';
import type { Summarizer } from '../../infrastructure/summarizer/port.js';
import { openConflicts, type SubjectState } from '../../domain/subject/state.js';
import { InvalidInput } from '../../domain/validation/invalid-input.js';
import { requireId } from '../../domain/values/ids.js';
import { parseInstant } from '../../domain/values/instant.js';
import { readMemoryTables } from '../memory-tables.js';
import type { ReadSide } from '../read-side.js';
import { SubjectProjectionFaulted } from '../projection-faulted.js';
import { recall } from '../recall/recall.js';
import { measureSummary, type FalseStatement, type MissingTextFact, type SummaryMetrics } from './summary-metrics.js';

export const DEFAULT_SAMPLE = 20;
export const MAX_SAMPLE = 10_000;

export interface VerifyInput {
  readonly tenant: string;
  readonly sample?: number;
  /** Picks which subjects are sampled when there are more than `sample`. */
  readonly seed?: string;
  readonly now?: string;
}

export interface Aggregate {
  readonly subjects: number;
  /** Null when there was nothing to measure (no key facts, no conflicts). */
  readonly keyFactRecall: number | null;
  /** The facts of the entries' words (issue 15) stated by what cites them; null when the words hold none. */
  readonly textFactRecall: number | null;
  readonly falseNewFactRate: number;
  readonly conflictRetentionRate: number | null;
  readonly averageTokenReduction: number | null;
  readonly keyFacts: number;
  readonly textFacts: number;
  readonly statements: number;
  readonly falseStatements: number;
  readonly conflicts: number;
}

export type VerifyFinding =
  | {
      readonly subject: string;
      readonly check: 'false_new_fact';
      readonly summary: 'rebuilt' | 'published';
      readonly artifactId?: string;
      readonly statement: FalseStatement;
    }
  | {
      readonly subject: string;
      readonly check: 'key_fact_missing';
      readonly summary: 'rebuilt' | 'published';
      readonly artifactId?: string;
      readonly memoryIds: readonly string[];
    }
  | {
      readonly subject: string;
      readonly check: 'text_fact_missing';
      readonly summary: 'rebuilt' | 'published';
      readonly artifactId?: string;
      readonly facts: readonly MissingTextFact[];
    }
  | {
      readonly subject: string;
      readonly check: 'conflict_dropped';
      readonly summary: 'rebuilt' | 'published';
      readonly artifactId?: string;
      readonly conflictIds: readonly string[];
    }
  | { readonly subject: string; readonly check: 'stale_visible'; readonly artifactId: string; readonly cause: string }
  | { readonly subject: string; readonly check: 'generation_failed'; readonly message: string }
  /** recall refused: the projection passed over an event of the subject (what it would serve cannot be judged). */
  | { readonly subject: string; readonly check: 'projection_fault'; readonly message: string };

export interface VerifyReport {
  readonly tenant: string;
  readonly now: string;
  /** Subjects of the tenant with entries (not forgotten), and those sampled. */
  readonly population: number;
  readonly sampled: readonly string[];
  /** Summaries rebuilt from the raw layer by the current summarizer. */
  readonly rebuilt: Aggregate;
  /** The summaries recall serves now, against the raw entries they cover. */
  readonly published: Aggregate;
  readonly staleVisible: number;
  readonly findings: readonly VerifyFinding[];
  readonly passed: boolean;
  /** Why it did not pass, one line per kind of loss (empty when it passed). */
  readonly failures: readonly string[];
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

/** Nothing lost, nothing made up: every rate that is not null must be exactly what it is for a faithful summary. */
function lossesOf(which: 'rebuilt' | 'published', a: Aggregate): string[] {
  const rate = (r: number) => r.toFixed(4);
  return [
    a.falseNewFactRate > 0 ? `${which} summaries state false new facts (rate ${rate(a.falseNewFactRate)})` : '',
    a.keyFactRecall !== null && a.keyFactRecall < 1 ? `${which} summaries lose key facts (recall ${rate(a.keyFactRecall)})` : '',
    a.textFactRecall !== null && a.textFactRecall < 1
      ? `${which} summaries lose facts of the words (recall ${rate(a.textFactRecall)})`
      : '',
    a.conflictRetentionRate !== null && a.conflictRetentionRate < 1
      ? `${which} summaries drop unresolved conflicts (retention ${rate(a.conflictRetentionRate)})`
      : '',
  ].filter((s) => s !== '');
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
  const served = await recall(read, { tenant, subject, maxSensitivity: 'restricted', now }).catch((error: unknown) => {
    if (!(error instanceof SubjectProjectionFaulted)) throw error;
    findings.push({ subject, check: 'projection_fault', message: error.message });
    return undefined;
  });
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

/** The subject's state after its events 0..revision, folded from the stream. */
async function foldThrough(store: EventStore, stream: string, revision: number): Promise<{ state: SubjectState; revision: number }> {
  const events: SubjectEvent[] = [];
  for (let from = 0; from <= revision; from += PAGE) {
    const page = await store.readStream(stream, { fromRevision: from, maxCount: Math.min(PAGE, revision - from + 1) });
    for (const stored of page) {
      const event = decodeStoredEvent(stored);
      if (isSubjectEvent(event)) events.push(event);
    }
    if (page.length === 0) break;
  }
  return { state: fold(events), revision };
}

const PAGE = 4096;

/** Why a served summary should not have been served, judged from the folded log alone. */
function staleCause(state: SubjectState, sourceEpoch: number, manifest: Manifest | undefined): string | undefined {
  if (state.forgotten) return 'the subject was forgotten';
  if (!manifest) return 'its artifact has no manifest';
  if (sourceEpoch !== state.inputEpoch) return `built at inputEpoch ${sourceEpoch}, the log is at ${state.inputEpoch}`;
  const staleness = artifactStaleness(manifest, state);
  return staleness.stale ? `input ${staleness.memoryId} is ${staleness.cause.replace('_', ' ')}` : undefined;
}

function metricFindings(
  subject: string,
  summary: 'rebuilt' | 'published',
  artifactId: string | undefined,
  m: SummaryMetrics,
): VerifyFinding[] {
  const at = artifactId !== undefined ? { artifactId } : {};
  return [
    ...m.falseStatements.map((statement): VerifyFinding => ({ subject, check: 'false_new_fact', summary, ...at, statement })),
    ...(m.missingKeyFacts.length > 0
      ? [{ subject, check: 'key_fact_missing', summary, ...at, memoryIds: m.missingKeyFacts } as const]
      : []),
    ...(m.missingTextFacts.length > 0 ? [{ subject, check: 'text_fact_missing', summary, ...at, facts: m.missingTextFacts } as const] : []),
    ...(m.droppedConflicts.length > 0
      ? [{ subject, check: 'conflict_dropped', summary, ...at, conflictIds: m.droppedConflicts } as const]
      : []),
  ];
}

function aggregate(metrics: readonly SummaryMetrics[]): Aggregate {
  const sum = (f: (m: SummaryMetrics) => number) => metrics.reduce((n, m) => n + f(m), 0);
  const keyFacts = sum((m) => m.keyFacts);
  const textFacts = sum((m) => m.textFacts);
  const statements = sum((m) => m.statements);
  const falseStatements = sum((m) => m.falseStatements.length);
  const conflicts = sum((m) => m.conflicts);
  const reductions = metrics.filter((m) => m.rawTokens > 0).map((m) => 1 - m.summaryTokens / m.rawTokens);
  return {
    subjects: metrics.length,
    keyFactRecall: keyFacts === 0 ? null : sum((m) => m.keyFactsRecalled) / keyFacts,
    textFactRecall: textFacts === 0 ? null : sum((m) => m.textFactsRecalled) / textFacts,
    falseNewFactRate: statements === 0 ? 0 : falseStatements / statements,
    conflictRetentionRate: conflicts === 0 ? null : sum((m) => m.conflictsRetained) / conflicts,
    averageTokenReduction: reductions.length === 0 ? null : reductions.reduce((a, b) => a + b, 0) / reductions.length,
    keyFacts,
    textFacts,
    statements,
    falseStatements,
    conflicts,
  };
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
