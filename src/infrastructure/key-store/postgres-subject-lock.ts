// A per-subject advisory lock, held to the end of the transaction: shared by
// transactions that make keys, exclusive for those that forget. PostgreSQL's
// lock manager queues a new shared request behind a waiting exclusive one, so
// a steady stream of writers cannot starve a forget (row locks FOR SHARE can).
import type { Queryable } from './postgres-rows.js';
import type { SubjectRef } from './port.js';

// The unit separator cannot occur in ids, so distinct subjects give distinct texts.
export const lockText = (ref: SubjectRef) => `memledger/key-store\u001f${ref.tenant}\u001f${ref.subject}`;

export async function lockSubjectForMaking(db: Queryable, ref: SubjectRef): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock_shared(hashtextextended($1, 0))', [lockText(ref)]);
}

export async function lockSubjectForForgetting(db: Queryable, ref: SubjectRef): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [lockText(ref)]);
}
