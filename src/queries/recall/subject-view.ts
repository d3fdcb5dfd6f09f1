// Everything recall reads about one subject from the memory projection, in
// one statement (one round trip, one snapshot): the clock, the alias with
// its artifact and STALE mark, the taint escalations, the open conflicts and
// the lifecycle's demotions and the current active versions. Retracted,
// superseded, expired, archived and forgotten
// versions are never read: the status filter is in the SQL.
import type { SourceType, TrustLevel } from '../../domain/entry/source.js';
import type { MemoryUsage } from '../../domain/usage/usage.js';
import { overriddenTrust } from '../../domain/subject/trust.js';
import { faultFromRow, type ProjectionFault } from '../../projections/runtime/faults.js';
import { readActiveStatement } from '../active-schema.js';
import { readSubjectRow } from './subject-row.js';
import type { KnownOutput, SubjectRow } from './subject-statement.js';
import type { KnownVersions, SubjectView } from './subject-view-shape.js';
import type { ProjectionsKysely } from '../../projections/runtime/schema-handles.js';

export function readSubjectView(
  projections: ProjectionsKysely,
  tenant: string,
  subject: string,
  known?: (
    schema: string,
  ) => (KnownVersions & { readonly summary?: Omit<KnownOutput, 'outputHash'> & { readonly outputHash: string | null } }) | undefined,
): Promise<SubjectView> {
  return readActiveStatement(projections, async (models) => {
    // The versions live in the memory read model: a cached copy is good for its schema only.
    const schema = models.schemas.memory;
    const held = known?.(schema);
    const revision = held?.schema === schema ? held.revision : undefined;
    // A summary's sealing is the artifact's, whatever the schema: the one held opened needs no ciphertext again.
    const summary = held?.summary;
    const output =
      summary?.outputHash != null
        ? { artifactId: summary.artifactId, outputHash: summary.outputHash, keyId: summary.keyId, iv: summary.iv }
        : undefined;
    const row = await readSubjectRow(models, tenant, subject, revision, output);
    const view = toView(row, schema);
    return {
      result: { ...view, versionsKnown: revision !== undefined && view.clock?.revision === revision },
      schemaState: row.schema_state,
    };
  });
}

/** JSON carries instants as text: back to Date, as the typed tables have them. */
const date = (text: string | null): Date | null => (text === null ? null : new Date(text));

type UsageRow = SubjectRow['versions'][number]['usage'];

function usageOf(u: UsageRow): MemoryUsage | null {
  if (u === null) return null;
  return {
    usedCount: u.used_count,
    confirmedCount: u.confirmed_count,
    ignoredCount: u.ignored_count,
    harmfulCount: u.harmful_count,
    correctedCount: u.corrected_count,
    ...(u.last_reinforced_at !== null ? { lastReinforcedAt: new Date(u.last_reinforced_at).toISOString() } : {}),
    underReview: u.under_review,
  };
}

function toView(row: SubjectRow, schema: string): Omit<SubjectView, 'versionsKnown'> {
  const a = row.alias;
  return {
    schema,
    clock: row.clock
      ? {
          inputEpoch: row.clock.input_epoch,
          highWaterMark: row.clock.high_water_mark,
          forgotten: row.clock.forgotten,
          revision: Number(row.clock.stream_revision),
        }
      : null,
    alias: a
      ? {
          artifactId: a.artifact_id,
          sourceEpoch: a.source_epoch,
          coversThrough: a.covers_through,
          artifact:
            a.artifact_row === null
              ? null
              : {
                  tenant: a.artifact_tenant,
                  subject: a.artifact_subject,
                  status: a.artifact_status ?? 'unknown',
                  output: a.output,
                  outputHash: a.output_hash,
                  outputErased: a.output_erased === true,
                },
          stale:
            a.cause_type === null || a.cause_event_id === null
              ? null
              : {
                  causeType: a.cause_type,
                  causeEventId: a.cause_event_id,
                  causeMemoryId: a.cause_memory_id,
                  viaArtifactId: a.via_artifact_id,
                },
        }
      : null,
    taint: {
      refPatterns: row.taint.flatMap((t) => t.ref_patterns),
      sourceTypes: row.taint.flatMap((t) => t.source_types),
    },
    trustOverrides: new Map(row.trust.map((t) => [t.source_ref, t.level as TrustLevel])),
    conflicts: row.conflicts.map((c) => ({ conflictId: c.conflict_id, key: c.key, scopes: c.scopes, memoryIds: c.memory_ids })),
    demoted: demotedNow(row.demotions),
    versions: row.versions.map((v) => ({
      ...v,
      value: v.value,
      content: v.content,
      valid_from: new Date(v.valid_from),
      valid_to: date(v.valid_to),
      expires_at: date(v.expires_at),
      tx_from: new Date(v.tx_from),
      usage: usageOf(v.usage),
    })),
    faults: faultsOfBoth(row.faults.map(faultFromRow), row.conflicts_trust_faults.map(faultFromRow)),
  };
}

/** The memories whose latest demotion row (in log order) demotes them. */
function demotedNow(rows: ReadonlyArray<{ memory_id: string; demoted: boolean }>): ReadonlySet<string> {
  const latest = new Map<string, boolean>();
  for (const r of rows) latest.set(r.memory_id, r.demoted);
  return new Set([...latest].filter(([, demoted]) => demoted).map(([id]) => id));
}

/** An event neither read model could decode is a fault of both: one entry each, in stream order (one stream: the subject's). */
function faultsOfBoth(memory: ProjectionFault[], conflictsTrust: ProjectionFault[]): ProjectionFault[] {
  const known = new Set(memory.map((f) => f.eventId));
  return [...memory, ...conflictsTrust.filter((f) => !known.has(f.eventId))].sort((a, b) => a.streamRevision - b.streamRevision);
}

/**
 * The view with each version's trust as it stands now: the lowest current
 * override among its source refs (TrustChanged), else its source type's
 * level — what the decider judges by (taint is recall's hard filter).
 */
export function withCurrentTrust(view: SubjectView): SubjectView {
  if (view.trustOverrides.size === 0) return view;
  return {
    ...view,
    versions: view.versions.map((v) => ({
      ...v,
      trust: overriddenTrust(view.trustOverrides, { type: v.source_type as SourceType, refs: v.source_refs }),
    })),
  };
}
