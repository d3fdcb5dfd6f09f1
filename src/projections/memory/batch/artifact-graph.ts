// Artifacts, lineage and STALE for one batch: the part of the lineage graph
// the batch can reach (loaded by prefetch.ts), plus what the batch adds.
//
// STALE rules (DESIGN section 6; STALE never ends):
//   - an input memory is superseded, retracted, expired or forgotten;
//   - the subject is forgotten, or a deletion receipt names the artifact;
//   - a TaintPolicyEscalated whose new patterns or source types match the
//     source of an input (before or after generation: a summary built on a
//     tainted source is poisoned either way);
//   - a TrustChanged after generation that puts a source ref of an input
//     below the trust it had (the override it replaces, else the trust the
//     memory was recorded with). One before generation was known to whoever
//     built the artifact, so it does not count;
//   - transitively: a STALE artifact makes every artifact built on it STALE.
// An artifact generated on top of something already invalid is STALE from
// its generation; its cause is the earliest in the log among the candidates.
// Erasure (forgetting) also drops the sealed output of every artifact that
// derives from the erased content, transitively.
import type { Insertable } from 'kysely';
import { unhandled } from '../../../domain/decider/decider.js';
import type { ArtifactEvent } from '../../../domain/events/artifact-events.js';
import type { SubjectEventData } from '../../../domain/events/subject-events.js';
import type { LineageEdgesTable, StaleArtifactsTable } from '../tables.js';
import { artifactFromRow, artifactSkeleton, causeAt, staleRow, type ArtifactRow, type Cause, type InputRef } from './artifact-rows.js';
import { comparePoints, memoryKey, subjectKey, type EventPoint } from './event-point.js';
import type { MemoryLedger, MemoryRef } from './memory-ledger.js';
import { causeOfVersion, generatedFields, inputAt, memoryEdge, parentEdge } from './generation.js';
import { escalationOfRow, inputOfEdge, staleOfRow, type GraphLoad } from './graph-load.js';
import { tainted, trustLowered, type Escalation } from './source-rules.js';

interface ArtifactNode {
  readonly artifactId: string;
  row: ArtifactRow;
  dirty: boolean;
  inputs: InputRef[];
  stale: { cause: Cause; via: string | null } | undefined;
  erased: boolean;
}

export type { GraphLoad } from './graph-load.js';

export class ArtifactGraph {
  readonly #nodes = new Map<string, ArtifactNode>();
  /** Parent id -> ids built on it; kept apart from the nodes, since a child may reach the log before its parent. */
  readonly #children = new Map<string, Set<string>>();
  readonly #byMemory = new Map<string, Set<string>>();
  readonly #bySubject = new Map<string, Set<string>>();
  readonly #escalations = new Map<string, Escalation[]>();
  readonly edges: Insertable<LineageEdgesTable>[] = [];
  readonly staleRows: Insertable<StaleArtifactsTable>[] = [];

  constructor(private readonly memories: MemoryLedger) {}

  load(load: GraphLoad): void {
    for (const row of load.artifacts) this.#add(row.artifact_id, artifactFromRow(row));
    for (const edge of load.edges) {
      const node = this.#nodes.get(edge.artifact_id);
      if (!node) continue;
      if (edge.kind === 'artifact') this.#link(edge.target_id, node.artifactId);
      else this.#addInput(node, inputOfEdge(edge));
    }
    for (const s of load.stale) {
      const node = this.#nodes.get(s.artifact_id);
      if (node) node.stale = staleOfRow(s);
    }
    for (const e of load.escalations) this.#escalate(e.tenant, e.subject, escalationOfRow(e));
  }

  /** An event of an artifact stream (passed over when the stream's revision says it was applied already). */
  artifactEvent(at: EventPoint, artifactId: string, event: ArtifactEvent): void {
    let node = this.#nodes.get(artifactId);
    if (node && at.revision <= Number(node.row.stream_revision)) return;
    node ??= this.#add(artifactId, artifactSkeleton(artifactId, at));
    const row = node.row;
    Object.assign(row, { stream_revision: String(at.revision), updated_tx: at.tx, updated_commit: at.commit, updated_prepare: at.prepare });
    node.dirty = true;
    switch (event.type) {
      case 'ArtifactGenerated':
        return this.#generated(node, at, event.data);
      case 'GatePassed':
        return void Object.assign(row, { status: 'gate_passed', must_preserve_count: event.data.mustPreserveCount });
      case 'GateFailed':
        return void Object.assign(row, { status: 'gate_failed', gate_failures: JSON.stringify(event.data.reasons) });
      case 'GenerationFailed':
        return void Object.assign(row, { status: 'generation_failed', generation_error: JSON.stringify(event.data.error) });
      case 'ConsolidationRejected':
        return void Object.assign(row, { status: 'rejected', rejection_reason: event.data.reason, rejection_message: event.data.message });
      case 'ArtifactApproved':
        // Not projected: publication reads the approval from the artifact's own stream.
        return;
      default:
        return unhandled(event);
    }
  }

  aliasSwitched(at: EventPoint, artifactId: string): void {
    const node = this.#nodes.get(artifactId);
    if (!node) return;
    Object.assign(node.row, { status: 'published', published_tx: at.tx, published_commit: at.commit, published_prepare: at.prepare });
    node.dirty = true;
  }

  memoryLeft(at: EventPoint, ref: MemoryRef, erased: boolean): void {
    const cause = causeAt(at, ref.tenant, ref.subject, ref.memoryId);
    this.#markAll(this.#nodesOf(this.#byMemory.get(memoryKey(ref.tenant, ref.subject, ref.memoryId))), cause, at, erased);
  }

  subjectForgotten(at: EventPoint, tenant: string, subject: string): void {
    const cause = causeAt(at, tenant, subject);
    this.#markAll(this.#nodesOf(this.#bySubject.get(subjectKey(tenant, subject))), cause, at, true);
  }

  receiptIssued(at: EventPoint, tenant: string, subject: string, data: SubjectEventData<'DeletionReceiptIssued'>): void {
    const cause = causeAt(at, tenant, subject);
    this.#markAll(this.#nodesOf(data.invalidatedArtifactIds), cause, at, true);
  }

  taintEscalated(at: EventPoint, tenant: string, subject: string, data: SubjectEventData<'TaintPolicyEscalated'>): void {
    const escalation: Escalation = { refPatterns: data.refPatterns, sourceTypes: data.sourceTypes, cause: causeAt(at, tenant, subject) };
    this.#escalate(tenant, subject, escalation);
    const hit = this.#nodesOf(this.#bySubject.get(subjectKey(tenant, subject))).filter((node) =>
      node.inputs.some((input) => tainted(escalation, input)),
    );
    this.#markAll(hit, escalation.cause, at, false);
  }

  trustChanged(at: EventPoint, tenant: string, subject: string, data: SubjectEventData<'TrustChanged'>): void {
    const cause = causeAt(at, tenant, subject);
    const hit = this.#nodesOf(this.#bySubject.get(subjectKey(tenant, subject))).filter((node) =>
      node.inputs.some((input) => trustLowered(data, input)),
    );
    this.#markAll(hit, cause, at, false);
  }

  #nodesOf(ids: Iterable<string> | undefined): ArtifactNode[] {
    const nodes: ArtifactNode[] = [];
    for (const id of ids ?? []) {
      const node = this.#nodes.get(id);
      if (node) nodes.push(node);
    }
    return nodes;
  }

  dirtyRows(): ArtifactRow[] {
    return [...this.#nodes.values()].filter((n) => n.dirty).map((n) => n.row);
  }

  #generated(node: ArtifactNode, at: EventPoint, data: Extract<ArtifactEvent, { type: 'ArtifactGenerated' }>['data']): void {
    const m = data.manifest;
    Object.assign(node.row, generatedFields(data, at, node.erased));
    this.#index(node, m.tenant, m.subject);
    const candidates: { cause: Cause; via: string | null }[] = [];
    let erase = false;
    const seen = new Set<string>();
    for (const input of m.inputs) {
      if (seen.has(input.memoryId)) continue;
      seen.add(input.memoryId);
      const current = this.memories.current(m.tenant, m.subject, input.memoryId);
      this.edges.push(memoryEdge(node.artifactId, m, input, current, at));
      const ref = inputAt(m, input, current);
      this.#addInput(node, ref);
      if (current && current.status !== 'active') {
        candidates.push({ cause: causeOfVersion(current, m), via: null });
        if (current.status === 'forgotten') erase = true;
      }
      for (const escalation of this.#escalations.get(subjectKey(m.tenant, m.subject)) ?? []) {
        if (tainted(escalation, ref)) candidates.push({ cause: escalation.cause, via: null });
      }
    }
    if (m.parentArtifactId !== null) {
      this.edges.push(parentEdge(node.artifactId, m, m.parentArtifactId, at));
      this.#link(m.parentArtifactId, node.artifactId);
      const parent = this.#nodes.get(m.parentArtifactId);
      if (parent) {
        if (parent.stale) candidates.push({ cause: parent.stale.cause, via: parent.artifactId });
        if (parent.erased) erase = true;
      }
    }
    // Ties (one event both hit an input and made the parent STALE) go to the direct cause: inputs were listed first.
    // Children seen before their parent (the log holds no order between two artifact streams) inherit from it now.
    const first = candidates.sort((a, b) => comparePoints(a.cause, b.cause))[0];
    if (first) this.#markFrom(node, first.cause, first.via, at, erase);
    else if (erase) this.#markFrom(node, causeAt(at, m.tenant, m.subject), null, at, true);
  }

  /**
   * Marks the artifacts a cause hits directly (via = null, whatever order they
   * come in), then everything built on them (via = the parent it inherited
   * from); a branch stops where there is nothing new to mark.
   */
  #markAll(direct: Iterable<ArtifactNode>, cause: Cause, at: EventPoint, erase: boolean): void {
    const hit = new Set(direct);
    const changed = [...hit].filter((node) => this.#markOne(node, cause, null, at, erase));
    for (const node of changed) this.#descend(node, cause, at, erase, hit);
  }

  #markFrom(node: ArtifactNode, cause: Cause, via: string | null, at: EventPoint, erase: boolean): void {
    if (this.#markOne(node, cause, via, at, erase)) this.#descend(node, cause, at, erase, new Set([node]));
  }

  /** Everything built on `node` (but what the cause hit directly), via its parent. */
  #descend(node: ArtifactNode, cause: Cause, at: EventPoint, erase: boolean, hit: Set<ArtifactNode>, seen = new Set<string>()): void {
    if (seen.has(node.artifactId)) return;
    seen.add(node.artifactId);
    for (const childId of this.#children.get(node.artifactId) ?? []) {
      const child = this.#nodes.get(childId);
      if (!child || hit.has(child)) continue;
      if (this.#markOne(child, cause, node.artifactId, at, erase)) this.#descend(child, cause, at, erase, hit, seen);
    }
  }

  /** True when the node changed (newly STALE, or newly erased). */
  #markOne(node: ArtifactNode, cause: Cause, via: string | null, at: EventPoint, erase: boolean): boolean {
    let changed = false;
    if (!node.stale) {
      node.stale = { cause, via };
      this.staleRows.push(staleRow(node.artifactId, node.row, cause, via, at));
      changed = true;
    }
    if (erase && !node.erased) {
      node.erased = true;
      Object.assign(node.row, { output: null, output_erased: true });
      node.dirty = true;
      changed = true;
    }
    return changed;
  }

  #add(artifactId: string, row: ArtifactRow): ArtifactNode {
    const node: ArtifactNode = { artifactId, row, dirty: false, inputs: [], stale: undefined, erased: row.output_erased };
    this.#nodes.set(artifactId, node);
    if (row.tenant && row.subject) this.#index(node, row.tenant, row.subject);
    return node;
  }

  #index(node: ArtifactNode, tenant: string, subject: string): void {
    const key = subjectKey(tenant, subject);
    const ids = this.#bySubject.get(key);
    if (ids) ids.add(node.artifactId);
    else this.#bySubject.set(key, new Set([node.artifactId]));
  }

  #addInput(node: ArtifactNode, input: InputRef): void {
    node.inputs.push(input);
    const key = memoryKey(input.tenant, input.subject, input.memoryId);
    const ids = this.#byMemory.get(key);
    if (ids) ids.add(node.artifactId);
    else this.#byMemory.set(key, new Set([node.artifactId]));
  }

  #link(parentId: string, childId: string): void {
    const children = this.#children.get(parentId);
    if (children) children.add(childId);
    else this.#children.set(parentId, new Set([childId]));
  }

  #escalate(tenant: string, subject: string, escalation: Escalation): void {
    const key = subjectKey(tenant, subject);
    const list = this.#escalations.get(key);
    if (list) list.push(escalation);
    else this.#escalations.set(key, [escalation]);
  }
}
