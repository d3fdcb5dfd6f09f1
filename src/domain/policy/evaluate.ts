// The write gate's decision for one candidate write: a pure function of the
// entry, the writer's marks and credential, and the tenant's versioned
// policy. In order:
//   1. the credential bounds the source type (refused, or lowered when the
//      policy says so): floor.credential;
//   2. the detectors read every field; any secret refuses the write:
//      floor.secret (no tenant can turn this off);
//   3. the effective sensitivity: the declared one, raised to at least
//      `personal` by any personal-data detection, and further by the
//      policy's sensitivity floors;
//   4. consent, when the policy requires it at that sensitivity: floor.consent;
//   5. the rules: of those whose conditions hold, the most severe decides
//      (reject > candidate > accept with TTL > accept; the shortest TTL
//      among TTLs; the first in document order on a tie), so a rule can
//      tighten what others allow but never loosen it. No rule: the fallback.
import { sensitivityRank, SENSITIVITIES, type Sensitivity } from '../entry/vocabulary.js';
import { boundClaim, type WriterCredential } from './credential-trust.js';
import { categoryOf, kindMatches, type Detection, type DetectionKind, type SecretKind } from './detection.js';
import { inspectEntry } from './inspect.js';
import { originOf } from './origin.js';
import { RESERVED_RULE_IDS, type GateDecision, type VersionedWritePolicy, type WritePolicy, type WriteRule } from './policy-document.js';
import { conditionHolds, selectedDetections, type WriteFacts } from './rule-match.js';
import type { GateEntry } from './text-fields.js';
import type { GateAudit, GateReason, GateVerdict, WriteRefusal } from './verdict.js';
import type { WriteMark } from './write-marks.js';

export interface GateRequest {
  readonly entry: GateEntry;
  readonly credential: WriterCredential;
  readonly marks?: readonly WriteMark[];
  /** The subject written to (namespace conditions, issue 19). */
  readonly subject?: string;
}

const SEVERITY: Record<GateDecision, number> = { accept: 0, accept_with_ttl: 1, candidate: 2, reject: 3 };

const ttlOf = (rule: WriteRule) => (rule.then.decision === 'accept_with_ttl' ? rule.then.ttl : Number.POSITIVE_INFINITY);

/** The deciding rule among those that hold: most severe, then shortest TTL, then first. */
export function decidingRule(matched: readonly WriteRule[]): WriteRule | undefined {
  return matched.reduce<WriteRule | undefined>((best, rule) => {
    if (best === undefined) return rule;
    const bySeverity = SEVERITY[rule.then.decision] - SEVERITY[best.then.decision];
    if (bySeverity !== 0) return bySeverity > 0 ? rule : best;
    return ttlOf(rule) < ttlOf(best) ? rule : best;
  }, undefined);
}

/** Declared sensitivity raised by personal data (at least `personal`) and by the policy's floors. */
export function effectiveSensitivity(declared: Sensitivity, detections: readonly Detection[], policy: WritePolicy): Sensitivity {
  let rank = sensitivityRank(declared);
  if (detections.some((d) => categoryOf(d.kind) === 'personal')) rank = Math.max(rank, sensitivityRank('personal'));
  for (const floor of policy.sensitivityFloors) {
    if (detections.some((d) => floor.detections.some((p) => kindMatches(d.kind, p)))) rank = Math.max(rank, sensitivityRank(floor.atLeast));
  }
  return SENSITIVITIES[rank]!;
}

function refused(audit: GateAudit, ruleId: string, refusal: WriteRefusal): GateVerdict {
  return { ...audit, ruleId, reasons: [...audit.reasons, { code: 'refused', refusal }], decision: 'reject', refusal };
}

export function evaluateWrite(request: GateRequest, versioned: VersionedWritePolicy): GateVerdict {
  const { entry, credential } = request;
  const { policy } = versioned;
  const marks = [...new Set(request.marks ?? [])].sort();
  const detections = inspectEntry(entry);
  const origin = originOf(entry.source.refs, policy.externalSchemes);
  const claim = boundClaim(credential, entry.source.type, policy.overClaim);
  const granted = claim.outcome === 'refused' ? entry.source.type : claim.granted;
  const sensitivity = effectiveSensitivity(entry.sensitivity, detections, policy);
  const reasons: GateReason[] = [];
  if (claim.outcome === 'lowered') reasons.push({ code: 'source_type_lowered', claimed: claim.claimed, granted: claim.granted });
  if (sensitivity !== entry.sensitivity) {
    const by = [...new Set(detections.filter((d) => categoryOf(d.kind) === 'personal').map((d): DetectionKind => d.kind))].sort();
    reasons.push({ code: 'sensitivity_raised', from: entry.sensitivity, to: sensitivity, by });
  }
  if (origin === 'external') reasons.push({ code: 'external_origin' });
  const audit: GateAudit = {
    policyVersion: versioned.version,
    ruleId: RESERVED_RULE_IDS.fallback,
    reasons,
    sensitivity: { declared: entry.sensitivity, effective: sensitivity },
    sourceType: { claimed: entry.source.type, granted },
    origin,
    untrusted: origin === 'external' || detections.some((d) => categoryOf(d.kind) === 'injection'),
    marks,
    detections,
  };

  if (claim.outcome === 'refused') {
    return refused(audit, RESERVED_RULE_IDS.credential, {
      code: 'source_type_above_credential',
      field: 'source.type',
      claimed: claim.claimed,
      ceiling: claim.ceiling,
    });
  }
  const secret = detections.find((d) => categoryOf(d.kind) === 'secret');
  if (secret)
    return refused(audit, RESERVED_RULE_IDS.secret, {
      code: 'secret_detected',
      field: secret.field,
      secretKind: secret.kind as SecretKind,
    });
  const consentAt = policy.consentRequiredAt;
  if (consentAt !== null && sensitivityRank(sensitivity) >= sensitivityRank(consentAt) && entry.consentRef === undefined) {
    return refused(audit, RESERVED_RULE_IDS.consent, { code: 'consent_required', field: 'consentRef', sensitivity });
  }

  const facts: WriteFacts = {
    kind: entry.kind,
    key: entry.key,
    sourceType: granted,
    origin,
    sensitivity,
    detections,
    marks,
    ...(request.subject !== undefined ? { subject: request.subject } : {}),
  };
  const matched = policy.rules.filter((rule) => conditionHolds(rule.when, facts));
  reasons.push(...matched.map((rule): GateReason => ({ code: 'rule_matched', ruleId: rule.id, decision: rule.then.decision })));
  const rule = decidingRule(matched);
  if (rule === undefined) {
    reasons.push({ code: 'no_rule_matched', decision: policy.fallback });
    return fallbackVerdict(audit, policy);
  }
  const decided: GateAudit = { ...audit, ruleId: rule.id };
  switch (rule.then.decision) {
    case 'accept':
      return { ...decided, decision: 'accept' };
    case 'accept_with_ttl':
      return { ...decided, decision: 'accept_with_ttl', ttlSeconds: rule.then.ttl };
    case 'candidate':
      return { ...decided, decision: 'candidate', candidateExpirySeconds: policy.candidateExpiry };
    case 'reject': {
      const [first] = selectedDetections(rule.when, rule.when.detections ? detections : []);
      const refusal: WriteRefusal = {
        code: 'policy_rejected',
        ruleId: rule.id,
        ...(first ? { field: first.field, detectionKind: first.kind } : {}),
      };
      return refused(decided, rule.id, refusal);
    }
    default: {
      const never: never = rule.then;
      throw new TypeError(`unknown decision ${JSON.stringify(never)}`);
    }
  }
}

function fallbackVerdict(audit: GateAudit, policy: WritePolicy): GateVerdict {
  switch (policy.fallback) {
    case 'accept':
      return { ...audit, decision: 'accept' };
    case 'candidate':
      return { ...audit, decision: 'candidate', candidateExpirySeconds: policy.candidateExpiry };
    case 'reject':
      return refused(audit, RESERVED_RULE_IDS.fallback, { code: 'policy_rejected', ruleId: RESERVED_RULE_IDS.fallback });
    default: {
      const never: never = policy.fallback;
      throw new TypeError(`unknown fallback ${String(never)}`);
    }
  }
}
