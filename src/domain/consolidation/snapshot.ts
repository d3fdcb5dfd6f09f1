// Step 1 of the protocol as one pure function: from a folded subject state
// (and its opened values) to everything a consolidation is bound to — the
// selection, the inputs, the must-preserve set, the cold tier and the
// manifest. The command handler does the I/O around it.
import type { Manifest } from '../events/manifest.js';
import { openConflicts, type EntryState, type SubjectState } from '../subject/state.js';
import type { Instant } from '../values/instant.js';
import type { Value } from '../values/value.js';
import { planColdTier, type CountTokens } from './cold-tier.js';
import { summarizeDeterministically } from './deterministic-summary.js';
import { checkGate, type GateResult } from './gate.js';
import { toInput, type ConflictRef, type ConsolidationInput } from './input.js';
import { buildManifest } from './manifest-builder.js';
import { extractMustPreserve, type MustPreserveFact } from './must-preserve.js';
import type { SummarizerOutput } from './output.js';
import { selectEntries, type SelectorVersion } from './selector.js';
import { parentMayServe } from './staleness.js';
import { admitToSummary, type Withheld } from '../compaction/admission.js';
import { buildCompactionRecord, type BuiltRecord } from '../compaction/build.js';
import type { CompactionTrigger } from '../compaction/record.js';
import type { Sensitivity } from '../entry/vocabulary.js';

export interface SnapshotOptions {
  readonly tenant: string;
  readonly subject: string;
  readonly through?: number;
  readonly now: Instant;
  readonly tokenBudget: number;
  readonly countTokens: CountTokens;
  readonly selectorVersion?: SelectorVersion;
  readonly promptVersion: string;
  readonly modelSnapshot: string;
  /** The current alias's manifest and opened output, when it could be read. */
  readonly parent?: { readonly manifest: Manifest; readonly output: SummarizerOutput };
  /** Build from raw entries even when the parent may serve (forward recovery). */
  readonly fromRaw?: boolean;
  readonly attempt?: number;
  /** Why now (default: the schedule), and the run or task it belongs to. */
  readonly trigger?: CompactionTrigger;
  readonly runId?: string;
  /** Entries above this sensitivity stay out of the summary (default: none do). */
  readonly summaryCeiling?: Sensitivity;
}

export interface ConsolidationSnapshot {
  readonly manifest: Manifest;
  /** Every selected entry that could be opened, admitted or withheld, in sequence order. */
  readonly selected: readonly ConsolidationInput[];
  /** The inputs admitted to the summary (hot and cold), in sequence order. */
  readonly inputs: readonly ConsolidationInput[];
  /** Inputs the write gate flagged or above the summary ceiling: never given to the summarizer. */
  readonly withheld: readonly Withheld[];
  readonly hot: readonly ConsolidationInput[];
  readonly coldTier: ReadonlyArray<{ readonly memoryId: string; readonly reason: 'over_token_budget' }>;
  readonly mustPreserve: readonly MustPreserveFact[];
  readonly conflicts: readonly ConflictRef[];
  readonly parentOutput?: SummarizerOutput;
  readonly tokenBudget: number;
}

export type OpenEntry = (
  entry: EntryState,
) => { readonly value: Value; readonly content?: string; readonly writeGate?: ConsolidationInput['writeGate'] } | undefined;

export function takeSnapshot(state: SubjectState, open: OpenEntry, options: SnapshotOptions): ConsolidationSnapshot {
  const selection = selectEntries(state, {
    now: options.now,
    ...(options.through !== undefined ? { through: options.through } : {}),
    ...(options.selectorVersion ? { version: options.selectorVersion } : {}),
  });
  const openIds = new Set(state.openConflictIds);
  const entries: EntryState[] = [];
  const inputs: ConsolidationInput[] = [];
  for (const entry of selection.entries) {
    // An entry whose key is gone (an erasure in progress) cannot be stated: it is not an input.
    const opened = open(entry);
    if (!opened) continue;
    entries.push(entry);
    inputs.push(toInput(entry, opened, openIds));
  }
  const conflicts: ConflictRef[] = openConflicts(state).map((c) => ({
    conflictId: c.conflictId,
    key: c.key,
    scopes: c.scopes,
    memoryIds: c.memoryIds,
  }));
  const admission = admitToSummary(inputs, options.summaryCeiling ?? 'restricted');
  const mustPreserve = extractMustPreserve(admission.admitted);
  const plan = planColdTier(admission.admitted, new Set(mustPreserve.map((f) => f.memoryId)), options.tokenBudget, options.countTokens);
  const parent = options.parent && !options.fromRaw && parentMayServe(state, options.parent.manifest) ? options.parent : undefined;
  const manifest = buildManifest({
    tenant: options.tenant,
    subject: options.subject,
    through: selection.through,
    inputEpoch: state.inputEpoch,
    expectedAlias: state.alias,
    entries,
    conflictIds: state.openConflictIds,
    parentArtifactId: parent ? parent.manifest.artifactId : null,
    selectorVersion: selection.selectorVersion,
    promptVersion: options.promptVersion,
    modelSnapshot: options.modelSnapshot,
    settings: { tokenBudget: options.tokenBudget, ...(options.summaryCeiling ? { summaryCeiling: options.summaryCeiling } : {}) },
    trigger: { reason: options.trigger ?? 'schedule', ...(options.runId !== undefined ? { runId: options.runId } : {}) },
    attempt: options.attempt ?? 1,
  });
  return {
    manifest,
    selected: inputs,
    inputs: admission.admitted,
    withheld: admission.withheld,
    hot: plan.hot,
    coldTier: plan.cold,
    mustPreserve,
    conflicts,
    ...(parent ? { parentOutput: parent.output } : {}),
    tokenBudget: options.tokenBudget,
  };
}

/** What a summarizer is asked to state for a snapshot. */
export interface GenerationRequest {
  /** The hot tier, in sequence order. */
  readonly inputs: readonly ConsolidationInput[];
  /** Every open conflict of the subject: to be kept unresolved. */
  readonly conflicts: readonly ConflictRef[];
  /** Ids the output must state (the must-preserve set). */
  readonly mustPreserveIds: readonly string[];
  /** The parent's output, when it may serve: restate it and add what it does not cite. */
  readonly parent?: SummarizerOutput;
  readonly tokenBudget: number;
}

export function generationRequest(snapshot: ConsolidationSnapshot): GenerationRequest {
  return {
    inputs: snapshot.hot,
    conflicts: snapshot.conflicts,
    mustPreserveIds: snapshot.mustPreserve.map((f) => f.memoryId),
    ...(snapshot.parentOutput ? { parent: snapshot.parentOutput } : {}),
    tokenBudget: snapshot.tokenBudget,
  };
}

/**
 * Gates an output against its snapshot. The summary text may use the token
 * budget, or — when the must-keep content alone needs more — as many tokens
 * as the templated rendering of the hot tier.
 */
export function gateOutput(snapshot: ConsolidationSnapshot, output: SummarizerOutput, countTokens: CountTokens): GateResult {
  const templated = summarizeDeterministically({ inputs: snapshot.hot, conflicts: snapshot.conflicts }).summary;
  // The deterministic summarizer's output is the templated text itself: count it once.
  const counted = new Map<string, number>();
  const count: CountTokens = (text) => counted.get(text) ?? counted.set(text, countTokens(text)).get(text)!;
  return checkGate({
    inputs: snapshot.inputs,
    mustPreserve: snapshot.mustPreserve,
    conflicts: snapshot.conflicts,
    output,
    summaryTokenAllowance: Math.max(snapshot.tokenBudget, count(templated)),
    countTokens: count,
  });
}

/** The compaction record of an output and the gate's verdict on it. */
export function compactionRecordOf(snapshot: ConsolidationSnapshot, output: SummarizerOutput, gate: GateResult): BuiltRecord {
  const trigger = snapshot.manifest.trigger;
  return buildCompactionRecord({
    manifest: snapshot.manifest,
    trigger: trigger?.reason ?? 'schedule',
    ...(trigger?.runId !== undefined ? { runId: trigger.runId } : {}),
    selected: snapshot.selected,
    admitted: snapshot.inputs,
    coldTier: snapshot.coldTier,
    withheld: snapshot.withheld,
    mustPreserve: snapshot.mustPreserve,
    conflicts: snapshot.conflicts,
    tokenBudget: snapshot.tokenBudget,
    output,
    gate,
  });
}
