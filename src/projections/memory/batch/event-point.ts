// Where an event sits in the log and in time: what every row it writes records.
import type { StoredEvent } from '../../../infrastructure/event-store/port.js';

export interface EventPoint {
  readonly eventId: string;
  readonly type: string;
  /** The store's commit time (transaction time), ISO at millisecond precision. */
  readonly tx: string;
  readonly commit: string;
  readonly prepare: string;
  readonly revision: number;
}

export function pointOf(stored: StoredEvent): EventPoint {
  return {
    eventId: stored.id,
    type: stored.type,
    tx: stored.recordedAt.toISOString(),
    commit: stored.position.commit.toString(),
    prepare: stored.position.prepare.toString(),
    revision: stored.streamRevision,
  };
}

/** Log order of two points. */
export function comparePoints(a: Pick<EventPoint, 'commit' | 'prepare'>, b: Pick<EventPoint, 'commit' | 'prepare'>): number {
  const ac = BigInt(a.commit);
  const bc = BigInt(b.commit);
  if (ac !== bc) return ac < bc ? -1 : 1;
  const ap = BigInt(a.prepare);
  const bp = BigInt(b.prepare);
  return ap === bp ? 0 : ap < bp ? -1 : 1;
}

/** Keys of subjects and memories in the batch's maps (ids cannot contain NUL). */
export const subjectKey = (tenant: string, subject: string): string => `${tenant}\u0000${subject}`;
export const memoryKey = (tenant: string, subject: string, memoryId: string): string => `${tenant}\u0000${subject}\u0000${memoryId}`;
