// One projector per schema: the owner holds a session-level advisory lock on
// the very connection that writes the schema's batches. If the process dies
// or its connection drops, PostgreSQL releases the lock with the session (and
// rolls back the batch in flight), so another projector can take over; and a
// projector cannot keep writing after losing the lock, since the writes and
// the lock share one connection.
import { sql } from 'kysely';
import { ownerKey } from './lock-keys.js';
import type { ProjectionsKysely } from './schema-handles.js';

export type Owned<T> = { readonly owned: true; readonly value: T } | { readonly owned: false };

/** Runs `work` on one pinned connection that owns `schema`, or returns {owned: false} at once when another process owns it. */
export async function tryOwn<T>(db: ProjectionsKysely, schema: string, work: (conn: ProjectionsKysely) => Promise<T>): Promise<Owned<T>> {
  return db.connection().execute(async (conn) => {
    const { rows } = await sql<{ got: boolean }>`select pg_try_advisory_lock(${ownerKey(schema)}) as got`.execute(conn);
    if (!rows[0]?.got) return { owned: false };
    try {
      return { owned: true, value: await work(conn) };
    } finally {
      await sql`select pg_advisory_unlock(${ownerKey(schema)})`.execute(conn).catch(() => undefined);
    }
  });
}

/** As tryOwn, for a connection that already holds the owner lock (taken by createSchema); releases it at the end. */
export async function whileOwning<T>(conn: ProjectionsKysely, schema: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } finally {
    await sql`select pg_advisory_unlock(${ownerKey(schema)})`.execute(conn).catch(() => undefined);
  }
}
