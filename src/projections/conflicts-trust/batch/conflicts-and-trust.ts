// What a batch of subject events says about conflicts and trust, collected
// in memory in log order, then written set-wise (flush.ts).
import type { Insertable } from 'kysely';
import type { SubjectEventData } from '../../../domain/events/subject-events.js';
import { subjectKey, type EventPoint } from '../../memory/batch/event-point.js';
import type { ConflictsTable, TrustOverridesTable } from '../tables.js';

export interface ConflictResolution {
  readonly tenant: string;
  readonly subject: string;
  readonly conflictId: string;
  readonly winner: string;
  readonly losers: readonly string[];
  readonly resolvedAt: string;
  readonly at: EventPoint;
}

export class ConflictsAndTrust {
  readonly conflicts = new Map<string, Insertable<ConflictsTable>>();
  /** Resolutions of conflicts detected in earlier batches. */
  readonly resolutions: ConflictResolution[] = [];
  /** The last override per (subject, source ref) in the batch: one row each to upsert. */
  readonly trustOverrides = new Map<string, Insertable<TrustOverridesTable>>();

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
}
