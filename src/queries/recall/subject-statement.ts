// The one statement recall reads a subject with (subject-view.ts): the
// clock, the alias with its artifact and STALE mark, the taint escalations,
// the trust overrides, the open conflicts, the demotions, the current active
// versions and both read models' faults, as JSON columns of one row. What
// the caller holds already is left out: the versions at the revision it
// knows, and the summary's sealed output (hundreds of kilobytes for a
// subject of a thousand memories) when it is the sealing it opened.
// Building and compiling it with Kysely took about a tenth of a recall's CPU,
// so it is compiled once per pair of active schemas (and with or without a
// known revision) with placeholder ids, and run again with the request's
// values put in the placeholders' places.
import { CompiledQuery, sql } from 'kysely';
import type { Sealed } from '../../domain/events/sealed.js';
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres';
import { subjectStreamName } from '../../domain/events/stream-names.js';
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

/** Placeholder values: valid ids that are no real request's. Each parameter equal to one is the request's value in that place. */
const PLACEHOLDERS = [
  {
    tenant: 'recall-view-placeholder-tenant',
    subject: 'recall-view-placeholder-subject',
    revision: -424242,
    output: {
      artifactId: 'recall-view-placeholder-artifact',
      outputHash: 'recall-view-placeholder-hash',
      keyId: 'recall-view-placeholder-key',
      iv: 'recall-view-placeholder-iv',
    },
  },
  {
    tenant: 'recall-view-other-tenant',
    subject: 'recall-view-other-subject',
    revision: -434343,
    output: {
      artifactId: 'recall-view-other-artifact',
      outputHash: 'recall-view-other-hash',
      keyId: 'recall-view-other-key',
      iv: 'recall-view-other-iv',
    },
  },
] as const;

type Slot = 'tenant' | 'subject' | 'stream' | 'revision' | 'artifactId' | 'outputHash' | 'keyId' | 'iv' | { readonly fixed: unknown };

interface Compiled {
  readonly sql: string;
  readonly slots: readonly Slot[];
}

const compiled = new Map<string, Compiled>();

function compile(models: ActiveReadModels, known: { readonly revision: boolean; readonly output: boolean }): Compiled {
  const [a, b] = PLACEHOLDERS.map((p) => ({
    ...p,
    stream: subjectStreamName(p.tenant, p.subject),
    query: subjectStatement(
      models,
      p.tenant,
      p.subject,
      known.revision ? p.revision : undefined,
      known.output ? p.output : undefined,
    ).compile(),
  }));
  const slots = a!.query.parameters.map((p, i): Slot => {
    if (p === a!.tenant) return 'tenant';
    if (p === a!.subject) return 'subject';
    if (p === a!.stream) return 'stream';
    if (p === String(a!.revision)) return 'revision';
    if (p === a!.output.artifactId) return 'artifactId';
    if (p === a!.output.outputHash) return 'outputHash';
    if (p === a!.output.keyId) return 'keyId';
    if (p === a!.output.iv) return 'iv';
    // Compiled again with other placeholders, a value that changes is one this file does not know how to put in.
    if (p !== b!.query.parameters[i] || a!.query.sql !== b!.query.sql)
      throw new Error(`the subject statement has a parameter (${i + 1}) made from the request that readSubjectRow does not fill`);
    return { fixed: p };
  });
  return { sql: a!.query.sql, slots };
}

/**
 * The subject's row at the active schemas (`knownRevision`: the versions are
 * left out when the clock is still at it; `knownOutput`: the summary's
 * ciphertext, when the alias still points at that sealing).
 */
export async function readSubjectRow(
  models: ActiveReadModels,
  tenant: string,
  subject: string,
  knownRevision?: number,
  knownOutput?: KnownOutput,
): Promise<SubjectRow> {
  const known = { revision: knownRevision !== undefined, output: knownOutput !== undefined };
  const name = `${models.schemas.memory}\u0000${models.schemas.conflictsTrust}\u0000${known.revision}\u0000${known.output}`;
  let statement = compiled.get(name);
  if (statement === undefined) {
    statement = compile(models, known);
    // Schemas change only with a rebuild: a few entries in a process's life.
    if (compiled.size > 64) compiled.clear();
    compiled.set(name, statement);
  }
  const stream = subjectStreamName(tenant, subject);
  const values = statement.slots.map((slot) => {
    switch (slot) {
      case 'tenant':
        return tenant;
      case 'subject':
        return subject;
      case 'stream':
        return stream;
      case 'revision':
        return String(knownRevision);
      case 'artifactId':
        return knownOutput!.artifactId;
      case 'outputHash':
        return knownOutput!.outputHash;
      case 'keyId':
        return knownOutput!.keyId;
      case 'iv':
        return knownOutput!.iv;
      default:
        return slot.fixed;
    }
  });
  const { rows } = await models.memory.executeQuery<SubjectRow>(CompiledQuery.raw(statement.sql, values));
  if (rows[0] === undefined) throw new Error('the subject statement answered no row');
  return rows[0];
}
