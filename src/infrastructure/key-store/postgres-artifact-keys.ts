// Artifact keys in SQL (table: see the artifact keys migration). An artifact
// row records what the output derives from; forgetting memories destroys the
// keys of every artifact deriving from them, through parent artifacts, in the
// forgetting transaction itself (under the subject's exclusive lock), and a
// new artifact key is refused when anything it derives from is forgotten
// (under the shared lock). So a summary is never left readable after the
// erasure of something it restates, whichever of the two commits first.
import type { ArtifactKeyEntry, SubjectRef } from './port.js';
import type { Queryable, SubjectRow } from './postgres-rows.js';

export interface ArtifactRow {
  readonly artifact_id: string;
  readonly key_id: string | null;
  readonly subject_key_id: string | null;
  readonly master_key_id: string | null;
  readonly wrapped_key: Buffer | null;
  readonly derived_from: string[];
  readonly parent_artifact_id: string | null;
  readonly created_at: Date | null;
  readonly forgotten_at: Date | null;
}

const COLUMNS =
  'artifact_id, key_id, subject_key_id, master_key_id, wrapped_key, derived_from, parent_artifact_id, created_at, forgotten_at';

export async function selectArtifact(db: Queryable, ref: SubjectRef, artifactId: string): Promise<ArtifactRow | undefined> {
  const result = await db.query<ArtifactRow>(
    `SELECT ${COLUMNS} FROM key_store_artifacts WHERE tenant = $1 AND subject = $2 AND artifact_id = $3`,
    [ref.tenant, ref.subject, artifactId],
  );
  return result.rows[0];
}

/** What opening an artifact's key reads of its row (not what it derives from: a summary of a thousand memories names them all). */
export type OpenableArtifactRow = Omit<ArtifactRow, 'derived_from' | 'parent_artifact_id'>;

const OPENABLE_COLUMNS = ['artifact_id', 'key_id', 'subject_key_id', 'master_key_id', 'wrapped_key', 'created_at', 'forgotten_at'] as const;

/** The subject's row and the artifact's, in one round trip (a recall of a summary reads both). */
export async function selectSubjectWithArtifact(
  db: Queryable,
  ref: SubjectRef,
  artifactId: string,
): Promise<{ readonly subject: SubjectRow | undefined; readonly artifact: OpenableArtifactRow | undefined }> {
  const result = await db.query<SubjectRow & { readonly [K in keyof OpenableArtifactRow as `a_${K}`]: OpenableArtifactRow[K] | null }>({
    name: 'key_store_subject_with_artifact',
    text: `SELECT s.key_id, s.master_key_id, s.wrapped_secret, s.created_at, s.forgotten_at,
                  ${OPENABLE_COLUMNS.map((column) => `a.${column} AS a_${column}`).join(', ')}
             FROM key_store_subjects s
             LEFT JOIN key_store_artifacts a ON a.tenant = s.tenant AND a.subject = s.subject AND a.artifact_id = $3
            WHERE s.tenant = $1 AND s.subject = $2`,
    values: [ref.tenant, ref.subject, artifactId],
  });
  const row = result.rows[0];
  if (row === undefined) return { subject: undefined, artifact: undefined };
  const subject = {
    key_id: row.key_id,
    master_key_id: row.master_key_id,
    wrapped_secret: row.wrapped_secret,
    created_at: row.created_at,
    forgotten_at: row.forgotten_at,
  };
  if (row.a_artifact_id === null) return { subject, artifact: undefined };
  const artifact: OpenableArtifactRow = {
    artifact_id: row.a_artifact_id,
    key_id: row.a_key_id,
    subject_key_id: row.a_subject_key_id,
    master_key_id: row.a_master_key_id,
    wrapped_key: row.a_wrapped_key,
    created_at: row.a_created_at,
    forgotten_at: row.a_forgotten_at,
  };
  return { subject, artifact };
}

export interface NewArtifactRow {
  readonly artifactId: string;
  readonly keyId: string;
  readonly subjectKeyId: string;
  readonly masterKeyId: string;
  readonly wrapped: Buffer;
  readonly derivedFrom: readonly string[];
  readonly parentArtifactId: string | null;
}

/** Inserts a live artifact row unless one (live or tombstone) exists; true when it inserted. */
export async function insertArtifact(db: Queryable, ref: SubjectRef, row: NewArtifactRow): Promise<boolean> {
  const result = await db.query(
    `INSERT INTO key_store_artifacts (tenant, subject, artifact_id, key_id, subject_key_id, master_key_id, wrapped_key, derived_from, parent_artifact_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::text[], $9, now()) ON CONFLICT (tenant, subject, artifact_id) DO NOTHING`,
    [
      ref.tenant,
      ref.subject,
      row.artifactId,
      row.keyId,
      row.subjectKeyId,
      row.masterKeyId,
      row.wrapped,
      [...row.derivedFrom].sort(),
      row.parentArtifactId,
    ],
  );
  return result.rowCount === 1;
}

/** True when a memory the artifact would derive from, or its parent artifact, is forgotten already. */
export async function derivesFromForgotten(
  db: Queryable,
  ref: SubjectRef,
  memoryIds: readonly string[],
  parentArtifactId: string | null,
): Promise<boolean> {
  const result = await db.query(
    `SELECT 1 FROM key_store_memories WHERE tenant = $1 AND subject = $2 AND memory_id = ANY($3::text[]) AND forgotten_at IS NOT NULL
     UNION ALL
     SELECT 1 FROM key_store_artifacts WHERE tenant = $1 AND subject = $2 AND artifact_id = $4 AND forgotten_at IS NOT NULL
     LIMIT 1`,
    [ref.tenant, ref.subject, [...memoryIds], parentArtifactId],
  );
  return (result.rowCount ?? 0) > 0;
}

/** Rows of the artifacts that derive from the memories, directly or through parents. */
async function selectDerived(db: Queryable, ref: SubjectRef, memoryIds: readonly string[]): Promise<ArtifactRow[]> {
  const result = await db.query<ArtifactRow>(
    `WITH RECURSIVE hit(artifact_id) AS (
       SELECT artifact_id FROM key_store_artifacts WHERE tenant = $1 AND subject = $2 AND derived_from && $3::text[]
       UNION
       SELECT a.artifact_id FROM key_store_artifacts a JOIN hit h ON a.parent_artifact_id = h.artifact_id WHERE a.tenant = $1 AND a.subject = $2
     )
     SELECT ${COLUMNS} FROM key_store_artifacts WHERE tenant = $1 AND subject = $2 AND artifact_id IN (SELECT artifact_id FROM hit)
     ORDER BY artifact_id`,
    [ref.tenant, ref.subject, [...memoryIds]],
  );
  return result.rows;
}

export async function artifactsDerivedFrom(db: Queryable, ref: SubjectRef, memoryIds: readonly string[]): Promise<ArtifactKeyEntry[]> {
  return (await selectDerived(db, ref, memoryIds)).map(entryOf);
}

export async function allArtifacts(db: Queryable, ref: SubjectRef): Promise<ArtifactKeyEntry[]> {
  const result = await db.query<ArtifactRow>(
    `SELECT ${COLUMNS} FROM key_store_artifacts WHERE tenant = $1 AND subject = $2 ORDER BY artifact_id`,
    [ref.tenant, ref.subject],
  );
  return result.rows.map(entryOf);
}

export interface ArtifactsTombstoned {
  /** Every artifact reached (destroyed now or before), sorted. */
  readonly artifactIds: string[];
  /** Key ids destroyed now. */
  readonly destroyedKeyIds: string[];
}

/** Run inside the transaction that forgets the memories (it holds the subject's exclusive lock). */
export async function tombstoneArtifactsDerivedFrom(
  db: Queryable,
  ref: SubjectRef,
  memoryIds: readonly string[],
): Promise<ArtifactsTombstoned> {
  const reached = await selectDerived(db, ref, memoryIds);
  return tombstone(
    db,
    ref,
    reached.map((row) => row.artifact_id),
  );
}

/** Every artifact key of the subject (the subject is being forgotten; same transaction). */
export async function tombstoneAllArtifacts(db: Queryable, ref: SubjectRef): Promise<ArtifactsTombstoned> {
  const all = await allArtifacts(db, ref);
  return tombstone(
    db,
    ref,
    all.map((entry) => entry.artifactId),
  );
}

async function tombstone(db: Queryable, ref: SubjectRef, artifactIds: readonly string[]): Promise<ArtifactsTombstoned> {
  if (artifactIds.length === 0) return { artifactIds: [], destroyedKeyIds: [] };
  const destroyed = await db.query<{ key_id: string | null }>(
    `UPDATE key_store_artifacts SET wrapped_key = NULL, master_key_id = NULL, forgotten_at = now()
     WHERE tenant = $1 AND subject = $2 AND artifact_id = ANY($3::text[]) AND forgotten_at IS NULL
     RETURNING key_id`,
    [ref.tenant, ref.subject, [...artifactIds]],
  );
  return {
    artifactIds: [...artifactIds].sort(),
    destroyedKeyIds: destroyed.rows.flatMap((row) => (row.key_id === null ? [] : [row.key_id])),
  };
}

function entryOf(row: ArtifactRow): ArtifactKeyEntry {
  return {
    artifactId: row.artifact_id,
    keyId: row.key_id,
    state: row.forgotten_at === null ? 'live' : 'forgotten',
    createdAt: row.created_at,
    forgottenAt: row.forgotten_at,
    derivedFrom: row.derived_from,
    parentArtifactId: row.parent_artifact_id,
  };
}
