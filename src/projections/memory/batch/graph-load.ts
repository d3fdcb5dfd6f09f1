// What the lineage graph of a batch starts from (read by prefetch.ts): the
// stored artifacts, edges, STALE marks and taint escalations it can reach,
// and their conversions into the graph's terms.
import type { Selectable } from 'kysely';
import type { ArtifactsTable, StaleArtifactsTable, TaintEscalationsTable } from '../tables.js';
import type { Cause, EdgeWithSource, InputRef } from './artifact-rows.js';
import type { Escalation } from './source-rules.js';

export interface GraphLoad {
  readonly artifacts: readonly Selectable<ArtifactsTable>[];
  readonly edges: readonly EdgeWithSource[];
  readonly stale: readonly Selectable<StaleArtifactsTable>[];
  readonly escalations: readonly Selectable<TaintEscalationsTable>[];
}

/** A stored memory edge as the input it records (the memory version's source joined in). */
export function inputOfEdge(edge: EdgeWithSource): InputRef {
  return {
    tenant: edge.target_tenant,
    subject: edge.target_subject,
    memoryId: edge.target_id,
    sourceType: edge.source_type,
    sourceRefs: edge.source_refs ?? [],
    trust: edge.trust,
  };
}

export function staleOfRow(s: Selectable<StaleArtifactsTable>): { cause: Cause; via: string | null } {
  return {
    cause: {
      eventId: s.cause_event_id,
      type: s.cause_type,
      tx: s.cause_tx.toISOString(),
      commit: s.cause_commit,
      prepare: s.cause_prepare,
      memoryId: s.cause_memory_id,
      tenant: s.tenant,
      subject: s.subject,
    },
    via: s.via_artifact_id,
  };
}

export function escalationOfRow(e: Selectable<TaintEscalationsTable>): Escalation {
  return {
    refPatterns: e.ref_patterns,
    sourceTypes: e.source_types,
    cause: {
      eventId: e.event_id,
      type: 'TaintPolicyEscalated',
      tx: e.tx.toISOString(),
      commit: e.commit,
      prepare: e.prepare,
      memoryId: null,
      tenant: e.tenant,
      subject: e.subject,
    },
  };
}
