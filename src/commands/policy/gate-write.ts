// The write gate at the command layer (DESIGN section 12): the tenant's
// policy, the writer's credential and marks, the pure evaluation
// (src/domain/policy), and what the verdict becomes: a refusal before
// anything is sealed or appended (no key is made for a refused write), or
// the entry as the gate lets it through with the audit its event records.
import type { MemoryEntry } from '../../domain/entry/entry.js';
import type { GateRecord } from '../../domain/events/write-gate-events.js';
import {
  DEFAULT_WRITE_POLICY,
  evaluateWrite,
  gatedEntry,
  refusalMessage,
  type GateReason,
  type GateVerdict,
  type VersionedWritePolicy,
  type WriteMark,
  type WriteRefusal,
  type WriterCredential,
} from '../../domain/policy/index.js';
import { reject, type Rejected } from '../../domain/result/result.js';
import { instantOf } from '../../domain/values/instant.js';
import type { CommandContext, Ledger } from '../ledger.js';

/** What a write request carries besides the entry. */
export interface WriteRequestOptions {
  readonly marks?: readonly WriteMark[];
}

/**
 * A context without a credential is the operator's own process (the library,
 * a test, a sweeper): it may claim any source type. The boundaries (HTTP, CLI)
 * always set one.
 */
export const OPERATOR_CREDENTIAL: WriterCredential = { role: 'admin', userChannel: true, ceiling: 'human_review' };

export async function writePolicyFor(ledger: Ledger, tenant: string): Promise<VersionedWritePolicy> {
  return (await ledger.writePolicies?.current(tenant)) ?? DEFAULT_WRITE_POLICY;
}

export type GatedWrite =
  | { readonly status: 'refused'; readonly rejection: Rejected; readonly verdict: GateVerdict }
  | { readonly status: 'accept'; readonly entry: MemoryEntry; readonly gate: GateRecord; readonly verdict: GateVerdict }
  | {
      readonly status: 'candidate';
      readonly entry: MemoryEntry;
      readonly gate: GateRecord;
      readonly expiresAt: string;
      readonly verdict: GateVerdict;
    };

export function refusalResult(refusal: WriteRefusal): Rejected {
  return reject(refusal.code, refusalMessage(refusal), refusal.field ?? 'entry');
}

/** A reason as a short code: names rules, kinds and types, never a value. */
export function reasonCode(reason: GateReason): string {
  switch (reason.code) {
    case 'source_type_lowered':
      return `source_type_lowered:${reason.claimed}>${reason.granted}`;
    case 'sensitivity_raised':
      return `sensitivity_raised:${reason.from}>${reason.to}${reason.by.length > 0 ? `:${reason.by.join(',')}` : ''}`;
    case 'external_origin':
      return 'external_origin';
    case 'rule_matched':
      return `rule_matched:${reason.ruleId}:${reason.decision}`;
    case 'no_rule_matched':
      return `no_rule_matched:${reason.decision}`;
    case 'refused':
      return `refused:${reason.refusal.code}`;
    default: {
      const never: never = reason;
      throw new TypeError(`unknown reason ${JSON.stringify(never)}`);
    }
  }
}

/** The verdict's audit as an event records it: version, deciding rule, detections by field and kind. */
export function gateRecordOf(verdict: GateVerdict): GateRecord {
  const seen = new Set<string>();
  const detections = verdict.detections.flatMap((d) => {
    const id = `${d.field}\n${d.kind}`;
    if (seen.has(id)) return [];
    seen.add(id);
    return [{ field: d.field, kind: d.kind }];
  });
  return {
    policyVersion: verdict.policyVersion,
    ruleId: verdict.ruleId,
    detections: detections.slice(0, 200),
    ...(verdict.sourceType.claimed !== verdict.sourceType.granted ? { claimedSourceType: verdict.sourceType.claimed } : {}),
    untrusted: verdict.untrusted,
    reasons: verdict.reasons.map(reasonCode).slice(0, 220),
  };
}

export function gateEntry(
  entry: MemoryEntry,
  context: CommandContext,
  options: WriteRequestOptions,
  policy: VersionedWritePolicy,
  now: Date,
): GatedWrite {
  const credential = context.credential ?? OPERATOR_CREDENTIAL;
  const verdict = evaluateWrite({ entry, credential, marks: options.marks ?? [], subject: context.subject }, policy);
  const at = instantOf(now);
  switch (verdict.decision) {
    case 'reject':
      return { status: 'refused', rejection: refusalResult(verdict.refusal), verdict };
    case 'candidate':
      return {
        status: 'candidate',
        entry: gatedEntry(entry, verdict, at),
        gate: gateRecordOf(verdict),
        expiresAt: instantOf(new Date(now.getTime() + verdict.candidateExpirySeconds * 1000)),
        verdict,
      };
    case 'accept':
    case 'accept_with_ttl':
      return { status: 'accept', entry: gatedEntry(entry, verdict, at), gate: gateRecordOf(verdict), verdict };
    default: {
      const never: never = verdict;
      throw new TypeError(`unknown verdict ${JSON.stringify(never)}`);
    }
  }
}
