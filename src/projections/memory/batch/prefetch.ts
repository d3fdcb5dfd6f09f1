// What a batch reads before it applies anything: a handful of set-based
// queries, whatever the batch's size (the subjects' clocks, the current
// versions of the memories it changes, and the part of the lineage graph it
// can reach).
import { sql, type Kysely, type Selectable } from 'kysely';
import { unhandled } from '../../../domain/decider/decider.js';
import type { MemoryProjectionDb, MemoryUsageTable, SubjectClockTable } from '../tables.js';
import type { EdgeWithSource } from './artifact-rows.js';
import type { GraphLoad } from './artifact-graph.js';
import { memoryKey, subjectKey } from './event-point.js';
import { fromRow, type MemoryVersion } from './memory-version.js';
import type { RoutedEvent } from './routed-event.js';
import type { SubjectClock } from './subject-clocks.js';
import { anyText, unnestRows } from '../../runtime/bulk.js';

interface SubjectRef {
  tenant: string;
  subject: string;
}
interface MemoryRefRow {
  tenant: string;
  subject: string;
  memory_id: string;
}

export interface PrefetchPlan {
  readonly subjects: Map<string, SubjectRef>;
  /** Memories whose current version the batch needs. */
  readonly memories: Map<string, MemoryRefRow>;
  /** Subjects forgotten in the batch: all their memories are needed. */
  readonly forgottenSubjects: Map<string, SubjectRef>;
  /** Lineage roots: artifacts named by the batch… */
  readonly artifactIds: Set<string>;
  /** …artifacts built on memories that leave `active`… */
  readonly leavingMemories: Map<string, MemoryRefRow>;
  /** …and every artifact of subjects whose trust, taint or existence changes. */
  readonly wholeSubjects: Map<string, SubjectRef>;
  /** Subjects of artifacts generated in the batch (their taint history is needed). */
  readonly generatingSubjects: Map<string, SubjectRef>;
  /** Memories feedback names: their usage rows. */
  readonly usage: Map<string, MemoryRefRow>;
}

export function planPrefetch(events: readonly RoutedEvent[]): PrefetchPlan {
  const plan: PrefetchPlan = {
    subjects: new Map(),
    memories: new Map(),
    forgottenSubjects: new Map(),
    artifactIds: new Set(),
    leavingMemories: new Map(),
    wholeSubjects: new Map(),
    generatingSubjects: new Map(),
    usage: new Map(),
  };
  const memory = (map: Map<string, MemoryRefRow>, tenant: string, subject: string, memoryId: string) =>
    map.set(memoryKey(tenant, subject, memoryId), { tenant, subject, memory_id: memoryId });
  for (const e of events) {
    if (e.kind === 'artifact') {
      plan.artifactIds.add(e.artifactId);
      if (e.event.type === 'ArtifactGenerated') {
        const m = e.event.data.manifest;
        for (const input of m.inputs) memory(plan.memories, m.tenant, m.subject, input.memoryId);
        if (m.parentArtifactId !== null) plan.artifactIds.add(m.parentArtifactId);
        plan.generatingSubjects.set(subjectKey(m.tenant, m.subject), { tenant: m.tenant, subject: m.subject });
      }
      continue;
    }
    const { tenant, subject, event } = e;
    const sk = subjectKey(tenant, subject);
    plan.subjects.set(sk, { tenant, subject });
    switch (event.type) {
      case 'MemoryRecorded':
        // The write side never reuses a memory id, but if a log ever did, the fold keeps the first: so must we.
        memory(plan.memories, tenant, subject, event.data.memoryId);
        break;
      case 'MemorySuperseded':
      case 'MemoryRetracted':
      case 'MemoryExpired':
      case 'MemoryArchived':
      case 'MemoryForgotten':
        memory(plan.memories, tenant, subject, event.data.memoryId);
        memory(plan.leavingMemories, tenant, subject, event.data.memoryId);
        break;
      case 'SubjectForgotten':
        plan.forgottenSubjects.set(sk, { tenant, subject });
        plan.wholeSubjects.set(sk, { tenant, subject });
        break;
      case 'TrustChanged':
      case 'TaintPolicyEscalated':
        plan.wholeSubjects.set(sk, { tenant, subject });
        break;
      case 'SummaryAliasSwitched':
        plan.artifactIds.add(event.data.artifactId);
        break;
      case 'DeletionReceiptIssued':
        for (const id of event.data.invalidatedArtifactIds) plan.artifactIds.add(id);
        break;
      // Nothing to read first but the subject's clock.
      case 'MemoryCorroborated':
      case 'MemoryDemoted':
      case 'MemoryRestored':
      case 'ConflictDetected':
      case 'ConflictResolved':
        break;
      // Candidates are never memory: nothing to read.
      case 'MemoryProposed':
      case 'ProposalRejected':
      case 'ProposalExpired':
      case 'MemoryPromoted':
        break;
      // Usage rows of the memories it names (memory_usage).
      case 'MemoryFeedbackGiven':
        memory(plan.usage, tenant, subject, event.data.memoryId);
        break;
      default:
        unhandled(event);
    }
  }
  return plan;
}

export interface Prefetched {
  readonly clocks: SubjectClock[];
  readonly memories: MemoryVersion[];
  readonly graph: GraphLoad;
  readonly usage: Selectable<MemoryUsageTable>[];
}

/** `db` is scoped to `schema` (withSchema); raw SQL names the schema itself. */
export async function prefetch(db: Kysely<MemoryProjectionDb>, schema: string, plan: PrefetchPlan): Promise<Prefetched> {
  const [clocks, memories, graph, usage] = await Promise.all([
    loadClocks(db, plan),
    loadMemories(db, plan),
    loadGraph(db, schema, plan),
    loadUsage(db, plan),
  ]);
  return { clocks, memories, graph, usage };
}

async function loadClocks(db: Kysely<MemoryProjectionDb>, plan: PrefetchPlan): Promise<SubjectClock[]> {
  if (plan.subjects.size === 0) return [];
  const keys = unnestRows([...plan.subjects.values()], { tenant: 'text', subject: 'text' }).as('k');
  const rows: Selectable<SubjectClockTable>[] = await db
    .selectFrom('subject_clock as c')
    .innerJoin(keys, (join) => join.onRef('c.tenant', '=', 'k.tenant').onRef('c.subject', '=', 'k.subject'))
    .selectAll('c')
    .execute();
  return rows.map((r) => ({
    tenant: r.tenant,
    subject: r.subject,
    highWaterMark: r.high_water_mark,
    inputEpoch: r.input_epoch,
    streamRevision: Number(r.stream_revision),
    forgotten: r.forgotten,
    updatedTx: r.updated_tx.toISOString(),
    updatedCommit: r.updated_commit,
    updatedPrepare: r.updated_prepare,
  }));
}

async function loadUsage(db: Kysely<MemoryProjectionDb>, plan: PrefetchPlan): Promise<Selectable<MemoryUsageTable>[]> {
  if (plan.usage.size === 0) return [];
  const keys = unnestRows([...plan.usage.values()], { tenant: 'text', subject: 'text', memory_id: 'text' }).as('k');
  return db
    .selectFrom('memory_usage as u')
    .innerJoin(keys, (join) =>
      join.onRef('u.tenant', '=', 'k.tenant').onRef('u.subject', '=', 'k.subject').onRef('u.memory_id', '=', 'k.memory_id'),
    )
    .selectAll('u')
    .execute();
}

async function loadMemories(db: Kysely<MemoryProjectionDb>, plan: PrefetchPlan): Promise<MemoryVersion[]> {
  const loads = [];
  if (plan.memories.size > 0) {
    const keys = unnestRows([...plan.memories.values()], { tenant: 'text', subject: 'text', memory_id: 'text' }).as('k');
    loads.push(
      db
        .selectFrom('memory_versions as m')
        .innerJoin(keys, (join) =>
          join.onRef('m.tenant', '=', 'k.tenant').onRef('m.subject', '=', 'k.subject').onRef('m.memory_id', '=', 'k.memory_id'),
        )
        .selectAll('m')
        .where('m.tx_to', 'is', null)
        .execute(),
    );
  }
  if (plan.forgottenSubjects.size > 0) {
    const keys = unnestRows([...plan.forgottenSubjects.values()], { tenant: 'text', subject: 'text' }).as('k');
    loads.push(
      db
        .selectFrom('memory_versions as m')
        .innerJoin(keys, (join) => join.onRef('m.tenant', '=', 'k.tenant').onRef('m.subject', '=', 'k.subject'))
        .selectAll('m')
        .where('m.tx_to', 'is', null)
        .execute(),
    );
  }
  const rows = (await Promise.all(loads)).flat();
  // Version order within a memory does not matter here: only current versions are loaded.
  return rows.sort((a, b) => (a.memory_id < b.memory_id ? -1 : a.memory_id > b.memory_id ? 1 : 0)).map(fromRow);
}

async function loadGraph(db: Kysely<MemoryProjectionDb>, schema: string, plan: PrefetchPlan): Promise<GraphLoad> {
  const escalations =
    plan.generatingSubjects.size === 0
      ? []
      : await db
          .selectFrom('taint_escalations as t')
          .innerJoin(unnestRows([...plan.generatingSubjects.values()], { tenant: 'text', subject: 'text' }).as('k'), (join) =>
            join.onRef('t.tenant', '=', 'k.tenant').onRef('t.subject', '=', 'k.subject'),
          )
          .selectAll('t')
          .orderBy('t.commit')
          .orderBy('t.prepare')
          .execute();
  if (plan.artifactIds.size === 0 && plan.leavingMemories.size === 0 && plan.wholeSubjects.size === 0) {
    return { artifacts: [], edges: [], stale: [], escalations };
  }
  const ids = await reachableArtifacts(db, schema, plan);
  if (ids.length === 0) return { artifacts: [], edges: [], stale: [], escalations };
  const [artifacts, edges, stale] = await Promise.all([
    db.selectFrom('artifacts').selectAll().where('artifact_id', '=', anyText(ids)).orderBy('artifact_id').execute(),
    db
      .selectFrom('lineage_edges as e')
      .leftJoin('memory_versions as m', (join) =>
        join
          .on('e.kind', '=', 'memory')
          .onRef('m.tenant', '=', 'e.target_tenant')
          .onRef('m.subject', '=', 'e.target_subject')
          .onRef('m.memory_id', '=', 'e.target_id')
          .onRef('m.version', '=', 'e.target_version'),
      )
      .selectAll('e')
      .select(['m.source_type', 'm.source_refs', 'm.trust'])
      .where('e.artifact_id', '=', anyText(ids))
      .orderBy('e.artifact_id')
      .orderBy('e.kind')
      .orderBy('e.target_id')
      .execute() as Promise<EdgeWithSource[]>,
    db.selectFrom('stale_artifacts').selectAll().where('artifact_id', '=', anyText(ids)).execute(),
  ]);
  return { artifacts, edges, stale, escalations };
}

/** The roots of the plan and everything built on them (parent edges, followed down). */
async function reachableArtifacts(db: Kysely<MemoryProjectionDb>, schema: string, plan: PrefetchPlan): Promise<string[]> {
  const memories = unnestRows([...plan.leavingMemories.values()], { tenant: 'text', subject: 'text', memory_id: 'text' });
  const subjects = unnestRows([...plan.wholeSubjects.values()], { tenant: 'text', subject: 'text' });
  // The withSchema plugin does not reach into raw SQL: qualify the tables here.
  const edges = sql.table(`${schema}.lineage_edges`);
  const artifacts = sql.table(`${schema}.artifacts`);
  const { rows } = await sql<{ artifact_id: string }>`
    with recursive roots(artifact_id) as (
      select unnest(${sql.val([...plan.artifactIds])}::text[])
      union
      select e.artifact_id from ${edges} e join ${memories} k
        on e.target_id = k.memory_id and e.kind = 'memory' and e.target_tenant = k.tenant and e.target_subject = k.subject
      union
      select a.artifact_id from ${artifacts} a join ${subjects} s on a.tenant = s.tenant and a.subject = s.subject
    ), reachable(artifact_id) as (
      select artifact_id from roots
      union
      select e.artifact_id from ${edges} e join reachable r on e.target_id = r.artifact_id and e.kind = 'artifact'
    )
    select artifact_id from reachable order by artifact_id`.execute(db);
  return rows.map((r) => r.artifact_id);
}
