// One batch of the memory projection: route and decode the events, read what
// they touch (prefetch.ts), apply them one by one in memory, in log order,
// then write the result set-wise (flush.ts). The outcome does not depend on
// where batch boundaries fall: everything a rule looks at is either loaded
// from the tables or produced earlier in the same batch.
import type { Kysely } from 'kysely';
import { unhandled } from '../../../domain/decider/decider.js';
import { statusChangeOf } from '../../../domain/subject/status-change.js';
import type { StoredEvent } from '../../../infrastructure/event-store/port.js';
import type { MemoryProjectionDb } from '../tables.js';
import { ArtifactGraph } from './artifact-graph.js';
import { flush, type BatchChanges } from './flush.js';
import { MemoryUsageLedger } from './memory-usage.js';
import { MemoryLedger } from './memory-ledger.js';
import { planPrefetch, prefetch } from './prefetch.js';
import { routeEvents, type RoutedEvent } from './routed-event.js';
import { SubjectClocks } from './subject-clocks.js';
import { SubjectRecords } from './subject-records.js';

/** `db` is scoped to `schema` (withSchema). */
export async function applyMemoryBatch(db: Kysely<MemoryProjectionDb>, schema: string, events: readonly StoredEvent[]): Promise<void> {
  const routed = routeEvents(events);
  if (routed.length === 0) return;
  const loaded = await prefetch(db, schema, planPrefetch(routed));
  const memories = new MemoryLedger();
  memories.load(loaded.memories);
  const clocks = new SubjectClocks();
  clocks.load(loaded.clocks);
  const graph = new ArtifactGraph(memories);
  graph.load(loaded.graph);
  const records = new SubjectRecords();
  const usage = new MemoryUsageLedger();
  usage.load(loaded.usage);
  const changes = { memories, clocks, records, graph, usage };
  for (const event of routed) applyOne(changes, event);
  await flush(db, changes);
}

function applyOne({ memories, clocks, records, graph, usage }: BatchChanges, routed: RoutedEvent): void {
  if (routed.kind === 'artifact') {
    graph.artifactEvent(routed.at, routed.artifactId, routed.event);
    return;
  }
  const { tenant, subject, event, at } = routed;
  if (!clocks.admit(tenant, subject, at)) return;
  clocks.advance(tenant, subject, event, at);
  switch (event.type) {
    case 'MemoryRecorded':
      return memories.record(at, tenant, subject, event.data);
    case 'MemoryCorroborated':
      return records.corroborated(at, tenant, subject, event.data);
    case 'MemorySuperseded':
    case 'MemoryRetracted':
    case 'MemoryExpired':
    case 'MemoryArchived':
    case 'MemoryForgotten': {
      const change = statusChangeOf(event);
      const ref = { tenant, subject, memoryId: change.memoryId };
      if (memories.leave(at, ref, change.status, change)) graph.memoryLeft(at, ref, change.status === 'forgotten');
      return;
    }
    case 'MemoryDemoted':
    case 'MemoryRestored':
      return records.demotionChanged(at, tenant, subject, event);
    case 'ConflictDetected':
    case 'ConflictResolved':
      // The conflicts_trust read model's (they still advance the clock's revision).
      return;
    case 'TrustChanged':
      return graph.trustChanged(at, tenant, subject, event.data);
    case 'TaintPolicyEscalated':
      records.taintEscalated(at, tenant, subject, event.data);
      return graph.taintEscalated(at, tenant, subject, event.data);
    case 'SubjectForgotten':
      memories.forgetSubject(at, tenant, subject);
      return graph.subjectForgotten(at, tenant, subject);
    case 'SummaryAliasSwitched':
      records.aliasSwitched(at, tenant, subject, event.data);
      return graph.aliasSwitched(at, event.data.artifactId);
    case 'DeletionReceiptIssued':
      return graph.receiptIssued(at, tenant, subject, event.data);
    // Candidates are never memory (issue 17): the memory read models leave them out.
    case 'MemoryProposed':
    case 'ProposalRejected':
    case 'ProposalExpired':
    case 'MemoryPromoted': // the source stays as it was; the copy is the target's (a candidate there)
      return;
    case 'MemoryFeedbackGiven':
      return usage.feedback(tenant, subject, event.data);
    default:
      return unhandled(event);
  }
}
