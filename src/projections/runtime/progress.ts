// How far a rebuild is, for the progress bar: the port has no event count,
// so the total is estimated from positions. A rebuild reads from position 0,
// and the prepare part of a position grows with the log (PostgreSQL: the
// global sequence number; EventStoreDB: the byte offset), so the share of
// the head's prepare position reached approximates the share of events done.
import type { Position } from '../../infrastructure/event-store/port.js';

export function estimateTotalEvents(applied: number, checkpoint: Position, head: Position | undefined): number {
  if (!head || head.prepare <= 0n) return applied;
  const share = Math.min(1, Number(checkpoint.prepare) / Number(head.prepare));
  return share <= 0 ? applied : Math.max(applied, Math.round(applied / share));
}
