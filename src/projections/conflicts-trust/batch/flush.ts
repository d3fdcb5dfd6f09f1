// Writes what a conflicts-and-trust batch applied, one set-based statement
// per kind of change, inside the batch's transaction (unnest(): runtime/bulk.ts).
import type { Kysely } from 'kysely';
import { columnsOf, unnestRows } from '../../runtime/bulk.js';
import type { ConflictsTrustDb } from '../tables.js';
import { CONFLICT_TYPES, SUBJECT_REVISION_TYPES, TRUST_OVERRIDE_TYPES } from './column-types.js';
import type { ConflictsAndTrust } from './conflicts-and-trust.js';
import type { SubjectRevisions } from './subject-events.js';

export async function flush(db: Kysely<ConflictsTrustDb>, records: ConflictsAndTrust, revisions: SubjectRevisions): Promise<void> {
  if (records.conflicts.size > 0) {
    await db
      .insertInto('conflicts')
      .columns(columnsOf(CONFLICT_TYPES))
      .expression(unnestRows([...records.conflicts.values()], CONFLICT_TYPES))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  if (records.resolutions.length > 0) {
    const resolved = unnestRows(
      records.resolutions.map((r) => ({
        tenant: r.tenant,
        subject: r.subject,
        conflict_id: r.conflictId,
        winner: r.winner,
        losers: JSON.stringify(r.losers),
        resolved_at: r.resolvedAt,
        resolved_tx: r.at.tx,
        resolved_commit: r.at.commit,
        resolved_prepare: r.at.prepare,
      })),
      {
        tenant: 'text',
        subject: 'text',
        conflict_id: 'text',
        winner: 'text',
        losers: 'jsonb',
        resolved_at: 'timestamptz',
        resolved_tx: 'timestamptz',
        resolved_commit: 'int8',
        resolved_prepare: 'int8',
      },
    ).as('r');
    await db
      .updateTable('conflicts as c')
      .from(resolved)
      .set((eb) => ({
        status: 'resolved',
        winner: eb.ref('r.winner'),
        losers: eb.ref('r.losers'),
        resolved_at: eb.ref('r.resolved_at'),
        resolved_tx: eb.ref('r.resolved_tx'),
        resolved_commit: eb.ref('r.resolved_commit'),
        resolved_prepare: eb.ref('r.resolved_prepare'),
      }))
      .whereRef('c.tenant', '=', 'r.tenant')
      .whereRef('c.subject', '=', 'r.subject')
      .whereRef('c.conflict_id', '=', 'r.conflict_id')
      .execute();
  }
  if (records.trustOverrides.size > 0) {
    await db
      .insertInto('trust_overrides')
      .columns(columnsOf(TRUST_OVERRIDE_TYPES))
      .expression(unnestRows([...records.trustOverrides.values()], TRUST_OVERRIDE_TYPES))
      .onConflict((oc) =>
        oc.columns(['tenant', 'subject', 'source_ref']).doUpdateSet((eb) => ({
          level: eb.ref('excluded.level'),
          changed_at: eb.ref('excluded.changed_at'),
          event_id: eb.ref('excluded.event_id'),
          tx: eb.ref('excluded.tx'),
          commit: eb.ref('excluded.commit'),
          prepare: eb.ref('excluded.prepare'),
        })),
      )
      .execute();
  }
  const changed = revisions.changed();
  if (changed.length > 0) {
    await db
      .insertInto('subject_revisions')
      .columns(columnsOf(SUBJECT_REVISION_TYPES))
      .expression(
        unnestRows(
          changed.map((r) => ({ tenant: r.tenant, subject: r.subject, stream_revision: String(r.revision) })),
          SUBJECT_REVISION_TYPES,
        ),
      )
      .onConflict((oc) => oc.columns(['tenant', 'subject']).doUpdateSet((eb) => ({ stream_revision: eb.ref('excluded.stream_revision') })))
      .execute();
  }
}
