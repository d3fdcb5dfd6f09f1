// The one statement recall reads a subject with (subject-view.ts): the
// clock, the alias with its artifact and STALE mark, the taint escalations,
// the trust overrides, the open conflicts, the demotions, the current active
// versions and both read models' faults, as JSON columns of one row. What
// the caller holds already is left out: the versions at the revision it
// knows, and the summary's sealed output (hundreds of kilobytes for a
// subject of a thousand memories) when it is the sealing it opened. It is
// compiled once and run with the request's values (subject-row.ts).
import { sql } from 'kysely';
import type { Sealed } from '../../domain/events/sealed.js';
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres';
import { streamFaults, type ActiveReadModels } from '../active-schema.js';

const VERSION_COLUMNS = [
  'memory_id',
  'version',
  'sequence',
  'kind',
  'key',
  'scopes',
  'value',
  'content',
  'anticipated_queries',
  'polarity',
  'source_type',
  'source_refs',
  'trust',
  'confidence',
  'sensitivity',
  'consent_ref',
  'purposes',
  'valid_from',
  'valid_to',
  'expires_at',
  'tx_from',
  'opened_by',
  'opened_by_type',
  'promoted_from',
] as const;

/**
 * The summary output the caller holds opened: the artifact and the keyed hash
 * of its content name it; the key and nonce are those it was opened from.
 */
export interface KnownOutput {
  readonly artifactId: string;
  readonly outputHash: string;
  readonly keyId: string;
  readonly iv: string;
}

/**
 * The output as stored, or, when it is the one the caller holds, its
 * envelope without the ciphertext (`ct` empty): the row's other columns tell
 * it (comparing inside the sealed JSON would unpack all of it).
 */
function outputColumn(known: KnownOutput | undefined) {
  if (known === undefined) return sql<Sealed | null>`r.output`.as('output');
  return sql<Sealed | null>`case when a.artifact_id = ${known.artifactId} and r.output_hash = ${known.outputHash} and r.output is not null
    then jsonb_build_object('alg', 'A256GCM', 'keyId', ${known.keyId}::text, 'iv', ${known.iv}::text, 'ct', '') else r.output end`.as(
    'output',
  );
}

export function subjectStatement(
  { memory: tables, conflictsTrust, faults, schemaState }: ActiveReadModels,
  tenant: string,
  subject: string,
  knownRevision?: number,
  knownOutput?: KnownOutput,
) {
  return tables.selectNoFrom((eb) => [
    jsonObjectFrom(
      eb
        .selectFrom('subject_clock')
        .select(['input_epoch', 'high_water_mark', 'forgotten', 'stream_revision'])
        .where('tenant', '=', tenant)
        .where('subject', '=', subject),
    ).as('clock'),
    jsonObjectFrom(
      eb
        .selectFrom('summary_alias as a')
        .leftJoin('artifacts as r', 'r.artifact_id', 'a.artifact_id')
        .leftJoin('stale_artifacts as s', 's.artifact_id', 'a.artifact_id')
        .select([
          'a.artifact_id',
          'a.source_epoch',
          'a.covers_through',
          'r.artifact_id as artifact_row',
          'r.tenant as artifact_tenant',
          'r.subject as artifact_subject',
          'r.status as artifact_status',
          outputColumn(knownOutput),
          'r.output_hash',
          'r.output_erased',
          's.cause_type',
          's.cause_event_id',
          's.cause_memory_id',
          's.via_artifact_id',
        ])
        .where('a.tenant', '=', tenant)
        .where('a.subject', '=', subject),
    ).as('alias'),
    jsonArrayFrom(
      eb
        .selectFrom('taint_escalations')
        .select(['ref_patterns', 'source_types'])
        .where('tenant', '=', tenant)
        .where('subject', '=', subject),
    ).as('taint'),
    jsonArrayFrom(
      conflictsTrust
        .selectFrom('trust_overrides')
        .select(['source_ref', 'level'])
        .where('tenant', '=', tenant)
        .where('subject', '=', subject),
    ).as('trust'),
    jsonArrayFrom(
      conflictsTrust
        .selectFrom('conflicts')
        .select(['conflict_id', 'key', 'scopes', 'memory_ids'])
        .where('tenant', '=', tenant)
        .where('subject', '=', subject)
        .where('status', '=', 'open')
        .orderBy('conflict_id'),
    ).as('conflicts'),
    jsonArrayFrom(
      eb
        .selectFrom('memory_demotions')
        .select(['memory_id', 'demoted'])
        .where('tenant', '=', tenant)
        .where('subject', '=', subject)
        .orderBy('commit')
        .orderBy('prepare'),
    ).as('demotions'),
    jsonArrayFrom(
      eb
        .selectFrom('memory_versions')
        .select((v) => [
          ...VERSION_COLUMNS,
          jsonObjectFrom(
            v
              .selectFrom('memory_usage as u')
              .select([
                'u.used_count',
                'u.confirmed_count',
                'u.ignored_count',
                'u.harmful_count',
                'u.corrected_count',
                'u.last_reinforced_at',
                'u.under_review',
              ])
              .whereRef('u.tenant', '=', 'memory_versions.tenant')
              .whereRef('u.subject', '=', 'memory_versions.subject')
              .whereRef('u.memory_id', '=', 'memory_versions.memory_id'),
          ).as('usage'),
        ])
        .where('tenant', '=', tenant)
        .where('subject', '=', subject)
        .where('tx_to', 'is', null)
        .where('status', '=', 'active')
        // Same snapshot as the clock read beside it: at the revision the caller holds, the versions are the ones it has.
        .$if(knownRevision !== undefined, (qb) =>
          qb.where((w) =>
            w.not(
              w.exists(
                w
                  .selectFrom('subject_clock')
                  .select('subject')
                  .where('tenant', '=', tenant)
                  .where('subject', '=', subject)
                  .where('stream_revision', '=', String(knownRevision)),
              ),
            ),
          ),
        )
        .orderBy('sequence'),
    ).as('versions'),
    streamFaults(faults.memory, tenant, subject).as('faults'),
    streamFaults(faults.conflictsTrust, tenant, subject).as('conflicts_trust_faults'),
    schemaState.as('schema_state'),
  ]);
}

export type SubjectRow = Awaited<ReturnType<ReturnType<typeof subjectStatement>['executeTakeFirstOrThrow']>>;
