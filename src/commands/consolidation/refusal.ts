// Why a consolidation command did nothing: typed, with the field at fault.
export const CONSOLIDATION_REFUSALS = [
  'subject_forgotten',
  'input_forgotten',
  'nothing_to_consolidate',
  'coverage_regressed',
  'coverage_beyond_head',
  'artifact_not_found',
  'generation_failed',
  'gate_failed',
] as const;
export type ConsolidationRefusalCode = (typeof CONSOLIDATION_REFUSALS)[number];

export interface ConsolidationRefusal {
  readonly code: ConsolidationRefusalCode;
  readonly message: string;
  readonly field?: string;
}

export type ConsolidationOutcome<R> =
  { readonly ok: true; readonly result: R } | { readonly ok: false; readonly refusal: ConsolidationRefusal };

export function refuse(code: ConsolidationRefusalCode, message: string, field?: string): { ok: false; refusal: ConsolidationRefusal } {
  return { ok: false, refusal: field === undefined ? { code, message } : { code, message, field } };
}
