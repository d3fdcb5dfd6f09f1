// Everything recall reads about one subject from the memory projection, in
// two statements: the subject's header (clock, alias with its artifact and
// STALE mark, taint escalations, open conflicts) and the current active
// versions. Retracted, superseded, expired and forgotten versions are never
// read: the status filter is in the SQL.
import type { Kysely, Selectable } from 'kysely';
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres';
import type { Sealed } from '../../domain/events/sealed.js';
import type { MemoryProjectionDb, MemoryVersionsTable } from '../../projections/memory/tables.js';

export type CurrentVersion = Selectable<MemoryVersionsTable>;

export interface AliasView {
  readonly artifactId: string;
  readonly sourceEpoch: number;
  readonly coversThrough: number;
  /** Null when the artifact row is missing (it never is after a consistent catch-up). */
  readonly artifact: {
    readonly tenant: string | null;
    readonly subject: string | null;
    readonly status: string;
    readonly output: Sealed | null;
    readonly outputErased: boolean;
  } | null;
  readonly stale: { readonly causeType: string; readonly causeEventId: string; readonly causeMemoryId: string | null; readonly viaArtifactId: string | null } | null;
}

export interface ConflictView {
  readonly conflictId: string;
  readonly key: string;
  readonly scopes: Record<string, string>;
  readonly memoryIds: readonly string[];
}

export interface SubjectView {
  /** revision: the last subject event the projection applied. */
  readonly clock: { readonly inputEpoch: number; readonly highWaterMark: number; readonly forgotten: boolean; readonly revision: number } | null;
  readonly alias: AliasView | null;
  readonly taint: { readonly refPatterns: readonly string[]; readonly sourceTypes: readonly string[] };
  /** Conflicts recorded open (members may have left since: the caller checks). */
  readonly conflicts: readonly ConflictView[];
  readonly versions: readonly CurrentVersion[];
}

export async function readSubjectView(tables: Kysely<MemoryProjectionDb>, tenant: string, subject: string): Promise<SubjectView> {
  const header = await tables
    .selectNoFrom((eb) => [
      jsonObjectFrom(
        eb.selectFrom('subject_clock').select(['input_epoch', 'high_water_mark', 'forgotten', 'stream_revision']).where('tenant', '=', tenant).where('subject', '=', subject),
      ).as('clock'),
      jsonObjectFrom(
        eb
          .selectFrom('summary_alias as a')
          .leftJoin('artifacts as r', 'r.artifact_id', 'a.artifact_id')
          .leftJoin('stale_artifacts as s', 's.artifact_id', 'a.artifact_id')
          .select([
            'a.artifact_id',
            'a.source_epoch',
            'a.covers_through',
            'r.artifact_id as artifact_row',
            'r.tenant as artifact_tenant',
            'r.subject as artifact_subject',
            'r.status as artifact_status',
            'r.output',
            'r.output_erased',
            's.cause_type',
            's.cause_event_id',
            's.cause_memory_id',
            's.via_artifact_id',
          ])
          .where('a.tenant', '=', tenant)
          .where('a.subject', '=', subject),
      ).as('alias'),
      jsonArrayFrom(eb.selectFrom('taint_escalations').select(['ref_patterns', 'source_types']).where('tenant', '=', tenant).where('subject', '=', subject)).as('taint'),
      jsonArrayFrom(
        eb.selectFrom('conflicts').select(['conflict_id', 'key', 'scopes', 'memory_ids']).where('tenant', '=', tenant).where('subject', '=', subject).where('status', '=', 'open').orderBy('conflict_id'),
      ).as('conflicts'),
    ])
    .executeTakeFirstOrThrow();
  const versions = await tables
    .selectFrom('memory_versions')
    .selectAll()
    .where('tenant', '=', tenant)
    .where('subject', '=', subject)
    .where('tx_to', 'is', null)
    .where('status', '=', 'active')
    .orderBy('sequence')
    .execute();
  const a = header.alias;
  return {
    clock: header.clock
      ? { inputEpoch: header.clock.input_epoch, highWaterMark: header.clock.high_water_mark, forgotten: header.clock.forgotten, revision: Number(header.clock.stream_revision) }
      : null,
    alias: a
      ? {
          artifactId: a.artifact_id,
          sourceEpoch: a.source_epoch,
          coversThrough: a.covers_through,
          artifact:
            a.artifact_row === null
              ? null
              : { tenant: a.artifact_tenant, subject: a.artifact_subject, status: a.artifact_status as string, output: a.output, outputErased: a.output_erased === true },
          stale:
            a.cause_type === null || a.cause_event_id === null
              ? null
              : { causeType: a.cause_type, causeEventId: a.cause_event_id, causeMemoryId: a.cause_memory_id, viaArtifactId: a.via_artifact_id },
        }
      : null,
    taint: {
      refPatterns: header.taint.flatMap((t) => t.ref_patterns),
      sourceTypes: header.taint.flatMap((t) => t.source_types),
    },
    conflicts: header.conflicts.map((c) => ({ conflictId: c.conflict_id, key: c.key, scopes: c.scopes, memoryIds: c.memory_ids })),
    versions,
  };
}
