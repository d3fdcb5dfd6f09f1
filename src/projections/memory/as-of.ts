// The bitemporal question: what did the system believe at system time T
// about business time V? The versions of a memory partition system time, so
// at most one version of each memory is current at T; of those, the ones
// whose valid window holds V and that were still held true (active, or
// superseded for the window they kept) are the answer. "At T" includes every
// event committed at or before T (DESIGN section 7).
import type { Kysely, Selectable } from 'kysely';
import type { MemoryProjectionDb, MemoryVersionsTable } from './tables.js';

export interface BeliefQuery {
  readonly tenant: string;
  readonly subject: string;
  readonly key?: string;
  /** System (transaction) time. */
  readonly systemTime: Date;
  /** Business (valid) time. */
  readonly validTime: Date;
}

export const BELIEVED_STATUSES = ['active', 'superseded'] as const;

export async function believedAt(tables: Kysely<MemoryProjectionDb>, q: BeliefQuery): Promise<Selectable<MemoryVersionsTable>[]> {
  const T = q.systemTime;
  const V = q.validTime;
  let query = tables
    .selectFrom('memory_versions')
    .selectAll()
    .where('tenant', '=', q.tenant)
    .where('subject', '=', q.subject)
    .where('tx_from', '<=', T)
    .where((eb) => eb.or([eb('tx_to', 'is', null), eb('tx_to', '>', T)]))
    .where('valid_from', '<=', V)
    .where((eb) => eb.or([eb('valid_to', 'is', null), eb('valid_to', '>', V)]))
    .where('status', 'in', BELIEVED_STATUSES);
  if (q.key !== undefined) query = query.where('key', '=', q.key);
  return query.orderBy('sequence').execute();
}
