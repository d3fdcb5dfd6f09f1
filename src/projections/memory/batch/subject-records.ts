// The smaller tables a subject stream feeds: corroborations, conflicts,
// taint escalations, trust overrides and the summary alias, collected for
// one batch.
import type { Insertable } from 'kysely';
import type { SubjectEventData } from '../../../domain/events/subject-events.js';
import type {
  ConflictsTable,
  MemoryCorroborationsTable,
  SummaryAliasTable,
  TaintEscalationsTable,
  TrustOverridesTable,
} from '../tables.js';
import { subjectKey, type EventPoint } from './event-point.js';

export interface ConflictResolution {
  readonly tenant: string;
  readonly subject: string;
  readonly conflictId: string;
  readonly winner: string;
  readonly losers: readonly string[];
  readonly resolvedAt: string;
  readonly at: EventPoint;
}

export class SubjectRecords {
  readonly corroborations: Insertable<MemoryCorroborationsTable>[] = [];
  readonly conflicts = new Map<string, Insertable<ConflictsTable>>();
  /** Resolutions of conflicts detected in earlier batches. */
  readonly resolutions: ConflictResolution[] = [];
  readonly taintEscalations: Insertable<TaintEscalationsTable>[] = [];
  readonly aliases = new Map<string, Insertable<SummaryAliasTable>>();
  /** The last override per (subject, source ref) in the batch: one row each to upsert. */
  readonly trustOverrides = new Map<string, Insertable<TrustOverridesTable>>();

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

  conflictDetected(at: EventPoint, tenant: string, subject: string, data: SubjectEventData<'ConflictDetected'>): void {
    const key = `${subjectKey(tenant, subject)}\u0000${data.conflictId}`;
    if (this.conflicts.has(key)) return;
    this.conflicts.set(key, {
      tenant,
      subject,
      conflict_id: data.conflictId,
      key: data.key,
      scopes: JSON.stringify(data.scopes),
      memory_ids: JSON.stringify(data.memoryIds),
      status: 'open',
      detected_at: data.detectedAt,
      detected_tx: at.tx,
      detected_commit: at.commit,
      detected_prepare: at.prepare,
      winner: null,
      losers: null,
      resolved_at: null,
      resolved_tx: null,
      resolved_commit: null,
      resolved_prepare: null,
    });
  }

  conflictResolved(at: EventPoint, tenant: string, subject: string, data: SubjectEventData<'ConflictResolved'>): void {
    const detected = this.conflicts.get(`${subjectKey(tenant, subject)}\u0000${data.conflictId}`);
    if (!detected) {
      this.resolutions.push({
        tenant,
        subject,
        conflictId: data.conflictId,
        winner: data.winner,
        losers: data.losers,
        resolvedAt: data.resolvedAt,
        at,
      });
      return;
    }
    Object.assign(detected, {
      status: 'resolved',
      winner: data.winner,
      losers: JSON.stringify(data.losers),
      resolved_at: data.resolvedAt,
      resolved_tx: at.tx,
      resolved_commit: at.commit,
      resolved_prepare: at.prepare,
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

  trustChanged(at: EventPoint, tenant: string, subject: string, data: SubjectEventData<'TrustChanged'>): void {
    this.trustOverrides.set(`${subjectKey(tenant, subject)}\u0000${data.sourceRef}`, {
      tenant,
      subject,
      source_ref: data.sourceRef,
      level: data.level,
      changed_at: data.changedAt,
      event_id: at.eventId,
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
