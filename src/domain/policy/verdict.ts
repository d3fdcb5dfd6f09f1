// What the write gate answers: the decision and everything the audit trail
// needs (policy version, the rule that decided, reasons, the effective
// sensitivity and source type, the origin, typed detections). A refusal
// names the field and the kind of what it found, never the value.
import type { SourceType } from '../entry/source.js';
import type { Sensitivity } from '../entry/vocabulary.js';
import type { Detection, DetectionKind, SecretKind } from './detection.js';
import type { Origin } from './origin.js';
import type { GateDecision } from './policy-document.js';
import type { WriteMark } from './write-marks.js';

export type WriteRefusal =
  | { readonly code: 'secret_detected'; readonly field: string; readonly secretKind: SecretKind }
  | {
      readonly code: 'source_type_above_credential';
      readonly field: 'source.type';
      readonly claimed: SourceType;
      readonly ceiling: SourceType;
    }
  | { readonly code: 'consent_required'; readonly field: 'consentRef'; readonly sensitivity: Sensitivity }
  | { readonly code: 'policy_rejected'; readonly ruleId: string; readonly field?: string; readonly detectionKind?: DetectionKind };

export type GateReason =
  | { readonly code: 'source_type_lowered'; readonly claimed: SourceType; readonly granted: SourceType }
  | { readonly code: 'sensitivity_raised'; readonly from: Sensitivity; readonly to: Sensitivity; readonly by: readonly DetectionKind[] }
  | { readonly code: 'external_origin' }
  | { readonly code: 'rule_matched'; readonly ruleId: string; readonly decision: GateDecision }
  | { readonly code: 'no_rule_matched'; readonly decision: GateDecision }
  | { readonly code: 'refused'; readonly refusal: WriteRefusal };

export interface GateAudit {
  readonly policyVersion: number;
  /** The rule that decided: a rule id of the document, `fallback`, or `floor.secret` / `floor.consent` / `floor.credential`. */
  readonly ruleId: string;
  readonly reasons: readonly GateReason[];
  readonly sensitivity: { readonly declared: Sensitivity; readonly effective: Sensitivity };
  readonly sourceType: { readonly claimed: SourceType; readonly granted: SourceType };
  readonly origin: Origin;
  /** Served labelled as untrusted content if it is stored: external, or carrying injection markers. */
  readonly untrusted: boolean;
  readonly marks: readonly WriteMark[];
  readonly detections: readonly Detection[];
}

export type GateVerdict =
  | (GateAudit & { readonly decision: 'accept' })
  | (GateAudit & { readonly decision: 'accept_with_ttl'; readonly ttlSeconds: number })
  | (GateAudit & { readonly decision: 'candidate'; readonly candidateExpirySeconds: number })
  | (GateAudit & { readonly decision: 'reject'; readonly refusal: WriteRefusal });

/** A refusal in words, for an error message: field and kind, never the value. */
export function refusalMessage(refusal: WriteRefusal): string {
  switch (refusal.code) {
    case 'secret_detected':
      return `${refusal.field} holds a secret (${refusal.secretKind.slice('secret:'.length)}); secrets are never stored`;
    case 'source_type_above_credential':
      return `source.type ${refusal.claimed} is above what this credential may claim (at most ${refusal.ceiling})`;
    case 'consent_required':
      return `consentRef is required for ${refusal.sensitivity} entries under this tenant's write policy`;
    case 'policy_rejected':
      return refusal.field !== undefined && refusal.detectionKind !== undefined
        ? `${refusal.field} holds ${refusal.detectionKind}, which write policy rule ${refusal.ruleId} refuses`
        : `write policy rule ${refusal.ruleId} refuses this entry`;
    default: {
      const never: never = refusal;
      throw new TypeError(`unknown refusal ${JSON.stringify(never)}`);
    }
  }
}
