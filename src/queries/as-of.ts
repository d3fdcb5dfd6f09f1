// asOf(subject, T, V) from the bitemporal memory_versions table (DESIGN
// section 7): the versions current at system time T (everything committed at
// or before T) whose valid window holds V and that were held true then —
// the projection's believedAt rule, read in one statement.
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { BELIEVED_STATUSES } from '../projections/memory/as-of.js';
import { faultFromRow } from '../projections/runtime/faults.js';
import { readActiveStatement, streamFaults, type ActiveReadModels } from './active-schema.js';
import { SubjectProjectionFaulted } from './projection-faulted.js';
import { belief, byBeliefOrder, type BeliefAnswer } from './belief.js';
import { openMemoryFields } from './opened/memory-fields.js';
import type { ReadSide } from './read-side.js';
import { requireTimeQuery, type TimeQuery, type TimeQueryInput } from './time-query.js';

export async function asOf(read: Pick<ReadSide, 'projections' | 'keyStore'>, input: TimeQueryInput): Promise<BeliefAnswer> {
  const q = requireTimeQuery(input);
  const { versions: rows, faults } = await readActiveStatement(read.projections, async (models) => {
    const row = await beliefStatement(models, q).executeTakeFirstOrThrow();
    return { result: row, schemaState: row.schema_state };
  });
  // Only an event the system knew at T can make the answer as of T incomplete.
  const known = faults.map(faultFromRow).filter((f) => f.recordedAt <= q.systemTime);
  if (known.length > 0) throw new SubjectProjectionFaulted(q.tenant, q.subject, known);
  const ref = { tenant: q.tenant, subject: q.subject };
  const opened = await openMemoryFields(
    read.keyStore,
    ref,
    rows.map((r) => ({ memoryId: r.memory_id, value: r.value, content: r.content })),
  );
  const beliefs = rows.map((row) => belief(fieldsOf(row), opened.get(row.memory_id)!)).sort(byBeliefOrder);
  return { tenant: q.tenant, subject: q.subject, systemTime: q.systemTime, validTime: q.validTime, from: 'memory_versions', beliefs };
}

function beliefStatement({ memory: tables, faults, schemaState }: ActiveReadModels, q: TimeQuery) {
  const T = new Date(q.systemTime);
  const V = new Date(q.validTime);
  return tables.selectNoFrom((eb) => [
    jsonArrayFrom(
      eb
        .selectFrom('memory_versions')
        .select([
          'memory_id',
          'version',
          'sequence',
          'status',
          'kind',
          'key',
          'scopes',
          'value_type',
          'value',
          'content',
          'polarity',
          'source_type',
          'source_refs',
          'trust',
          'confidence',
          'sensitivity',
          'consent_ref',
          'purposes',
          'refines',
          'valid_from',
          'valid_to',
          'expires_at',
          'superseded_by',
          'tx_from',
          'opened_by',
          'opened_by_type',
        ])
        .where('tenant', '=', q.tenant)
        .where('subject', '=', q.subject)
        .where('tx_from', '<=', T)
        .where((w) => w.or([w('tx_to', 'is', null), w('tx_to', '>', T)]))
        .where('valid_from', '<=', V)
        .where((w) => w.or([w('valid_to', 'is', null), w('valid_to', '>', V)]))
        .where('status', 'in', BELIEVED_STATUSES)
        .orderBy('sequence'),
    ).as('versions'),
    streamFaults(faults.memory, q.tenant, q.subject).as('faults'),
    schemaState.as('schema_state'),
  ]);
}

type BeliefRow = Awaited<ReturnType<ReturnType<typeof beliefStatement>['executeTakeFirstOrThrow']>>['versions'][number];

/** JSON carries instants as text in the server's offset: normalised to the ledger's form. */
const iso = (text: string | null): string | null => (text === null ? null : new Date(text).toISOString());

function fieldsOf(row: BeliefRow) {
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
    purposes: row.purposes,
    refines: row.refines,
    validFrom: iso(row.valid_from)!,
    validTo: iso(row.valid_to),
    expiresAt: iso(row.expires_at),
    supersededBy: row.superseded_by,
    recordedAt: iso(row.tx_from)!,
    recordedBy: { eventId: row.opened_by, type: row.opened_by_type },
  };
}
