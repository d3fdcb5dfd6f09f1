// PromoteMemory (issue 19 item 3): a private memory reaches a shared
// namespace only as a candidate there, which a reviewer accepts through the
// candidates path (src/commands/policy/candidates.ts) or not. The source
// stream records the promotion first (who, why, to where, the copy's id):
// the link an erasure of the source follows, so a copy never exists without
// it. Then the entry is opened in memory, passed through the target's write
// gate as the operator (its source claim was bounded when it was recorded;
// secrets and the tenant's refusals still hold), sealed under a key of the
// target's own, and proposed there with its origin. Nothing in the target
// is served until it is accepted.
import type { MemoryEntry } from '../../domain/entry/entry.js';
import { OPTIONAL_CLEAR_FIELDS, presentFields } from '../../domain/entry/fields.js';
import type { PromotionOrigin } from '../../domain/events/promotion-events.js';
import { subjectStreamName } from '../../domain/events/stream-names.js';
import type { SubjectEventData } from '../../domain/events/subject-events.js';
import type { GateRecord } from '../../domain/events/write-gate-events.js';
import { isShared, namespaceOf } from '../../domain/namespace/namespace.js';
import { requirePromoteRequest } from '../../domain/namespace/promotion-request.js';
import { RESERVED_RULE_IDS } from '../../domain/policy/index.js';
import { reject, type Result } from '../../domain/result/result.js';
import { promotableEntry } from '../../domain/subject/promotion.js';
import { InvalidInput } from '../../domain/validation/invalid-input.js';
import { instantOf } from '../../domain/values/instant.js';
import type { StoredEvent } from '../../infrastructure/event-store/port.js';
import type { KeyStore, SubjectRef } from '../../infrastructure/key-store/port.js';
import { openSealedFields } from '../../reads/opened/opened-entries.js';
import { placedEvent } from '../../reads/streams/placed-event.js';
import { recordedPlace } from '../../reads/streams/subject-repository.js';
import { derivedId, newCommandId } from '../ids/command-ids.js';
import type { CommandContext, Ledger } from '../ledger.js';
import { gateEntry, OPERATOR_CREDENTIAL, writePolicyFor } from '../policy/gate-write.js';
import { actorOf } from '../record.js';
import { executeSubjectCommand } from '../subject/execute.js';
import { sealEntry } from '../subject/seal-entry.js';

export interface PromotionResult {
  /** The candidate's id in the target (the memory id it keeps when accepted). */
  readonly memoryId: string;
  readonly decision: 'CANDIDATE';
  readonly from: PromotionOrigin;
  readonly to: string;
  readonly gate: GateRecord;
  readonly expiresAt: string;
  readonly replayed: boolean;
}

/** `context.subject` is the source; the request names the memory, the shared namespace and why. */
export async function promoteMemory(ledger: Ledger, context: CommandContext, input: unknown): Promise<Result<PromotionResult>> {
  const request = requirePromoteRequest(input);
  if (isShared(namespaceOf(context.subject)))
    throw new InvalidInput('subject', 'is a shared namespace: a promotion copies a private memory into a shared one');
  const stream = subjectStreamName(context.tenant, context.subject);
  const loaded = await ledger.subjects.load(stream);
  if (loaded.revision < 0) return reject('subject_not_found', `subject ${context.subject} has no events`, 'subject');
  const entry = promotableEntry(loaded.state, request.memoryId);
  if ('ok' in entry) return entry;
  const targetStream = subjectStreamName(context.tenant, request.to);
  if ((await ledger.subjects.load(targetStream)).state.forgotten)
    return reject('subject_forgotten', `subject ${request.to} was forgotten: it takes no more writes`, 'to');
  const source = { tenant: context.tenant, subject: context.subject };
  const recorded = await placedEvent(ledger.eventStore, loaded, recordedPlace(request.memoryId));
  const opened = await openRecorded(ledger.keyStore, source, recorded, request.memoryId);
  if (!opened) return reject('memory_not_found', `memory ${request.memoryId} can no longer be read (erased)`, 'memoryId');

  const policy = await writePolicyFor(ledger, context.tenant);
  const now = ledger.clock();
  const operator = { ...context, subject: request.to, credential: OPERATOR_CREDENTIAL };
  const gated = gateEntry(opened, operator, {}, policy, now);
  if (gated.status === 'refused') return gated.rejection;
  const gate: GateRecord = {
    ...gated.gate,
    ruleId: RESERVED_RULE_IDS.promotion,
    reasons: [...gated.gate.reasons, 'promotion_requires_review'].slice(0, 220),
  };
  const expiresAt =
    gated.status === 'candidate' ? gated.expiresAt : instantOf(new Date(now.getTime() + policy.policy.candidateExpiry * 1000));

  const commandId = context.idempotencyKey ?? newCommandId();
  const as = derivedId('m', commandId, 'promotion');
  const asked = { operation: 'promote', memoryId: request.memoryId, to: request.to, reason: request.reason };
  const requestedBy = context.actor !== undefined ? { requestedBy: context.actor } : {};
  const promoted = await executeSubjectCommand(ledger, { stream, commandId, request: asked, ...actorOf(context) }, (_l, at) => ({
    type: 'PromoteMemory',
    memoryId: request.memoryId,
    to: request.to,
    as,
    reason: request.reason,
    ...requestedBy,
    now: at,
  }));
  if (!promoted.ok) return promoted;
  const from: PromotionOrigin = { subject: context.subject, memoryId: entry.memoryId, sequence: entry.sequence };
  const sealed = await sealEntry(ledger.keyStore, { tenant: context.tenant, subject: request.to }, as, gated.entry);
  if (sealed.status !== 'sealed') return reject('subject_forgotten', `subject ${request.to} was forgotten`, 'to');
  const envelope = { stream: targetStream, commandId: `${commandId}:promotion`, request: asked, ...actorOf(context) };
  const proposed = await executeSubjectCommand(ledger, envelope, (_l, at) => ({
    type: 'ProposeMemory',
    memoryId: as,
    entry: sealed.entry,
    gate,
    expiresAt,
    promotion: { from, reason: request.reason, ...requestedBy },
    now: at,
  }));
  if (!proposed.ok) return proposed;
  ledger.onWriteGated?.('candidate', RESERVED_RULE_IDS.promotion);
  const event = proposed.result.events.find((e) => e.event.type === 'MemoryProposed')?.event.data as
    SubjectEventData<'MemoryProposed'> | undefined;
  return {
    ok: true,
    result: {
      memoryId: as,
      decision: 'CANDIDATE',
      from,
      to: request.to,
      gate: event?.gate ?? gate,
      expiresAt: event?.expiresAt ?? expiresAt,
      replayed: promoted.result.replayed && proposed.result.replayed,
    },
  };
}

/**
 * The recorded entry, its sealed fields opened in memory, from its
 * MemoryRecorded (read alone at the place the subject's fold keeps for it:
 * the fold saw every event of the stream, so a memory without a place was
 * never recorded here; the stream used to be scanned from its start for
 * it); undefined when its key is gone.
 */
async function openRecorded(
  keys: KeyStore,
  ref: SubjectRef,
  stored: StoredEvent | undefined,
  memoryId: string,
): Promise<MemoryEntry | undefined> {
  if (stored?.type !== 'MemoryRecorded') return undefined;
  const data = stored.data as SubjectEventData<'MemoryRecorded'>;
  if (data.memoryId !== memoryId) return undefined;
  const opened = openSealedFields(data, await keys.memoryKey(ref, memoryId), { ...ref, memoryId });
  if (!opened) return undefined;
  return {
    kind: data.kind,
    key: data.key,
    value: opened.value,
    polarity: data.polarity,
    ...(opened.content !== undefined ? { content: opened.content } : {}),
    ...(opened.anticipatedQueries !== undefined ? { anticipatedQueries: opened.anticipatedQueries } : {}),
    source: data.source,
    sensitivity: data.sensitivity,
    scopes: data.scopes,
    ...presentFields(data, OPTIONAL_CLEAR_FIELDS),
  };
}
