// The assessment of an artifact as a compaction record (seed 002: identity,
// evidence, contract, discards). Pure: the facts come in, the verdict and
// every finding behind it go out. Missing evidence outranks a changed
// contract: rehydrating means rebuilding from the inputs, which cannot be
// done for inputs that can no longer be read (seed 002: 缺证据时输出缺证).
import type { SummarizerOutput } from '../../domain/consolidation/output.js';
import type { Manifest } from '../../domain/events/manifest.js';

/** In the order they are judged: the first status with a finding wins. */
export const ASSESSMENT_STATUSES = ['blocked', 'needs_evidence', 'needs_rehydration', 'needs_review', 'ready'] as const;
export type AssessmentStatus = (typeof ASSESSMENT_STATUSES)[number];

export type FindingCode =
  | 'not_in_tenant'
  | 'subject_mismatch'
  | 'generation_failed'
  | 'gate_failed'
  | 'switch_rejected'
  | 'epoch_changed'
  | 'contract_changed'
  | 'stale'
  | 'subject_forgotten'
  | 'output_unreadable'
  | 'input_unreadable'
  | 'discard_without_reason';

export interface Finding {
  readonly status: Exclude<AssessmentStatus, 'ready'>;
  readonly code: FindingCode;
  readonly message: string;
  readonly memoryId?: string;
}

export interface Contract {
  readonly selectorVersion: string;
  /** Absent: not compared (the caller did not say which summarizer is current). */
  readonly promptVersion?: string;
  readonly modelSnapshot?: string;
}

export interface AssessmentFacts {
  readonly subjectAsked?: string;
  readonly manifest: Manifest;
  readonly generated: boolean;
  readonly generationError?: string;
  readonly gateFailures: readonly string[];
  readonly rejection?: string;
  readonly contract: Contract;
  /** The subject now. */
  readonly inputEpoch: number;
  readonly subjectForgotten: boolean;
  readonly stale: { readonly causeType: string; readonly causeMemoryId: string | null; readonly viaArtifactId: string | null } | null;
  /** Undefined when the output could not be opened. */
  readonly output: SummarizerOutput | undefined;
  readonly unreadableInputs: readonly string[];
  readonly coldTier: ReadonlyArray<{ readonly memoryId: string; readonly reason?: string }>;
}

export function assessFacts(f: AssessmentFacts): { readonly status: AssessmentStatus; readonly findings: readonly Finding[] } {
  const findings: Finding[] = [];
  const m = f.manifest;
  if (f.subjectAsked !== undefined && f.subjectAsked !== m.subject) {
    findings.push({
      status: 'blocked',
      code: 'subject_mismatch',
      message: `the artifact belongs to subject ${m.subject}, not ${f.subjectAsked}: it cannot be spliced into this subject's context`,
    });
  }
  if (!f.generated)
    findings.push({
      status: 'needs_rehydration',
      code: 'generation_failed',
      message: `generation failed${f.generationError ? ` (${f.generationError})` : ''}: there is no output to resume from`,
    });
  if (f.gateFailures.length > 0)
    findings.push({
      status: 'needs_rehydration',
      code: 'gate_failed',
      message: `the loss gate refused the output (${[...new Set(f.gateFailures)].join(', ')})`,
    });
  if (f.rejection)
    findings.push({ status: 'needs_rehydration', code: 'switch_rejected', message: `publication was refused (${f.rejection})` });
  if (m.inputEpoch !== f.inputEpoch)
    findings.push({
      status: 'needs_rehydration',
      code: 'epoch_changed',
      message: `built at inputEpoch ${m.inputEpoch}, the subject is at ${f.inputEpoch}: its inputs changed since`,
    });
  const changed = (['selectorVersion', 'promptVersion', 'modelSnapshot'] as const).filter(
    (k) => f.contract[k] !== undefined && f.contract[k] !== m[k],
  );
  if (changed.length > 0) {
    findings.push({
      status: 'needs_rehydration',
      code: 'contract_changed',
      message: changed.map((k) => `${k} ${m[k]} -> ${f.contract[k]}`).join(', '),
    });
  }
  if (f.stale) {
    const via = f.stale.viaArtifactId ? ` through ${f.stale.viaArtifactId}` : '';
    findings.push({
      status: 'needs_rehydration',
      code: 'stale',
      message: `STALE since ${f.stale.causeType}${f.stale.causeMemoryId ? ` of ${f.stale.causeMemoryId}` : ''}${via}`,
    });
  }
  if (f.subjectForgotten)
    findings.push({
      status: 'needs_evidence',
      code: 'subject_forgotten',
      message: 'the subject was forgotten: none of its evidence can be read',
    });
  else {
    if (f.generated && !f.output)
      findings.push({
        status: 'needs_evidence',
        code: 'output_unreadable',
        message: 'the output can no longer be opened (its key is gone)',
      });
    for (const memoryId of f.unreadableInputs)
      findings.push({
        status: 'needs_evidence',
        code: 'input_unreadable',
        message: `input ${memoryId} can no longer be read (forgotten)`,
        memoryId,
      });
  }
  if (f.output) {
    const cited = new Set([...f.output.claims, ...f.output.openItems].flatMap((s) => s.derivedFrom));
    const cold = new Map(f.coldTier.map((c) => [c.memoryId, c.reason]));
    for (const input of m.inputs) {
      if (cited.has(input.memoryId)) continue;
      if (cold.has(input.memoryId) && cold.get(input.memoryId)) continue;
      findings.push({
        status: 'needs_review',
        code: 'discard_without_reason',
        message: `input ${input.memoryId} is neither stated nor discarded with a reason`,
        memoryId: input.memoryId,
      });
    }
  }
  const status = ASSESSMENT_STATUSES.find((s) => findings.some((x) => x.status === s)) ?? 'ready';
  return { status, findings };
}
