// Erasure in the projection's rows: a forgotten memory's (or subject's)
// ciphertext and keyed hashes are nulled in every version, and the keyed
// hashes lineage edges copied from manifests are dropped from every edge
// into it. Part of flush.ts: writeErasures runs before the batch's inserts,
// writeEdgeErasures after them.
import type { Kysely } from 'kysely';
import type { MemoryProjectionDb } from '../tables.js';
import type { ArtifactGraph } from './artifact-graph.js';
import { unnestRows } from '../../runtime/bulk.js';
import { subjectKey } from './event-point.js';
import type { MemoryLedger } from './memory-ledger.js';

const ERASED = { value: null, content: null, value_hash: null, content_hash: null, anticipated_queries: null } as const;
/** Lineage edges keep the memory they point at, not its keyed hashes. */
const ERASED_EDGE = { value_hash: null, content_hash: null } as const;

export async function writeErasures(db: Kysely<MemoryProjectionDb>, memories: MemoryLedger): Promise<void> {
  const subjects = new Set(memories.erasedSubjects.map((s) => subjectKey(s.tenant, s.subject)));
  for (const { tenant, subject } of memories.erasedSubjects) {
    await db.updateTable('memory_versions').set(ERASED).where('tenant', '=', tenant).where('subject', '=', subject).execute();
  }
  const erased = memories.erasedMemories.filter((m) => !subjects.has(subjectKey(m.tenant, m.subject)));
  if (erased.length === 0) return;
  const keys = unnestRows(
    erased.map((m) => ({ tenant: m.tenant, subject: m.subject, memory_id: m.memoryId })),
    { tenant: 'text', subject: 'text', memory_id: 'text' },
  ).as('k');
  await db
    .updateTable('memory_versions as m')
    .from(keys)
    .set(ERASED)
    .whereRef('m.tenant', '=', 'k.tenant')
    .whereRef('m.subject', '=', 'k.subject')
    .whereRef('m.memory_id', '=', 'k.memory_id')
    .execute();
}

/**
 * Erasure also drops the keyed hashes a lineage edge copied from the
 * manifest (the edge keeps the memory it points at). Run after the batch's
 * inserts, over the edges it inserted and those of the memories it wrote a
 * forgotten version of (a subject's erasure writes one for each of its
 * memories), against the forgotten versions stored now: whatever the batch
 * boundaries, every edge of a forgotten memory ends without hashes.
 */
export async function writeEdgeErasures(db: Kysely<MemoryProjectionDb>, memories: MemoryLedger, graph: ArtifactGraph): Promise<void> {
  const targets = new Map<string, { tenant: string; subject: string; memory_id: string }>();
  const add = (tenant: string, subject: string, memoryId: string) =>
    targets.set(`${tenant}\u0000${subject}\u0000${memoryId}`, { tenant, subject, memory_id: memoryId });
  for (const e of graph.edges)
    if (e.kind === 'memory' && (e.value_hash != null || e.content_hash != null)) add(e.target_tenant, e.target_subject, e.target_id);
  // Every forgotten version is inserted exactly once, in some batch: its edges are visited then, even edges written before the memory existed.
  for (const v of memories.inserts) if (v.status === 'forgotten') add(v.tenant, v.subject, v.memoryId);
  if (targets.size === 0) return;
  const keys = unnestRows([...targets.values()], { tenant: 'text', subject: 'text', memory_id: 'text' }).as('k');
  await db
    .updateTable('lineage_edges as e')
    .from(keys)
    .set(ERASED_EDGE)
    .where('e.kind', '=', 'memory')
    .whereRef('e.target_tenant', '=', 'k.tenant')
    .whereRef('e.target_subject', '=', 'k.subject')
    .whereRef('e.target_id', '=', 'k.memory_id')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('memory_versions as f')
          .select('f.version')
          .whereRef('f.tenant', '=', 'e.target_tenant')
          .whereRef('f.subject', '=', 'e.target_subject')
          .whereRef('f.memory_id', '=', 'e.target_id')
          .where('f.status', '=', 'forgotten'),
      ),
    )
    .execute();
}
