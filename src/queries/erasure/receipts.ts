// The deletion receipts of a subject, for auditors: what was erased (ids,
// counts), when, at whose request and why, and how its verification went —
// never what the content was. Read from the subject stream itself.
import { readErasureHistory, type DeletionReceipt } from '../../reads/erasure/history.js';
import { subjectStreamName } from '../../domain/events/stream-names.js';
import type { ReadSide } from '../read-side.js';

export interface SubjectReceipts {
  readonly tenant: string;
  readonly subject: string;
  /** In the order they were issued. */
  readonly receipts: readonly DeletionReceipt[];
}

export async function subjectReceipts(read: Pick<ReadSide, 'eventStore'>, tenant: string, subject: string): Promise<SubjectReceipts> {
  const history = await readErasureHistory(read.eventStore, subjectStreamName(tenant, subject));
  return {
    tenant,
    subject,
    receipts: history.receipts.map((r) => ({ tenant, subject, ...r.data, revision: r.revision, recordedAt: r.recordedAt })),
  };
}
