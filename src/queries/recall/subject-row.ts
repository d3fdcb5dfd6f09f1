// The subject statement (subject-statement.ts) run for a request. Building
// and compiling it with Kysely took about a tenth of a recall's CPU, so it is
// compiled once per pair of active schemas (and with or without a known
// revision and a known output) with placeholder ids, and run again with the
// request's values put in the placeholders' places.
import { CompiledQuery } from 'kysely';
import { subjectStreamName } from '../../domain/events/stream-names.js';
import { prepareStatement } from '../../infrastructure/postgres/named-statements.js';
import type { ActiveReadModels } from '../active-schema.js';
import { subjectStatement, type KnownOutput, type SubjectRow } from './subject-statement.js';

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
  // Planning it took 0.7-1.0 ms of the server per recall, running it 0.2: planned once per connection.
  prepareStatement(a!.query.sql);
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
