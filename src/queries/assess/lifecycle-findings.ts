// The continue checks on what became of an artifact and its subject: was it
// generated and gated, published, is the subject where it was, STALE,
// forgotten, can its output and inputs still be read; and the contract it
// was built under (selector, prompt, model, record version).
import type { CompactionRecord } from '../../domain/compaction/record.js';
import type { Manifest } from '../../domain/events/manifest.js';
import type { Contract } from './assessment.js';
import type { Finding } from './finding.js';

export interface LifecycleFacts {
  readonly manifest: Manifest;
  readonly generated: boolean;
  readonly generationError?: string;
  readonly gateFailures: readonly string[];
  readonly rejection?: string;
  /** The subject now. */
  readonly inputEpoch: number;
  readonly subjectForgotten: boolean;
  readonly stale: { readonly causeType: string; readonly causeMemoryId: string | null; readonly viaArtifactId: string | null } | null;
  readonly outputReadable: boolean;
  readonly unreadableInputs: readonly string[];
}

export function lifecycleFindings(f: LifecycleFacts): Finding[] {
  const findings: Finding[] = [];
  const m = f.manifest;
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
  if (f.stale) {
    const via = f.stale.viaArtifactId ? ` through ${f.stale.viaArtifactId}` : '';
    findings.push({
      status: 'needs_rehydration',
      code: 'stale',
      message: `STALE since ${f.stale.causeType}${f.stale.causeMemoryId ? ` of ${f.stale.causeMemoryId}` : ''}${via}`,
    });
  }
  if (f.subjectForgotten) {
    findings.push({
      status: 'needs_evidence',
      code: 'subject_forgotten',
      message: 'the subject was forgotten: none of its evidence can be read',
    });
    return findings;
  }
  if (f.generated && !f.outputReadable)
    findings.push({ status: 'needs_evidence', code: 'output_unreadable', message: 'the output can no longer be opened (its key is gone)' });
  for (const memoryId of f.unreadableInputs)
    findings.push({
      status: 'needs_evidence',
      code: 'input_unreadable',
      message: `input ${memoryId} can no longer be read (forgotten): its pointer stays missing`,
      memoryId,
    });
  return findings;
}

export function contractFindings(m: Manifest, record: CompactionRecord | undefined, contract: Contract): Finding[] {
  const changed = (['selectorVersion', 'promptVersion', 'modelSnapshot'] as const)
    .filter((k) => contract[k] !== undefined && contract[k] !== m[k])
    .map((k) => `${k} ${m[k]} -> ${contract[k]}`);
  if (record && record.version !== contract.recordVersion) changed.push(`record ${record.version} -> ${contract.recordVersion}`);
  return changed.length === 0 ? [] : [{ status: 'needs_rehydration', code: 'contract_changed', message: changed.join(', ') }];
}
