// Erasure by crypto-shredding: destroy the key first (the content is gone the
// moment the key is), then append the tombstone and the deletion receipt. A
// crash between the two is mended by retrying with the same idempotency key:
// forgetting a key is idempotent and the receipt is appended then.
import { subjectStreamName } from '../domain/events/stream-names.js';
import type { SubjectEventData } from '../domain/events/subject-events.js';
import { requireId } from '../domain/values/ids.js';
import { derivedId, newCommandId } from './ids/command-ids.js';
import type { CommandContext, Ledger } from './ledger.js';
import { actorOf } from './record.js';
import { executeSubjectCommand, type CommandOutcome } from './subject/execute.js';

export interface DeletionReceipt extends SubjectEventData<'DeletionReceiptIssued'> {
  readonly tenant: string;
  readonly subject: string;
  readonly revision: number;
  readonly recordedAt: string;
}

export async function forgetMemory(ledger: Ledger, context: CommandContext, memoryIdInput: string, reason?: string): Promise<CommandOutcome<DeletionReceipt>> {
  const memoryId = requireId('memory', memoryIdInput);
  const stream = subjectStreamName(context.tenant, context.subject);
  const commandId = context.idempotencyKey ?? newCommandId();
  const loaded = await ledger.subjects.load(stream);
  if (!loaded.commands.has(commandId)) {
    const entry = loaded.state.entries.get(memoryId);
    if (!entry) return { ok: false, rejection: { code: 'memory_not_found', message: `memory ${memoryId} does not exist`, field: 'memory' } };
  }
  const destroyed = await ledger.keyStore.forgetMemory(context, memoryId);
  const outcome = await executeSubjectCommand(ledger, { stream, commandId, ...actorOf(context) }, (_l, now) => ({
    type: 'ForgetMemory',
    memoryId,
    receiptId: derivedId('r', commandId, 'receipt'),
    destroyedKeyIds: [...destroyed.destroyedKeyIds],
    invalidatedArtifactIds: [],
    ...(reason ? { reason } : {}),
    now,
  }));
  return receiptOf(context, outcome);
}

export async function forgetSubject(ledger: Ledger, context: CommandContext, reason?: string): Promise<CommandOutcome<DeletionReceipt>> {
  const stream = subjectStreamName(context.tenant, context.subject);
  const commandId = context.idempotencyKey ?? newCommandId();
  const destroyed = await ledger.keyStore.forgetSubject(context);
  const outcome = await executeSubjectCommand(ledger, { stream, commandId, ...actorOf(context) }, (_l, now) => ({
    type: 'ForgetSubject',
    receiptId: derivedId('r', commandId, 'receipt'),
    destroyedKeyIds: [...destroyed.destroyedKeyIds],
    invalidatedArtifactIds: [],
    ...(reason ? { reason } : {}),
    now,
  }));
  return receiptOf(context, outcome);
}

function receiptOf(context: CommandContext, outcome: Awaited<ReturnType<typeof executeSubjectCommand>>): CommandOutcome<DeletionReceipt> {
  if (!outcome.ok) return outcome;
  const issued = outcome.result.events.find((e) => e.event.type === 'DeletionReceiptIssued');
  if (!issued || issued.event.type !== 'DeletionReceiptIssued') throw new Error('an erasure appended no deletion receipt');
  return {
    ok: true,
    result: {
      tenant: context.tenant,
      subject: context.subject,
      ...issued.event.data,
      revision: issued.stored.streamRevision,
      recordedAt: issued.stored.recordedAt.toISOString(),
    },
  };
}
