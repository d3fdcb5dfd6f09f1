// Rows of the key store tables and the SQL that reads them. Key columns are
// NULL on tombstones (forgotten keys); see the key store migration.
import type pg from 'pg';
import type { SubjectRef } from './port.js';

export type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

export interface SubjectRow {
  readonly key_id: string | null;
  readonly master_key_id: string | null;
  readonly wrapped_secret: Buffer | null;
  readonly created_at: Date | null;
  readonly forgotten_at: Date | null;
}

export interface MemoryRow {
  readonly memory_id: string;
  readonly key_id: string | null;
  readonly subject_key_id: string | null;
  readonly master_key_id: string | null;
  readonly wrapped_key: Buffer | null;
  readonly created_at: Date | null;
  readonly forgotten_at: Date | null;
}

const SUBJECT_COLUMNS = 'key_id, master_key_id, wrapped_secret, created_at, forgotten_at';
const MEMORY_COLUMNS = 'memory_id, key_id, subject_key_id, master_key_id, wrapped_key, created_at, forgotten_at';

export async function selectSubject(db: Queryable, ref: SubjectRef): Promise<SubjectRow | undefined> {
  const result = await db.query<SubjectRow>(`SELECT ${SUBJECT_COLUMNS} FROM key_store_subjects WHERE tenant = $1 AND subject = $2`, [
    ref.tenant,
    ref.subject,
  ]);
  return result.rows[0];
}

/** Inserts a live subject row unless one (live or tombstone) exists; true when it inserted. */
export async function insertSubject(db: Queryable, ref: SubjectRef, keyId: string, masterKeyId: string, wrapped: Buffer): Promise<boolean> {
  const result = await db.query(
    `INSERT INTO key_store_subjects (tenant, subject, key_id, master_key_id, wrapped_secret, created_at)
     VALUES ($1, $2, $3, $4, $5, now()) ON CONFLICT (tenant, subject) DO NOTHING`,
    [ref.tenant, ref.subject, keyId, masterKeyId, wrapped],
  );
  return result.rowCount === 1;
}

export async function selectMemories(db: Queryable, ref: SubjectRef, memoryIds: readonly string[]): Promise<Map<string, MemoryRow>> {
  const result = await db.query<MemoryRow>(
    `SELECT ${MEMORY_COLUMNS} FROM key_store_memories WHERE tenant = $1 AND subject = $2 AND memory_id = ANY($3::text[])`,
    [ref.tenant, ref.subject, memoryIds],
  );
  return new Map(result.rows.map((row) => [row.memory_id, row]));
}

/** A subject's row and those of some of its memories, in one statement (so under one snapshot). */
export async function selectSubjectWithMemories(
  db: Queryable,
  ref: SubjectRef,
  memoryIds: readonly string[],
): Promise<{ readonly subject: SubjectRow | undefined; readonly memories: Map<string, MemoryRow> }> {
  const result = await db.query<MemoryRow & { readonly row_kind: 'subject' | 'memory' }>({
    name: 'key_store_subject_with_memories',
    text: `SELECT 'subject' AS row_kind, NULL AS memory_id, key_id, NULL AS subject_key_id, master_key_id,
                  wrapped_secret AS wrapped_key, created_at, forgotten_at
             FROM key_store_subjects WHERE tenant = $1 AND subject = $2
           UNION ALL
           SELECT 'memory', ${MEMORY_COLUMNS}
             FROM key_store_memories WHERE tenant = $1 AND subject = $2 AND memory_id = ANY($3::text[])`,
    values: [ref.tenant, ref.subject, memoryIds],
  });
  let subject: SubjectRow | undefined;
  const memories = new Map<string, MemoryRow>();
  for (const { row_kind, wrapped_key, ...row } of result.rows) {
    if (row_kind === 'subject') subject = { ...row, wrapped_secret: wrapped_key };
    else memories.set(row.memory_id, { ...row, wrapped_key });
  }
  return { subject, memories };
}

export async function selectAllMemories(db: Queryable, ref: SubjectRef): Promise<MemoryRow[]> {
  const result = await db.query<MemoryRow>(
    `SELECT ${MEMORY_COLUMNS} FROM key_store_memories WHERE tenant = $1 AND subject = $2 ORDER BY created_at NULLS LAST, memory_id`,
    [ref.tenant, ref.subject],
  );
  return result.rows;
}

export interface NewMemoryRow {
  readonly memoryId: string;
  readonly keyId: string;
  readonly subjectKeyId: string;
  readonly masterKeyId: string;
  readonly wrapped: Buffer;
}

/** Inserts a live memory row unless one (live or tombstone) exists; true when it inserted. */
export async function insertMemory(db: Queryable, ref: SubjectRef, row: NewMemoryRow): Promise<boolean> {
  const result = await db.query(
    `INSERT INTO key_store_memories (tenant, subject, memory_id, key_id, subject_key_id, master_key_id, wrapped_key, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now()) ON CONFLICT (tenant, subject, memory_id) DO NOTHING`,
    [ref.tenant, ref.subject, row.memoryId, row.keyId, row.subjectKeyId, row.masterKeyId, row.wrapped],
  );
  return result.rowCount === 1;
}
