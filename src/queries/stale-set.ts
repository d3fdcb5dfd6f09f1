// staleSet(subject): the subject's STALE artifacts, each with the event that
// made it STALE (directly, or through the stale ancestor it was built on),
// and whether the read alias points at one (then recall serves raw entries).
import { requireId } from '../domain/values/ids.js';
import { readMemoryTables } from './memory-tables.js';
import type { ReadSide } from './read-side.js';

export interface StaleArtifact {
  readonly artifactId: string;
  readonly causeEventId: string;
  readonly causeType: string;
  readonly causeAt: string;
  readonly causeMemoryId: string | null;
  readonly viaArtifactId: string | null;
}

export interface StaleSet {
  readonly tenant: string;
  readonly subject: string;
  readonly alias: { readonly artifactId: string; readonly stale: boolean } | null;
  readonly stale: readonly StaleArtifact[];
}

export async function staleSet(read: Pick<ReadSide, 'projections'>, tenantInput: string, subjectInput: string): Promise<StaleSet> {
  const tenant = requireId('tenant', tenantInput);
  const subject = requireId('subject', subjectInput);
  const { rows, alias } = await readMemoryTables(read.projections, async (tables) => ({
    rows: await tables
      .selectFrom('stale_artifacts')
      .selectAll()
      .where('tenant', '=', tenant)
      .where('subject', '=', subject)
      .orderBy('marked_commit')
      .orderBy('marked_prepare')
      .orderBy('artifact_id')
      .execute(),
    alias: await tables
      .selectFrom('summary_alias')
      .select('artifact_id')
      .where('tenant', '=', tenant)
      .where('subject', '=', subject)
      .executeTakeFirst(),
  }));
  const stale = rows.map((r) => ({
    artifactId: r.artifact_id,
    causeEventId: r.cause_event_id,
    causeType: r.cause_type,
    causeAt: r.cause_tx.toISOString(),
    causeMemoryId: r.cause_memory_id,
    viaArtifactId: r.via_artifact_id,
  }));
  return {
    tenant,
    subject,
    alias: alias ? { artifactId: alias.artifact_id, stale: stale.some((s) => s.artifactId === alias.artifact_id) } : null,
    stale,
  };
}
