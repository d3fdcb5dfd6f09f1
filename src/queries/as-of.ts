// asOf(subject, T, V) from the bitemporal memory_versions table (DESIGN
// section 7). "At T" includes every event committed at or before T.
import type { Selectable } from 'kysely';
import { believedAt } from '../projections/memory/as-of.js';
import type { MemoryVersionsTable } from '../projections/memory/tables.js';
import { belief, byBeliefOrder, type BeliefAnswer } from './belief.js';
import { readMemoryTables } from './memory-tables.js';
import { openMemoryFields } from './opened/memory-fields.js';
import type { ReadSide } from './read-side.js';
import { requireTimeQuery, type TimeQueryInput } from './time-query.js';

export async function asOf(read: Pick<ReadSide, 'projections' | 'keyStore'>, input: TimeQueryInput): Promise<BeliefAnswer> {
  const q = requireTimeQuery(input);
  const rows = await readMemoryTables(read.projections, (tables) =>
    believedAt(tables, { tenant: q.tenant, subject: q.subject, systemTime: new Date(q.systemTime), validTime: new Date(q.validTime) }),
  );
  const ref = { tenant: q.tenant, subject: q.subject };
  const opened = await openMemoryFields(read.keyStore, ref, rows.map((r) => ({ memoryId: r.memory_id, value: r.value, content: r.content })));
  const beliefs = rows.map((row) => belief(fieldsOf(row), opened.get(row.memory_id)!)).sort(byBeliefOrder);
  return { tenant: q.tenant, subject: q.subject, systemTime: q.systemTime, validTime: q.validTime, from: 'memory_versions', beliefs };
}

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

function fieldsOf(row: Selectable<MemoryVersionsTable>) {
  return {
    memoryId: row.memory_id,
    version: row.version,
    sequence: row.sequence,
    status: row.status as 'active' | 'superseded',
    kind: row.kind,
    key: row.key,
    scopes: row.scopes,
    valueType: row.value_type,
    polarity: row.polarity,
    source: { type: row.source_type, refs: row.source_refs },
    trust: row.trust,
    confidence: row.confidence,
    sensitivity: row.sensitivity,
    consentRef: row.consent_ref,
    validFrom: row.valid_from.toISOString(),
    validTo: iso(row.valid_to),
    expiresAt: iso(row.expires_at),
    supersededBy: row.superseded_by,
    recordedAt: row.tx_from.toISOString(),
    recordedBy: { eventId: row.opened_by, type: row.opened_by_type },
  };
}
