// The assessment of an artifact's compaction record (seed 002): the six
// continue checks — identity, contract, required anchors, pointers,
// volatile anchors refreshed, discards with reasons — and the five outcomes.
// Pure: the facts come in, the verdict and every finding behind it go out.
// Missing evidence outranks everything but identity: rehydrating means
// rebuilding from the inputs, which cannot be done for inputs that can no
// longer be read (seed 002: 缺证据时输出缺证). A broken anchor pointer
// routes to needs_rehydration, as the seed says: the record cannot be
// trusted, but its inputs can still be read and a new record built.
import { brokenAnchors, requiredAnchorIds } from '../../domain/compaction/build.js';
import type { CompactionRecord } from '../../domain/compaction/record.js';
import type { SummarizerOutput } from '../../domain/consolidation/output.js';
import type { Manifest } from '../../domain/events/manifest.js';
import { contractFindings, lifecycleFindings, type LifecycleFacts } from './lifecycle-findings.js';
import type { Finding } from './finding.js';

export { ASSESSMENT_STATUSES, type AssessmentStatus, type Finding, type FindingCode } from './finding.js';
import { ASSESSMENT_STATUSES, type AssessmentStatus } from './finding.js';

export interface Contract {
  readonly selectorVersion: string;
  /** The record contract the reader continues under. */
  readonly recordVersion: string;
  /** Absent: not compared (the caller did not say which summarizer is current). */
  readonly promptVersion?: string;
  readonly modelSnapshot?: string;
}

export interface AssessmentFacts extends LifecycleFacts {
  readonly subjectAsked?: string;
  readonly runAsked?: string;
  /** Anchors the reader needs beyond those the record itself requires. */
  readonly anchorsAsked?: readonly string[];
  readonly manifest: Manifest;
  readonly contract: Contract;
  /** Undefined when the output could not be opened. */
  readonly output: SummarizerOutput | undefined;
  readonly record: CompactionRecord | undefined;
  readonly unreadableInputs: readonly string[];
  /** The current status of each memory the record points at (absent: unknown to the subject). */
  readonly memoryStatus: ReadonlyMap<string, string>;
}

export function assessFacts(f: AssessmentFacts): { readonly status: AssessmentStatus; readonly findings: readonly Finding[] } {
  const m = f.manifest;
  const findings: Finding[] = [...identityFindings(f), ...lifecycleFindings(f), ...contractFindings(m, f.record, f.contract)];
  if (f.record) findings.push(...anchorFindings(f, f.record));
  if (f.output && f.record) findings.push(...discardFindings(m, f.output, f.record));
  const status = ASSESSMENT_STATUSES.find((s) => findings.some((x) => x.status === s)) ?? 'ready';
  return { status, findings };
}

function identityFindings(f: AssessmentFacts): Finding[] {
  const m = f.manifest;
  const findings: Finding[] = [];
  if (f.subjectAsked !== undefined && f.subjectAsked !== m.subject) {
    findings.push({
      status: 'blocked',
      code: 'subject_mismatch',
      message: `the artifact belongs to subject ${m.subject}, not ${f.subjectAsked}: it cannot be spliced into this subject's context`,
    });
  }
  const runId = m.trigger?.runId;
  if (f.runAsked !== undefined && f.runAsked !== runId) {
    findings.push({
      status: 'blocked',
      code: 'run_mismatch',
      message: `the record belongs to ${runId === undefined ? 'no named run' : `run ${runId}`}, not ${f.runAsked}`,
    });
  }
  return findings;
}

/** Required anchors present, their pointers resolvable, volatile ones still current, uncertain ones checked. */
function anchorFindings(f: AssessmentFacts, record: CompactionRecord): Finding[] {
  const findings: Finding[] = [];
  const present = new Set(record.anchors.map((a) => a.id));
  for (const id of new Set([...requiredAnchorIds(record, f.manifest.conflictIds), ...(f.anchorsAsked ?? [])])) {
    if (!present.has(id))
      findings.push({ status: 'needs_rehydration', code: 'anchor_missing', message: `the record has no anchor ${id}`, anchorId: id });
  }
  for (const anchor of brokenAnchors(record)) {
    findings.push({
      status: 'needs_rehydration',
      code: 'pointer_broken',
      message: `anchor ${anchor.id} points at ${anchor.pointerIds.filter((p) => !record.pointers.some((x) => x.id === p)).join(', ')}, which the record does not hold: it stays missing`,
      anchorId: anchor.id,
    });
  }
  const inputs = new Set(f.manifest.inputs.map((i) => i.memoryId));
  const unreadable = new Set(f.unreadableInputs);
  const pointers = new Map(record.pointers.map((p) => [p.id, p]));
  for (const pointer of record.pointers) {
    if (pointer.memoryId === undefined || inputs.has(pointer.memoryId)) continue;
    findings.push({
      status: 'needs_rehydration',
      code: 'pointer_broken',
      message: `pointer ${pointer.id} names ${pointer.memoryId}, which is not an input of the manifest`,
      memoryId: pointer.memoryId,
    });
  }
  const reported = new Set<string>();
  for (const anchor of record.anchors.filter((a) => a.volatile)) {
    for (const pointerId of anchor.pointerIds) {
      const memoryId = pointers.get(pointerId)?.memoryId;
      if (memoryId === undefined || reported.has(memoryId) || unreadable.has(memoryId)) continue;
      const now = f.memoryStatus.get(memoryId);
      if (now === 'active') continue;
      reported.add(memoryId);
      findings.push({
        status: 'needs_rehydration',
        code: 'anchor_input_changed',
        message: `anchor ${anchor.id} rests on ${memoryId}, which is ${now ?? 'unknown to the subject'} now: refresh it before continuing`,
        memoryId,
        anchorId: anchor.id,
      });
    }
  }
  const passed = new Set(record.lossChecks.filter((c) => c.passed).map((c) => c.check));
  for (const anchor of record.anchors.filter((a) => a.status === 'uncertain')) {
    if (passed.has(`uncertain_anchor:${anchor.id}`)) continue;
    findings.push({
      status: 'needs_review',
      code: 'uncertain_unchecked',
      message: `uncertain anchor ${anchor.id} has no passed loss check of its own`,
      anchorId: anchor.id,
    });
  }
  return findings;
}

/** Every input is stated, or discarded with a category and a reason. */
function discardFindings(m: Manifest, output: SummarizerOutput, record: CompactionRecord): Finding[] {
  const cited = new Set([...output.claims, ...output.openItems].flatMap((s) => s.derivedFrom));
  const discarded = new Set(record.discards.filter((d) => d.reason.trim() !== '').map((d) => d.memoryId));
  return m.inputs
    .filter((i) => !cited.has(i.memoryId) && !discarded.has(i.memoryId))
    .map((i) => ({
      status: 'needs_review' as const,
      code: 'discard_without_reason' as const,
      message: `input ${i.memoryId} is neither stated nor discarded with a reason`,
      memoryId: i.memoryId,
    }));
}
