// The erasure pipeline (seed 003's delete pipeline; DESIGN section 8):
//   1. resolve which entries the request reaches (scope.ts);
//   2. take the search needles while the content can still be read;
//   3. destroy the keys: the entries' (or the subject's), and in the same
//      key-store transaction the keys of every artifact deriving from them,
//      through parent artifacts — summaries that restated the content are
//      unreadable from this moment;
//   4. append the tombstones (MemoryForgotten / SubjectForgotten): they
//      advance the inputEpoch, so the alias is behind it and the scheduler
//      rebuilds the summary from what remains; projections mark the rows
//      erased and drop their ciphertext;
//   5. let the caller catch its read models up, then run the checks;
//   6. append the deletion receipt with the counts and the verification.
// Each step can be repeated: a retry with the same idempotency key, or any
// later request for the same entries, finishes an erasure that stopped
// between steps (keys are destroyed idempotently, tombstones and receipts
// are appended once).
import { clearTextSchema } from '../../domain/events/fields.js';
import { subjectStreamName } from '../../domain/events/stream-names.js';
import { sourceRefSchema } from '../../domain/entry/source.js';
import { InvalidInput } from '../../domain/validation/invalid-input.js';
import { requireId } from '../../domain/values/ids.js';
import { derivedId, newCommandId } from '../ids/command-ids.js';
import type { CommandContext, Ledger } from '../ledger.js';
import { actorOf } from '../record.js';
import { reject, type Result } from '../../domain/result/result.js';
import { executeSubjectCommand } from '../subject/execute.js';
import { readErasureHistory, type DeletionReceipt } from '../../reads/erasure/history.js';
import { ledgerChecks } from '../../reads/erasure/ledger-checks.js';
import { takeNeedles } from '../../reads/erasure/needles.js';
import { resolveScope, type ErasureRequest } from './scope.js';
import { copiesOf, erasePromotedCopies, promotedCopiesCheck } from './promoted-copies.js';
import { runChecks, type ErasureCheck } from '../../reads/erasure/verification.js';

export interface ErasureOptions {
  /** Why (stored in clear on the tombstones and the receipt: name no personal content). */
  readonly reason?: string;
  /** Checks of read paths beyond the ledger's own (the read side's, an API's). */
  readonly checks?: readonly ErasureCheck[];
  /** Runs after the tombstones are appended and before the checks: e.g. catch the projections up through `stream` (the erased subject's: the source's, or a promoted copy's). */
  readonly beforeVerify?: (stream: string) => Promise<void>;
  /** Called when a step is done (a test kills the process there to prove a later request finishes the erasure). */
  readonly afterStep?: (step: ErasureStep) => Promise<void>;
}

export type ErasureStep = 'keys_destroyed' | 'tombstoned';

/** Read models whose rows the projection marks erased, dropping ciphertext and keyed hashes. */
const ERASED_INDEXES = ['memory_versions', 'lineage_edges'] as const;
const ERASED_ARTIFACT_INDEXES = ['artifacts', 'stale_artifacts'] as const;
/** The sealed vectors beside the ledger (src/infrastructure/vectors): rows deleted. */
const VECTOR_INDEX = 'memory_vectors';

export async function erase(
  ledger: Ledger,
  context: CommandContext,
  request: ErasureRequest,
  options: ErasureOptions = {},
): Promise<Result<DeletionReceipt>> {
  const checked = validRequest(request);
  const reason = options.reason === undefined ? undefined : validReason(options.reason);
  const stream = subjectStreamName(context.tenant, context.subject);
  const ref = { tenant: context.tenant, subject: context.subject };
  const commandId = context.idempotencyKey ?? newCommandId();
  const receiptCommand = `${commandId}:receipt`;
  const requestedAt = ledger.clock().toISOString();

  const loaded = await ledger.subjects.load(stream);
  // Nothing to erase, and no receipt or tombstone to write: either would block the id forever (and another tenant's subject looks the same).
  if (loaded.revision < 0) return reject('subject_not_found', `subject ${context.subject} has no events`, 'subject');
  const history = await readErasureHistory(ledger.eventStore, stream);
  const done = loaded.commands.has(receiptCommand)
    ? history.receipts.find((r) => r.data.receiptId === derivedId('r', commandId, 'receipt'))
    : undefined;
  if (done)
    return {
      ok: true,
      result: { tenant: ref.tenant, subject: ref.subject, ...done.data, revision: done.revision, recordedAt: done.recordedAt },
    };
  const resolved = resolveScope(loaded.state, history, checked);
  if (!resolved.ok) return resolved;
  const memoryIds = resolved.memoryIds;
  if (memoryIds.length === 0 && checked.scope !== 'subject')
    return { ok: false, rejection: { code: 'memory_not_found', message: 'no entry left to erase', field: 'memoryIds' } };

  const needles = await takeNeedles(ledger.eventStore, ledger.keyStore, ref, stream, loaded.revision, loaded.state, memoryIds);
  const destroyed =
    checked.scope === 'subject' ? await ledger.keyStore.forgetSubject(ref) : await ledger.keyStore.forgetMemories(ref, memoryIds);
  // Vectors are sealed under the destroyed keys (unreadable already); their rows go too.
  await ledger.retrieval?.vectors.forget(ref, checked.scope === 'subject' ? undefined : memoryIds);
  await options.afterStep?.('keys_destroyed');

  const envelope = { stream, commandId, ...actorOf(context) };
  const tombstones = await executeSubjectCommand(ledger, envelope, (_loaded, now) =>
    checked.scope === 'subject'
      ? { type: 'EraseSubject', ...(reason ? { reason } : {}), now }
      : { type: 'EraseMemories', memoryIds: [...memoryIds], ...(reason ? { reason } : {}), now },
  );
  if (!tombstones.ok) return tombstones;
  await options.afterStep?.('tombstoned');
  const copies = await erasePromotedCopies(context, commandId, copiesOf(history, checked.scope, memoryIds), (copy, memoryId, why) =>
    erase(ledger, copy, { scope: 'memory', memoryId }, { ...options, reason: why, afterStep: undefined }),
  );

  const keyIds = await erasedKeyIds(ledger, ref, checked.scope, memoryIds);
  const artifacts =
    checked.scope === 'subject'
      ? await ledger.keyStore.listArtifactKeyIds(ref)
      : await ledger.keyStore.artifactsDerivedFrom(ref, memoryIds);
  const artifactIds = [...new Set([...artifacts.map((a) => a.artifactId), ...(destroyed.invalidatedArtifactIds ?? [])])].sort();
  const destroyedKeyIds = [...new Set([...keyIds, ...artifacts.flatMap((a) => (a.keyId === null ? [] : [a.keyId]))])];

  await options.beforeVerify?.(stream);
  const target = {
    ref,
    scope: checked.scope,
    memoryIds,
    artifactIds,
    keyIds: destroyedKeyIds,
    needles,
    recordedAt: memoryIds.flatMap((id) => history.recordedAt.get(id) ?? []),
  };
  const checks = [...ledgerChecks(ledger), ...(options.checks ?? []), ...(copies.length > 0 ? [promotedCopiesCheck(copies)] : [])];
  const verification = await runChecks(checks, target, ledger.clock);

  const receipt = {
    receiptId: derivedId('r', commandId, 'receipt'),
    scope: checked.scope,
    memoryIds: [...memoryIds],
    destroyedKeyIds,
    invalidatedArtifactIds: artifactIds,
    ...(checked.scope === 'source_ref' ? { sourceRef: checked.sourceRef } : {}),
    ...(reason ? { reason } : {}),
    ...(context.actor ? { requestedBy: context.actor } : {}),
    requestedAt,
    canonicalRecords: memoryIds.length,
    derivedRecordsInvalidated: artifactIds.length,
    indexesUpdated: [
      ...(memoryIds.length > 0 ? ERASED_INDEXES : []),
      ...(memoryIds.length > 0 && ledger.retrieval ? [VECTOR_INDEX] : []),
      ...(artifactIds.length > 0 ? ERASED_ARTIFACT_INDEXES : []),
    ],
    cachesInvalidated: loaded.state.alias !== null && (memoryIds.length > 0 || checked.scope === 'subject') ? ['summary_alias'] : [],
    verification,
    ...(copies.length > 0 ? { promotedCopies: copies } : {}),
  };
  const issued = await executeSubjectCommand(ledger, { ...envelope, commandId: receiptCommand }, (_loaded, now) => ({
    type: 'IssueDeletionReceipt',
    receipt: { ...receipt, issuedAt: now },
    now,
  }));
  if (!issued.ok) return issued;
  const event = issued.result.events.find((e) => e.event.type === 'DeletionReceiptIssued');
  if (!event || event.event.type !== 'DeletionReceiptIssued') throw new Error('an erasure appended no deletion receipt');
  return {
    ok: true,
    result: {
      tenant: ref.tenant,
      subject: ref.subject,
      ...event.event.data,
      revision: event.stored.streamRevision,
      recordedAt: event.stored.recordedAt.toISOString(),
    },
  };
}

/** Key ids (memory keys, and the subject's for a subject erasure) of what was erased; tombstone rows keep them. */
async function erasedKeyIds(
  ledger: Ledger,
  ref: { tenant: string; subject: string },
  scope: ErasureRequest['scope'],
  memoryIds: readonly string[],
): Promise<string[]> {
  const listed = await ledger.keyStore.listKeyIds(ref);
  const wanted = new Set(memoryIds);
  const memories = listed.memories
    .filter((m) => scope === 'subject' || wanted.has(m.memoryId))
    .flatMap((m) => (m.keyId === null ? [] : [m.keyId]));
  const subject = scope === 'subject' && listed.subject?.keyId ? [listed.subject.keyId] : [];
  return [...subject, ...memories];
}

function validRequest(request: ErasureRequest): ErasureRequest {
  switch (request.scope) {
    case 'memory':
      return { scope: 'memory', memoryId: requireId('memory', request.memoryId) };
    case 'source_ref': {
      const parsed = sourceRefSchema.safeParse(request.sourceRef);
      if (!parsed.success) throw new InvalidInput('sourceRef', parsed.error.issues[0]?.message ?? 'is invalid');
      return { scope: 'source_ref', sourceRef: parsed.data };
    }
    case 'retention':
      return { scope: 'retention', memoryIds: request.memoryIds.map((id) => requireId('memoryIds', id)) };
    case 'subject':
      return { scope: 'subject' };
  }
}

function validReason(reason: string): string {
  const parsed = clearTextSchema.safeParse(reason);
  if (!parsed.success) throw new InvalidInput('reason', parsed.error.issues[0]?.message ?? 'is invalid');
  return parsed.data;
}
