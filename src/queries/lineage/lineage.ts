// lineage(artifact): the derivation graph of an artifact — its inputs (the
// memory versions it was generated from), its claims (-> those versions),
// its parent artifacts, transitively — with STALE marks and, for every input
// no longer current, the event that invalidated it (DESIGN section 6); and
// from its compaction record (the artifact stream) the anchors, pointers and
// discards, each discard with whether it can be recovered.
import type { Kysely, Selectable } from 'kysely';
import type { Anchor, Discard, Pointer } from '../../domain/compaction/record.js';
import { openOutput } from '../../reads/opened/artifact-output.js';
import { readArtifact } from '../../reads/streams/artifact-stream.js';
import { normaliseScopes, type Scopes } from '../../domain/entry/scopes.js';
import { InvalidInput } from '../../domain/validation/invalid-input.js';
import { requireId } from '../../domain/values/ids.js';
import { anyText } from '../../projections/runtime/bulk.js';
import type {
  ArtifactsTable,
  LineageEdgesTable,
  MemoryProjectionDb,
  MemoryVersionsTable,
  StaleArtifactsTable,
} from '../../projections/memory/tables.js';
import { readMemoryTables } from '../memory-tables.js';
import type { ReadSide } from '../read-side.js';

export interface EventRef {
  readonly eventId: string;
  readonly type: string;
  readonly at: string;
}

export interface LineageInput {
  readonly memoryId: string;
  /** The version current when the artifact was generated. */
  readonly version: number;
  readonly sequence: number | null;
  /** The memory's status now. */
  readonly statusNow: string | null;
  /** The event that closed the input version (retraction, supersession, expiry, erasure); null while it is current. */
  readonly invalidatedBy: EventRef | null;
}

export interface LineageClaim {
  readonly index: number;
  readonly key: string;
  readonly scopes: Scopes;
  readonly polarity: string;
  readonly conflictIds: readonly string[];
  readonly derivedFrom: ReadonlyArray<{ readonly memoryId: string; readonly version: number | null }>;
}

export interface StaleMark {
  readonly causeEventId: string;
  readonly causeType: string;
  readonly causeAt: string;
  readonly causeMemoryId: string | null;
  /** The stale ancestor this artifact inherited STALE from. */
  readonly viaArtifactId: string | null;
}

export interface LineageArtifact {
  readonly artifactId: string;
  readonly tenant: string;
  readonly subject: string;
  readonly status: string;
  readonly parentArtifactId: string | null;
  readonly inputEpoch: number | null;
  readonly newCoversThrough: number | null;
  readonly selectorVersion: string | null;
  readonly promptVersion: string | null;
  readonly modelSnapshot: string | null;
  readonly generatedAt: string | null;
  readonly publishedAt: string | null;
  readonly stale: StaleMark | null;
  readonly inputs: readonly LineageInput[];
  /** The claims and open items and what they derive from; `forgotten` when the output can no longer be opened. */
  readonly output:
    | {
        readonly status: 'readable';
        readonly claims: readonly LineageClaim[];
        readonly openItems: ReadonlyArray<{ readonly index: number; readonly derivedFrom: LineageClaim['derivedFrom'] }>;
      }
    | { readonly status: 'forgotten' };
  /** The compaction record's clear parts (absent when the artifact was never generated). */
  readonly record: {
    readonly version: string;
    readonly trigger: string;
    readonly anchors: readonly Anchor[];
    readonly pointers: readonly Pointer[];
    /** What was left out of the summary, why, and whether it can be recovered. */
    readonly discards: readonly Discard[];
  } | null;
}

export interface Lineage {
  readonly tenant: string;
  readonly artifactId: string;
  readonly stale: boolean;
  /** The artifact first, then its ancestors, nearest first. */
  readonly artifacts: readonly LineageArtifact[];
}

/** Artifacts deeper than this are not followed (a chain of parents is one per consolidation). */
const MAX_DEPTH = 10_000;

export async function lineage(
  read: Pick<ReadSide, 'projections' | 'keyStore' | 'eventStore'>,
  tenantInput: string,
  artifactIdInput: string,
): Promise<Lineage> {
  const tenant = requireId('tenant', tenantInput);
  const artifactId = requireId('artifact', artifactIdInput);
  const graph = await readMemoryTables(read.projections, (tables) => readGraph(tables, tenant, artifactId));
  const artifacts: LineageArtifact[] = [];
  for (const row of graph.artifacts) {
    const edges = graph.edges.filter((e) => e.artifact_id === row.artifact_id && e.kind === 'memory');
    const inputs = edges.map((e) => inputOf(e, graph.versions));
    const versionOf = new Map(inputs.map((i) => [i.memoryId, i.version]));
    const ref = { tenant, subject: row.subject! };
    const opened = row.output && !row.output_erased ? await openOutput(read.keyStore, ref, row.artifact_id, row.output) : undefined;
    const derived = (ids: readonly string[]) => ids.map((memoryId) => ({ memoryId, version: versionOf.get(memoryId) ?? null }));
    const stale = graph.stale.get(row.artifact_id);
    const compaction = (await readArtifact(read.eventStore, row.artifact_id)).generated?.record;
    artifacts.push({
      artifactId: row.artifact_id,
      tenant,
      subject: row.subject!,
      status: row.status,
      parentArtifactId: row.parent_artifact_id,
      inputEpoch: row.input_epoch,
      newCoversThrough: row.new_covers_through,
      selectorVersion: row.selector_version,
      promptVersion: row.prompt_version,
      modelSnapshot: row.model_snapshot,
      generatedAt: row.generated_tx?.toISOString() ?? null,
      publishedAt: row.published_tx?.toISOString() ?? null,
      stale: stale
        ? {
            causeEventId: stale.cause_event_id,
            causeType: stale.cause_type,
            causeAt: stale.cause_tx.toISOString(),
            causeMemoryId: stale.cause_memory_id,
            viaArtifactId: stale.via_artifact_id,
          }
        : null,
      inputs,
      output: opened
        ? {
            status: 'readable',
            claims: opened.claims.map((c, index) => ({
              index,
              key: c.key,
              scopes: normaliseScopes(c.scopes),
              polarity: c.polarity,
              conflictIds: c.conflictIds ?? [],
              derivedFrom: derived(c.derivedFrom),
            })),
            openItems: opened.openItems.map((o, index) => ({ index, derivedFrom: derived(o.derivedFrom) })),
          }
        : { status: 'forgotten' },
      record: compaction
        ? {
            version: compaction.version,
            trigger: compaction.stage.trigger,
            anchors: compaction.anchors,
            pointers: compaction.pointers,
            discards: compaction.discards,
          }
        : null,
    });
  }
  return { tenant, artifactId, stale: artifacts[0]!.stale !== null, artifacts };
}

interface Graph {
  readonly artifacts: Selectable<ArtifactsTable>[];
  readonly edges: Selectable<LineageEdgesTable>[];
  readonly stale: Map<string, Selectable<StaleArtifactsTable>>;
  readonly versions: Map<string, Selectable<MemoryVersionsTable>[]>;
}

async function readGraph(tables: Kysely<MemoryProjectionDb>, tenant: string, artifactId: string): Promise<Graph> {
  const root = await tables.selectFrom('artifacts').selectAll().where('artifact_id', '=', artifactId).executeTakeFirst();
  // Another tenant's artifact does not exist for the caller (invariant 10).
  if (!root || root.tenant !== tenant || root.subject === null)
    throw new InvalidInput('artifact', `no artifact ${artifactId} for tenant ${tenant}`);
  const artifacts = [root];
  const seen = new Set([root.artifact_id]);
  for (let parent = root.parent_artifact_id; parent !== null && !seen.has(parent) && artifacts.length < MAX_DEPTH;) {
    const row = await tables
      .selectFrom('artifacts')
      .selectAll()
      .where('artifact_id', '=', parent)
      .where('tenant', '=', tenant)
      .executeTakeFirst();
    if (!row || row.subject === null) break;
    artifacts.push(row);
    seen.add(row.artifact_id);
    parent = row.parent_artifact_id;
  }
  const ids = artifacts.map((a) => a.artifact_id);
  const edges = await tables
    .selectFrom('lineage_edges')
    .selectAll()
    .where('artifact_id', '=', anyText(ids))
    .where('target_tenant', '=', tenant)
    .orderBy('artifact_id')
    .orderBy('target_sequence')
    .orderBy('target_id')
    .execute();
  const staleRows = await tables
    .selectFrom('stale_artifacts')
    .selectAll()
    .where('artifact_id', '=', anyText(ids))
    .where('tenant', '=', tenant)
    .execute();
  const memoryIds = [...new Set(edges.filter((e) => e.kind === 'memory').map((e) => e.target_id))];
  const versionRows =
    memoryIds.length === 0
      ? []
      : await tables
          .selectFrom('memory_versions')
          .selectAll()
          .where('tenant', '=', tenant)
          .where('subject', '=', root.subject)
          .where('memory_id', '=', anyText(memoryIds))
          .orderBy('memory_id')
          .orderBy('version')
          .execute();
  const versions = new Map<string, Selectable<MemoryVersionsTable>[]>();
  for (const v of versionRows) versions.set(v.memory_id, [...(versions.get(v.memory_id) ?? []), v]);
  return { artifacts, edges, stale: new Map(staleRows.map((s) => [s.artifact_id, s])), versions };
}

function inputOf(edge: Selectable<LineageEdgesTable>, versions: ReadonlyMap<string, Selectable<MemoryVersionsTable>[]>): LineageInput {
  const all = versions.get(edge.target_id) ?? [];
  const version = edge.target_version ?? 1;
  const at = all.find((v) => v.version === version);
  const next = all.find((v) => v.version === version + 1);
  const latest = all.at(-1);
  return {
    memoryId: edge.target_id,
    version,
    sequence: edge.target_sequence,
    statusNow: latest?.status ?? null,
    invalidatedBy:
      at?.closed_by && at.tx_to ? { eventId: at.closed_by, type: next?.opened_by_type ?? 'unknown', at: at.tx_to.toISOString() } : null,
  };
}
