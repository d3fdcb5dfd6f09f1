// Builds the compaction record of a consolidation: a pure function of the
// snapshot, the output and the gate's verdict (no clock, no ids of its own),
// so a record built twice from the same inputs is the same, byte for byte,
// in its RFC 8785 form.
import type { GateResult } from '../consolidation/gate.js';
import type { ConflictRef, ConsolidationInput } from '../consolidation/input.js';
import { compareText, type MustPreserveFact } from '../consolidation/must-preserve.js';
import type { SummarizerOutput } from '../consolidation/output.js';
import type { GateFailureCode } from '../events/artifact-events.js';
import type { Manifest } from '../events/manifest.js';
import type { Withheld } from './admission.js';
import {
  CONTRACT_ANCHOR,
  STAGE_ANCHOR,
  conflictAnchorId,
  deriveAnchors,
  factAnchorId,
  memoryPointerId,
  unknownAnchorId,
} from './anchors.js';
import {
  COMPACTION_RECORD_VERSION,
  STOP_CONDITIONS,
  type Anchor,
  type AnchorStatements,
  type CompactionRecord,
  type CompactionTrigger,
  type Discard,
  type LossCheck,
} from './record.js';
import { uncertaintyOf } from './uncertainty.js';

export interface RecordSources {
  readonly manifest: Manifest;
  readonly trigger: CompactionTrigger;
  readonly runId?: string;
  /** Every selected input (admitted and withheld), in sequence order. */
  readonly selected: readonly ConsolidationInput[];
  /** Admitted inputs (hot and cold). */
  readonly admitted: readonly ConsolidationInput[];
  readonly coldTier: ReadonlyArray<{ readonly memoryId: string }>;
  readonly withheld: readonly Withheld[];
  readonly mustPreserve: readonly MustPreserveFact[];
  readonly conflicts: readonly ConflictRef[];
  readonly tokenBudget: number;
  readonly output: SummarizerOutput;
  readonly gate: GateResult;
}

export interface BuiltRecord {
  readonly record: CompactionRecord;
  /** Sealed before it is stored. */
  readonly statements: AnchorStatements;
}

/** Which loss check each gate failure breaks. */
const CHECK_OF: Readonly<Record<GateFailureCode, string>> = {
  invalid_output: 'output_valid',
  missing_fact: 'must_preserve_kept',
  value_changed: 'must_preserve_kept',
  unit_changed: 'must_preserve_kept',
  scope_changed: 'must_preserve_kept',
  polarity_flipped: 'must_preserve_kept',
  missing_derivation: 'must_preserve_kept',
  open_item_dropped: 'open_items_kept',
  conflicts_differ: 'conflicts_unresolved',
  conflict_settled: 'conflicts_unresolved',
  false_new_fact: 'no_false_new_fact',
  over_budget: 'within_budget',
  uncertainty_settled: 'uncertain_kept',
};

export function buildCompactionRecord(s: RecordSources): BuiltRecord {
  const { anchors, pointers, statements } = deriveAnchors(s);
  const m = s.manifest;
  const cold = new Set(s.coldTier.map((c) => c.memoryId));
  const preserved = new Set(s.mustPreserve.map((f) => f.memoryId));
  const keeps = s.admitted
    .filter((i) => !cold.has(i.memoryId))
    .map((i) => ({
      memoryId: i.memoryId,
      // An uncertain must-preserve entry is anchored as a fact (with status uncertain); any other uncertain one as an unknown.
      reason: preserved.has(i.memoryId) ? ('must_preserve' as const) : uncertaintyOf(i) ? ('uncertain' as const) : ('stated' as const),
    }))
    .sort((a, b) => compareText(a.memoryId, b.memoryId));
  const discards: Discard[] = [
    ...[...cold].map((memoryId): Discard => ({
      memoryId,
      category: 'over_token_budget',
      reason: `left out of the summary text to meet the token budget of ${s.tokenBudget}; still an input, its raw entry is served by recall`,
      recoverable: true,
      pointerId: memoryPointerId(memoryId),
    })),
    ...s.withheld.map((w): Discard => ({ ...w, recoverable: true, pointerId: memoryPointerId(w.memoryId) })),
  ].sort((a, b) => compareText(a.memoryId, b.memoryId));
  const record: CompactionRecord = {
    version: COMPACTION_RECORD_VERSION,
    stage: {
      trigger: s.trigger,
      ...(s.runId !== undefined ? { runId: s.runId } : {}),
      fromSequence: s.selected.length > 0 ? Math.min(...s.selected.map((i) => i.sequence)) : 0,
      throughSequence: m.newCoversThrough,
      inputEpoch: m.inputEpoch,
      parentArtifactId: m.parentArtifactId,
    },
    anchors: [...anchors],
    pointers: [...pointers],
    keeps,
    discards,
    rehydration: {
      verify: anchors.filter((a) => a.status === 'uncertain').map((a) => a.id),
      refresh: anchors.filter((a) => a.volatile).map((a) => a.id),
      stopIf: [...STOP_CONDITIONS],
      continueBy: s.trigger === 'handoff' ? 'handoff_recipient' : 'next_reader',
      onStop: 'reviewer',
    },
    lossChecks: [],
  };
  return { record: { ...record, lossChecks: lossChecks(s, record) }, statements };
}

/** The anchors a reader must find in a record: derived from its clear parts, so a dropped one is noticed. */
export function requiredAnchorIds(record: CompactionRecord, conflictIds: readonly string[]): string[] {
  const ids = new Set([STAGE_ANCHOR, CONTRACT_ANCHOR, ...conflictIds.map(conflictAnchorId)]);
  for (const keep of record.keeps) {
    if (keep.reason === 'must_preserve') ids.add(factAnchorId(keep.memoryId));
    if (keep.reason === 'uncertain') ids.add(unknownAnchorId(keep.memoryId));
  }
  for (const id of [...record.rehydration.verify, ...record.rehydration.refresh]) ids.add(id);
  return [...ids].sort(compareText);
}

/** Anchors whose pointers are not all in the record. */
export function brokenAnchors(record: CompactionRecord): Anchor[] {
  const pointers = new Set(record.pointers.map((p) => p.id));
  return record.anchors.filter((a) => a.pointerIds.some((id) => !pointers.has(id)));
}

function lossChecks(s: RecordSources, record: CompactionRecord): LossCheck[] {
  const failures = s.gate.passed ? [] : s.gate.reasons;
  const failed = new Set(failures.map((r) => CHECK_OF[r.code]));
  const checks: LossCheck[] = [
    'must_preserve_kept',
    'open_items_kept',
    'conflicts_unresolved',
    'no_false_new_fact',
    'within_budget',
    'uncertain_kept',
  ].map((check) => ({ check, passed: !failed.has(check) }));
  const present = new Set(record.anchors.map((a) => a.id));
  checks.push({
    check: 'required_anchors_present',
    passed: requiredAnchorIds(record, s.manifest.conflictIds).every((id) => present.has(id)),
  });
  checks.push({ check: 'anchor_pointers_resolve', passed: brokenAnchors(record).length === 0 });
  const withheld = new Set(s.withheld.map((w) => w.memoryId));
  const cited = [...s.output.claims, ...s.output.openItems].flatMap((p) => p.derivedFrom);
  checks.push({ check: 'no_flagged_content', passed: !cited.some((id) => withheld.has(id)) });
  // Each uncertain anchor has a check of its own: nothing stated it as settled.
  for (const anchor of record.anchors.filter((a) => a.status === 'uncertain')) {
    const settled = failures.some(
      (r) =>
        (r.code === 'uncertainty_settled' && anchor.pointerIds.includes(memoryPointerId(r.memoryId ?? ''))) ||
        (r.code === 'conflict_settled' && anchor.pointerIds.includes(`conflict:${r.conflictId ?? ''}`)),
    );
    checks.push({ check: `uncertain_anchor:${anchor.id}`, passed: !settled });
  }
  return checks;
}
