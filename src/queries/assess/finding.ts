// What `assess` answers: one of five outcomes, and the findings behind it.

/** In the order they are judged: the first status with a finding wins. */
export const ASSESSMENT_STATUSES = ['blocked', 'needs_evidence', 'needs_rehydration', 'needs_review', 'ready'] as const;
export type AssessmentStatus = (typeof ASSESSMENT_STATUSES)[number];

export type FindingCode =
  | 'not_in_tenant'
  | 'subject_mismatch'
  | 'run_mismatch'
  | 'generation_failed'
  | 'gate_failed'
  | 'switch_rejected'
  | 'epoch_changed'
  | 'contract_changed'
  | 'stale'
  | 'subject_forgotten'
  | 'output_unreadable'
  | 'input_unreadable'
  | 'anchor_missing'
  | 'pointer_broken'
  | 'anchor_input_changed'
  | 'uncertain_unchecked'
  | 'discard_without_reason';

export interface Finding {
  readonly status: Exclude<AssessmentStatus, 'ready'>;
  readonly code: FindingCode;
  readonly message: string;
  readonly memoryId?: string;
  readonly anchorId?: string;
}
