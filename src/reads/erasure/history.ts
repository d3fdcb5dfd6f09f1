// What an erasure and the retention sweeper need from the subject stream
// beyond the folded state: when each entry was recorded (as-of and replay
// are checked at those moments; TTLs count from then), when it fell due,
// which entries a receipt already names, and the receipts themselves.
import { decodeStoredEvent } from '../../domain/events/decode.js';
import type { SubjectEventData } from '../../domain/events/subject-events.js';
import type { EventStore } from '../../infrastructure/event-store/port.js';

const PAGE = 4096;
const READ = new Set(['MemoryRecorded', 'MemoryExpired', 'DeletionReceiptIssued', 'MemoryPromoted']);

export interface StoredReceipt {
  readonly data: SubjectEventData<'DeletionReceiptIssued'>;
  readonly revision: number;
  readonly recordedAt: string;
}

/** A receipt as an erasure answers it: the event's data, where it is and when it was stored. */
export interface DeletionReceipt extends SubjectEventData<'DeletionReceiptIssued'> {
  readonly tenant: string;
  readonly subject: string;
  readonly revision: number;
  readonly recordedAt: string;
}

export interface ErasureHistory {
  readonly recordedAt: ReadonlyMap<string, string>;
  /** The due instant each MemoryExpired named. */
  readonly expiredDueAt: ReadonlyMap<string, string>;
  /** Memory ids some receipt names. */
  readonly receipted: ReadonlySet<string>;
  /** True when a subject-wide receipt was issued. */
  readonly subjectReceipted: boolean;
  readonly receipts: readonly StoredReceipt[];
  /** Copies proposed in shared namespaces (MemoryPromoted), by the source memory id: an erasure of the source reaches them. */
  readonly promotions: ReadonlyMap<string, ReadonlyArray<{ readonly to: string; readonly as: string }>>;
}

export async function readErasureHistory(store: EventStore, stream: string): Promise<ErasureHistory> {
  const recordedAt = new Map<string, string>();
  const expiredDueAt = new Map<string, string>();
  const receipted = new Set<string>();
  const receipts: StoredReceipt[] = [];
  const promotions = new Map<string, Array<{ to: string; as: string }>>();
  let subjectReceipted = false;
  for (let from = 0; ; from += PAGE) {
    const page = await store.readStream(stream, { fromRevision: from, maxCount: PAGE });
    for (const stored of page) {
      if (!READ.has(stored.type)) continue;
      const event = decodeStoredEvent(stored);
      if (event.type === 'MemoryPromoted') {
        const copies = promotions.get(event.data.memoryId) ?? [];
        promotions.set(event.data.memoryId, [...copies, { to: event.data.to, as: event.data.as }]);
      }
      if (event.type === 'MemoryRecorded') recordedAt.set(event.data.memoryId, stored.recordedAt.toISOString());
      if (event.type === 'MemoryExpired') expiredDueAt.set(event.data.memoryId, event.data.expiresAt);
      if (event.type === 'DeletionReceiptIssued') {
        for (const id of event.data.memoryIds) receipted.add(id);
        if (event.data.scope === 'subject') subjectReceipted = true;
        receipts.push({ data: event.data, revision: stored.streamRevision, recordedAt: stored.recordedAt.toISOString() });
      }
    }
    if (page.length < PAGE) break;
  }
  return { recordedAt, expiredDueAt, receipted, subjectReceipted, receipts, promotions };
}
