// Phase 1, prepare: fold the subject at revision R, take the snapshot (H,
// inputEpoch, alias tuple, selected inputs, must-preserve set, cold tier,
// manifest), generate, gate, and append the artifact stream with expected
// revision no_stream. Nothing prepared is readable: only the alias makes an
// artifact readable, and only publish moves it.
import { renderRawEntry } from '../../domain/consolidation/rendering.js';
import { selectEntries } from '../../domain/consolidation/selector.js';
import {
  compactionRecordOf,
  gateOutput,
  generationRequest,
  takeSnapshot,
  type ConsolidationSnapshot,
} from '../../domain/consolidation/snapshot.js';
import { COMPACTION_TRIGGERS, type CompactionTrigger } from '../../domain/compaction/record.js';
import { requireId } from '../../domain/values/ids.js';
import type { ArtifactCommand } from '../../domain/artifact/commands.js';
import type { ArtifactState } from '../../domain/artifact/state.js';
import type { GateFailure } from '../../domain/events/artifact-events.js';
import type { AliasTuple } from '../../domain/events/alias.js';
import { subjectStreamName } from '../../domain/events/stream-names.js';
import { reject, type Result } from '../../domain/result/result.js';
import type { SubjectState } from '../../domain/subject/state.js';
import { InvalidInput } from '../../domain/validation/invalid-input.js';
import { instantOf, type Instant } from '../../domain/values/instant.js';
import type { CommandContext, Ledger } from '../ledger.js';
import { openOutput } from '../../reads/opened/artifact-output.js';
import { readArtifact } from '../../reads/streams/artifact-stream.js';
import { sealOutput } from './artifact-output.js';
import { executeArtifactCommand } from './artifact-stream.js';
import { openEntries } from '../../reads/opened/opened-entries.js';
import type { ConsolidationServices } from './services.js';

export type ArtifactStatus = 'gate_passed' | 'gate_failed' | 'generation_failed';

export interface PrepareResult {
  readonly artifactId: string;
  readonly tenant: string;
  readonly subject: string;
  readonly status: ArtifactStatus;
  /** True when the artifact of this snapshot already existed (another worker, or an earlier run) and was taken as it is. */
  readonly reused: boolean;
  readonly gate: { readonly passed: boolean; readonly mustPreserveCount?: number; readonly reasons?: readonly GateFailure[] };
  readonly generationError?: { readonly code: string; readonly message: string };
  readonly fences: {
    readonly revision: number;
    readonly highWaterMark: number;
    readonly newCoversThrough: number;
    readonly inputEpoch: number;
    readonly expectedAlias: AliasTuple | null;
    readonly conflictIds: readonly string[];
  };
  readonly parentArtifactId: string | null;
  readonly inputs: number;
  readonly coldTier: number;
  /** Why it was compacted, as the manifest records it. */
  readonly trigger: CompactionTrigger;
  /** Inputs left out of the summary, by discard category. */
  readonly discards: Readonly<Record<string, number>>;
  /** Tokens of the raw inputs as they would enter a context, and of the summary text (absent when reused). */
  readonly tokens?: { readonly rawInputs: number; readonly summary: number };
}

export interface PrepareOptions {
  readonly through?: number;
  readonly fromRaw?: boolean;
  /** A phase boundary, a hand-off or a branch (default: the schedule), recorded in the manifest. */
  readonly trigger?: CompactionTrigger;
  /** The run or task this compaction belongs to (its identity for `assess`). */
  readonly runId?: string;
}

/** A later try of the same snapshot after a failed generation gets a new artifact id; this bounds the tries. */
const MAX_ATTEMPTS = 10;

export async function prepareConsolidation(
  ledger: Ledger,
  services: ConsolidationServices,
  context: CommandContext,
  options: PrepareOptions = {},
): Promise<Result<PrepareResult>> {
  if (options.through !== undefined && (!Number.isInteger(options.through) || options.through < 1))
    throw new InvalidInput('through', 'must be a whole number of at least 1');
  if (options.trigger !== undefined && !(COMPACTION_TRIGGERS as readonly string[]).includes(options.trigger))
    throw new InvalidInput('reason', `must be one of ${COMPACTION_TRIGGERS.filter((t) => t !== 'schedule').join(', ')}`);
  if (options.runId !== undefined) requireId('run-id', options.runId);
  const stream = subjectStreamName(context.tenant, context.subject);
  const ref = { tenant: context.tenant, subject: context.subject };
  const loaded = await ledger.subjects.load(stream);
  const state = loaded.state;
  const refusal = precondition(state, options.through);
  if (refusal) return refusal;
  const now = instantOf(ledger.clock());
  const selectionOptions = {
    now,
    ...(options.through !== undefined ? { through: options.through } : {}),
    ...(services.selectorVersion ? { version: services.selectorVersion } : {}),
  };
  const candidates = new Set(selectEntries(state, selectionOptions).entries.map((e) => e.memoryId));
  const open = await openEntries(ledger.eventStore, ledger.keyStore, ref, stream, loaded.revision, candidates);
  const parent = options.fromRaw ? undefined : await loadParent(ledger, ref, state);

  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const snapshot = takeSnapshot(state, open, {
      ...ref,
      ...selectionOptions,
      tokenBudget: services.tokenBudget,
      countTokens: services.countTokens,
      promptVersion: services.summarizer.promptVersion,
      modelSnapshot: services.summarizer.modelSnapshot,
      ...(parent ? { parent } : {}),
      ...(options.fromRaw ? { fromRaw: true } : {}),
      ...(options.trigger ? { trigger: options.trigger } : {}),
      ...(options.runId !== undefined ? { runId: options.runId } : {}),
      ...(services.summaryCeiling ? { summaryCeiling: services.summaryCeiling(context.tenant) } : {}),
      attempt,
    });
    const artifactId = snapshot.manifest.artifactId;
    const result = (record: ArtifactState, reused: boolean, tokens?: PrepareResult['tokens']) =>
      resultOf(snapshot, record, loaded.revision, state.highWaterMark, reused, tokens);
    const existing = await readArtifact(ledger.eventStore, artifactId);
    if (existing.revision >= 0) {
      if (existing.generationFailed) continue;
      return { ok: true, result: result(existing, true) };
    }
    const written = await generateAndGate(ledger, services, context, snapshot);
    if (written === 'subject_forgotten') return reject('subject_forgotten', 'the subject was forgotten', 'subject');
    if (written === 'input_forgotten')
      return reject('input_forgotten', 'something the summary derives from was erased while it was generated; consolidate again');
    const origin = {
      ...(context.actor ? { actor: context.actor } : {}),
      ...(context.correlationId ? { correlationId: context.correlationId } : {}),
    };
    const recorded = await executeArtifactCommand(ledger, { artifactId, commandId: `prepare:${artifactId}`, ...origin }, written.command);
    if (!recorded.ok) return recorded;
    const { state: artifact, events, replayed } = recorded.result;
    if (replayed || events.length === 0) {
      // Another worker wrote this snapshot's artifact first: take theirs.
      if (artifact.generationFailed) continue;
      return { ok: true, result: result(artifact, true) };
    }
    return { ok: true, result: result(artifact, false, written.tokens) };
  }
  return reject('generation_failed', `generation failed ${MAX_ATTEMPTS} times for this snapshot`);
}

function precondition(state: SubjectState, through: number | undefined) {
  if (state.forgotten) return reject('subject_forgotten', 'the subject was forgotten', 'subject');
  if (state.highWaterMark === 0) return reject('nothing_to_consolidate', 'the subject has no entries');
  if (through !== undefined && through > state.highWaterMark) {
    return reject('coverage_beyond_head', `through ${through} is beyond the last sequence ${state.highWaterMark}`, 'through');
  }
  const target = through ?? state.highWaterMark;
  if (state.alias && target < state.alias.coversThrough) {
    return reject('coverage_regressed', `the alias already covers ${state.alias.coversThrough}; coverage never decreases`, 'through');
  }
  return undefined;
}

/** The current alias's artifact as a parent candidate; takeSnapshot decides whether it may serve. */
async function loadParent(ledger: Ledger, ref: { tenant: string; subject: string }, state: SubjectState) {
  const alias = state.alias;
  if (!alias || alias.sourceEpoch !== state.inputEpoch) return undefined;
  const record = await readArtifact(ledger.eventStore, alias.artifactId);
  if (!record.generated) return undefined;
  const output = await openOutput(ledger.keyStore, ref, alias.artifactId, record.generated.output);
  return output ? { manifest: record.generated.manifest, output } : undefined;
}

async function generateAndGate(ledger: Ledger, services: ConsolidationServices, context: CommandContext, snapshot: ConsolidationSnapshot) {
  const { manifest } = snapshot;
  const generation = await services.summarizer.summarize({
    tenant: context.tenant,
    subject: context.subject,
    ...generationRequest(snapshot),
  });
  if (!generation.ok) {
    const { failure } = generation;
    const command = (now: Instant): ArtifactCommand => ({
      type: 'RecordGenerationFailure',
      artifactId: manifest.artifactId,
      manifest,
      error: { code: failure.code, message: failure.message },
      now,
    });
    return { command };
  }
  const gate = gateOutput(snapshot, generation.output, services.countTokens);
  // The artifact's key records what it derives from, so erasing any input (or the parent's) destroys it.
  const derivation = { derivedFrom: manifest.inputs.map((i) => i.memoryId), parentArtifactId: manifest.parentArtifactId };
  const built = compactionRecordOf(snapshot, generation.output, gate);
  const sealed = await sealOutput(ledger.keyStore, context, manifest.artifactId, generation.output, derivation, built.statements);
  if (sealed.status !== 'sealed') return sealed.scope === 'subject' ? ('subject_forgotten' as const) : ('input_forgotten' as const);
  const command = (now: Instant): ArtifactCommand => ({
    type: 'RecordArtifact',
    artifactId: manifest.artifactId,
    manifest,
    output: sealed.output,
    outputHash: sealed.outputHash,
    record: built.record,
    ...(sealed.statements ? { statements: sealed.statements } : {}),
    gate,
    now,
  });
  const rawInputs = snapshot.inputs.reduce((sum, input) => sum + services.countTokens(renderRawEntry(input)), 0);
  return { command, tokens: { rawInputs, summary: services.countTokens(generation.output.summary) } };
}

function resultOf(
  snapshot: ConsolidationSnapshot,
  record: ArtifactState,
  revision: number,
  highWaterMark: number,
  reused: boolean,
  tokens?: PrepareResult['tokens'],
): PrepareResult {
  const manifest = record.generated?.manifest ?? record.generationFailed?.manifest ?? snapshot.manifest;
  const discards: Record<string, number> = {};
  for (const d of record.generated?.record.discards ?? []) discards[d.category] = (discards[d.category] ?? 0) + 1;
  const status: ArtifactStatus = record.generationFailed ? 'generation_failed' : record.gatePassed ? 'gate_passed' : 'gate_failed';
  return {
    artifactId: manifest.artifactId,
    tenant: manifest.tenant,
    subject: manifest.subject,
    status,
    reused,
    gate: record.gatePassed
      ? { passed: true, mustPreserveCount: record.gatePassed.mustPreserveCount }
      : { passed: false, ...(record.gateFailed ? { reasons: record.gateFailed.reasons } : {}) },
    ...(record.generationFailed ? { generationError: record.generationFailed.error } : {}),
    fences: {
      revision,
      highWaterMark,
      newCoversThrough: manifest.newCoversThrough,
      inputEpoch: manifest.inputEpoch,
      expectedAlias: manifest.expectedAlias,
      conflictIds: manifest.conflictIds,
    },
    parentArtifactId: manifest.parentArtifactId,
    inputs: manifest.inputs.length,
    coldTier: discards['over_token_budget'] ?? 0,
    trigger: manifest.trigger?.reason ?? 'schedule',
    discards,
    ...(tokens ? { tokens } : {}),
  };
}
