// Forgetting in SQL: key columns set to NULL, rows kept as tombstones. Run
// inside one transaction. The subject's lock (exclusive) waits for key-making
// transactions to finish and keeps new ones out until the forget commits; it
// also serializes forgets of one subject, so batches cannot deadlock on rows.
import type pg from 'pg';
import type { Queryable } from './postgres-rows.js';
import { lockSubjectForForgetting } from './postgres-subject-lock.js';
import type { SubjectRef } from './port.js';

export interface Tombstoned {
  /** True when anything went from live (or unknown) to forgotten. */
  readonly changed: boolean;
  readonly destroyedKeyIds: string[];
  readonly forgottenAt: Date;
}

function keyIds(rows: ReadonlyArray<{ key_id: string | null }>): string[] {
  return rows.flatMap((row) => (row.key_id === null ? [] : [row.key_id]));
}

export async function tombstoneMemories(db: Queryable, ref: SubjectRef, memoryIds: readonly string[]): Promise<Tombstoned> {
  await lockSubjectForForgetting(db, ref);
  const sorted = [...memoryIds].sort();
  // Ids that never had a key get a tombstone too, so they can never get one.
  const inserted = await db.query(
    `INSERT INTO key_store_memories (tenant, subject, memory_id, forgotten_at)
     SELECT $1, $2, id, now() FROM unnest($3::text[]) AS id
     ON CONFLICT (tenant, subject, memory_id) DO NOTHING`,
    [ref.tenant, ref.subject, sorted],
  );
  const destroyed = await db.query<{ key_id: string | null }>(
    `UPDATE key_store_memories SET wrapped_key = NULL, master_key_id = NULL, forgotten_at = now()
     WHERE tenant = $1 AND subject = $2 AND memory_id = ANY($3::text[]) AND forgotten_at IS NULL
     RETURNING key_id`,
    [ref.tenant, ref.subject, sorted],
  );
  // In this transaction: a recall that finds the epoch unchanged knows no memory key of the subject was destroyed (migration 0013).
  await db.query('UPDATE key_store_subjects SET memory_key_epoch = memory_key_epoch + 1 WHERE tenant = $1 AND subject = $2', [
    ref.tenant,
    ref.subject,
  ]);
  const when = await db.query<{ at: Date }>(
    `SELECT max(forgotten_at) AS at FROM key_store_memories WHERE tenant = $1 AND subject = $2 AND memory_id = ANY($3::text[])`,
    [ref.tenant, ref.subject, sorted],
  );
  return {
    changed: (inserted.rowCount ?? 0) + (destroyed.rowCount ?? 0) > 0,
    destroyedKeyIds: keyIds(destroyed.rows),
    forgottenAt: when.rows[0]!.at,
  };
}

export async function tombstoneSubject(db: Queryable, ref: SubjectRef): Promise<Tombstoned> {
  await lockSubjectForForgetting(db, ref);
  const inserted = await db.query(
    `INSERT INTO key_store_subjects (tenant, subject, forgotten_at) VALUES ($1, $2, now())
     ON CONFLICT (tenant, subject) DO NOTHING`,
    [ref.tenant, ref.subject],
  );
  const subject = await db.query<{ key_id: string | null }>(
    `UPDATE key_store_subjects SET wrapped_secret = NULL, master_key_id = NULL, forgotten_at = now(), memory_key_epoch = memory_key_epoch + 1
     WHERE tenant = $1 AND subject = $2 AND forgotten_at IS NULL RETURNING key_id`,
    [ref.tenant, ref.subject],
  );
  // Without the subject secret these are undecryptable already; destroying
  // them anyway leaves nothing that a leaked old secret could open.
  const memories = await db.query<{ key_id: string | null }>(
    `UPDATE key_store_memories SET wrapped_key = NULL, master_key_id = NULL, forgotten_at = now()
     WHERE tenant = $1 AND subject = $2 AND forgotten_at IS NULL RETURNING key_id`,
    [ref.tenant, ref.subject],
  );
  const when = await db.query<{ at: Date }>(`SELECT forgotten_at AS at FROM key_store_subjects WHERE tenant = $1 AND subject = $2`, [
    ref.tenant,
    ref.subject,
  ]);
  return {
    changed: (inserted.rowCount ?? 0) + (subject.rowCount ?? 0) + (memories.rowCount ?? 0) > 0,
    destroyedKeyIds: [...keyIds(subject.rows), ...keyIds(memories.rows)],
    forgottenAt: when.rows[0]!.at,
  };
}

/**
 * Writes the tables anew so that no relation file keeps the old row versions
 * of forgotten keys (plain VACUUM frees their space without overwriting it).
 * Takes an ACCESS EXCLUSIVE lock on each table while it runs; cannot run in a
 * transaction block.
 */
export type KeyTable = 'key_store_subjects' | 'key_store_memories' | 'key_store_artifacts';

export async function rewriteTables(pool: pg.Pool, tables: readonly KeyTable[]): Promise<void> {
  if (tables.length === 0) return;
  const client = await pool.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      await olderSnapshotsEnded(client);
      // A snapshot held anywhere on the server (even a backend still connecting, which has no database yet)
      // makes the rewrite copy the versions it could still see: VERBOSE says how many ("N dead row versions
      // cannot be removed yet"), and the rewrite runs again, a bounded number of times.
      const kept: number[] = [];
      const onNotice = (notice: { readonly message?: string; readonly detail?: string }) => {
        const match = /(\d+) dead row versions cannot be removed yet/.exec(`${notice.message ?? ''} ${notice.detail ?? ''}`);
        if (match) kept.push(Number(match[1]));
      };
      client.on('notice', onNotice);
      try {
        await client.query(`VACUUM (FULL, VERBOSE) ${tables.join(', ')}`);
      } finally {
        client.off('notice', onNotice);
      }
      if (kept.every((n) => n === 0) || attempt >= REWRITE_ATTEMPTS) return;
      await new Promise((resolve) => setTimeout(resolve, REWRITE_RETRY_MS));
    }
  } finally {
    client.release();
  }
}

const REWRITE_ATTEMPTS = 10;
const REWRITE_RETRY_MS = 100;

const SNAPSHOT_WAIT_MS = 5_000;
const SNAPSHOT_POLL_MS = 20;

/**
 * VACUUM FULL copies a deleted row version that a snapshot older than the
 * delete may still see (an autovacuum ANALYZE, a long read in this database):
 * the forgotten key would stay in the new file. Waits, bounded, until every
 * snapshot and transaction of this database is younger than the deletes
 * already committed; past the bound the rewrite runs anyway (the next one
 * removes what this one had to keep).
 */
async function olderSnapshotsEnded(db: Queryable): Promise<void> {
  // The first transaction id not yet given out: every committed delete is below it.
  const marker = await db.query<{ xid: string }>(
    'SELECT (pg_snapshot_xmax(pg_current_snapshot())::text::numeric % 4294967296)::text AS xid',
  );
  const xid = marker.rows[0]!.xid;
  const until = Date.now() + SNAPSHOT_WAIT_MS;
  for (;;) {
    const older = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()
          AND ((backend_xmin IS NOT NULL AND age(backend_xmin) > age($1::xid))
            OR (backend_xid IS NOT NULL AND age(backend_xid) > age($1::xid)))`,
      [xid],
    );
    if (older.rows[0]!.n === 0 || Date.now() > until) return;
    await new Promise((resolve) => setTimeout(resolve, SNAPSHOT_POLL_MS));
  }
}
