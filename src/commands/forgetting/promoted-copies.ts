// Erasing a memory erases the copies promoted from it (issue 19; seed 003:
// "deletion that cannot find derived records in a shared namespace"). The
// source stream's MemoryPromoted events name each copy (its namespace and
// the candidate's id, the id it kept when accepted); each copy is erased by
// its own erasure on its own stream (keys, tombstone, checks, receipt), the
// source's receipt names them, and a check of the source's verification
// fails unless every copy is gone. A copy never promotes again (a shared
// namespace is never a promotion's source), so this does not recurse.
import type { PromotedCopyOutcome } from '../../domain/events/promotion-events.js';
import type { SubjectEventData } from '../../domain/events/subject-events.js';
import type { Result } from '../../domain/result/result.js';
import type { DeletionReceipt, ErasureHistory } from '../../reads/erasure/history.js';
import { passedOrFailed, type ErasureCheck } from '../../reads/erasure/verification.js';
import type { CommandContext } from '../ledger.js';
import type { ErasureRequest } from './scope.js';

export type PromotedCopy = NonNullable<SubjectEventData<'DeletionReceiptIssued'>['promotedCopies']>[number];

/** One copy's erasure, as erase() runs it on the copy's subject. */
export type EraseCopy = (context: CommandContext, memoryId: string, reason: string) => Promise<Result<DeletionReceipt>>;

/** The copies the erased entries were promoted into (every copy of the subject's, for a subject erasure). */
export function copiesOf(
  history: Pick<ErasureHistory, 'promotions'>,
  scope: ErasureRequest['scope'],
  memoryIds: readonly string[],
): Array<{ from: string; to: string; as: string }> {
  const from = scope === 'subject' ? [...history.promotions.keys()] : memoryIds.filter((id) => history.promotions.has(id));
  return from.flatMap((id) => (history.promotions.get(id) ?? []).map((copy) => ({ from: id, ...copy })));
}

export async function erasePromotedCopies(
  context: CommandContext,
  commandId: string,
  copies: ReadonlyArray<{ from: string; to: string; as: string }>,
  eraseCopy: EraseCopy,
): Promise<PromotedCopy[]> {
  const done: PromotedCopy[] = [];
  for (const copy of copies) {
    const copyContext: CommandContext = { ...context, subject: copy.to, idempotencyKey: `${commandId}:copy:${copy.to}:${copy.as}` };
    const reason = `promoted from ${context.subject} memory ${copy.from}, erased with it`;
    const erased = await eraseCopy(copyContext, copy.as, reason);
    done.push({ subject: copy.to, memoryId: copy.as, ...outcomeOf(erased) });
  }
  return done;
}

function outcomeOf(erased: Result<DeletionReceipt>): { outcome: PromotedCopyOutcome; receiptId?: string } {
  if (erased.ok)
    return { outcome: erased.result.verification?.status === 'failed' ? 'failed' : 'erased', receiptId: erased.result.receiptId };
  switch (erased.rejection.code) {
    case 'already_forgotten':
      return { outcome: 'already_erased' };
    case 'memory_not_found':
    case 'subject_not_found':
      return { outcome: 'not_proposed' };
    default:
      return { outcome: 'failed' };
  }
}

/** The source's check: every copy erased now, before, or never proposed. */
export function promotedCopiesCheck(copies: readonly PromotedCopy[]): ErasureCheck {
  return {
    path: 'promoted_copies',
    run: () => {
      const failed = copies.filter((c) => c.outcome === 'failed');
      return Promise.resolve(
        passedOrFailed(
          copies.length,
          failed.length,
          failed.length > 0 ? `not erased: ${failed.map((c) => `${c.subject}/${c.memoryId}`).join(', ')}` : undefined,
        ),
      );
    },
  };
}
