// The smaller tables a subject stream feeds in the memory read model:
// corroborations, taint escalations and the summary alias, collected for one
// batch (conflicts and trust overrides: the conflicts_trust read model).
import type { Insertable } from 'kysely';
import type { SubjectEventData, SubjectEventOf } from '../../../domain/events/subject-events.js';
import type { MemoryCorroborationsTable, MemoryDemotionsTable, SummaryAliasTable, TaintEscalationsTable } from '../tables.js';
import { subjectKey, type EventPoint } from './event-point.js';

export class SubjectRecords {
  readonly corroborations: Insertable<MemoryCorroborationsTable>[] = [];
  readonly demotions: Insertable<MemoryDemotionsTable>[] = [];
  readonly taintEscalations: Insertable<TaintEscalationsTable>[] = [];
  readonly aliases = new Map<string, Insertable<SummaryAliasTable>>();

  corroborated(at: EventPoint, tenant: string, subject: string, data: SubjectEventData<'MemoryCorroborated'>): void {
    this.corroborations.push({
      event_id: at.eventId,
      tenant,
      subject,
      memory_id: data.memoryId,
      source_type: data.source.type,
      source_refs: JSON.stringify(data.source.refs),
      confidence: data.confidence ?? null,
      corroborated_at: data.corroboratedAt,
      tx: at.tx,
      commit: at.commit,
      prepare: at.prepare,
    });
  }

  demotionChanged(at: EventPoint, tenant: string, subject: string, event: SubjectEventOf<'MemoryDemoted' | 'MemoryRestored'>): void {
    const demoted = event.type === 'MemoryDemoted';
    this.demotions.push({
      event_id: at.eventId,
      tenant,
      subject,
      memory_id: event.data.memoryId,
      demoted,
      reason: event.data.reason,
      rule: demoted ? event.data.rule : null,
      policy_version: demoted ? event.data.policyVersion : null,
      changed_at: demoted ? event.data.demotedAt : event.data.restoredAt,
      tx: at.tx,
      commit: at.commit,
      prepare: at.prepare,
    });
  }

  taintEscalated(at: EventPoint, tenant: string, subject: string, data: SubjectEventData<'TaintPolicyEscalated'>): void {
    this.taintEscalations.push({
      event_id: at.eventId,
      tenant,
      subject,
      policy_version: data.policyVersion,
      ref_patterns: JSON.stringify(data.refPatterns),
      source_types: JSON.stringify(data.sourceTypes),
      tx: at.tx,
      commit: at.commit,
      prepare: at.prepare,
    });
  }

  aliasSwitched(at: EventPoint, tenant: string, subject: string, data: SubjectEventData<'SummaryAliasSwitched'>): void {
    this.aliases.set(subjectKey(tenant, subject), {
      tenant,
      subject,
      artifact_id: data.artifactId,
      source_epoch: data.sourceEpoch,
      covers_through: data.coversThrough,
      switched_at: data.switchedAt,
      event_id: at.eventId,
      tx: at.tx,
      commit: at.commit,
      prepare: at.prepare,
    });
  }
}
