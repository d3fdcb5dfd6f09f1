// The proof of forgetting: a distinctive phone number goes into a
// subject, into a summary and into a summary built on that summary; it is
// erased; and then it is nowhere — not in any read path's answer (through the
// CLI, in child processes whose output is the log), not in any row of any
// table, not in the database's files on disk (WAL and the server's log
// included: the test runs its own durable embedded server and greps its data
// folder), and not after the projections are rebuilt from position 0. The
// number is also in the entry's anticipated queries, and every entry is
// embedded by a stand-in model endpoint: the erased memory's sealed vector
// goes with it, and a re-index after the rebuild brings none back. The
// receipt's counts match what the test counts itself. A recall asked with
// the number keeps its question sealed; the erasure shreds it too. The
// memory was promoted into a team and accepted there (issue 19): the team's
// copy, sealed under the team's own keys, is erased with it.
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOutput } from '../../src/reads/opened/artifact-output.js';
import { readArtifact } from '../../src/reads/streams/artifact-stream.js';
import { runConsolidation } from '../../src/commands/consolidation/run.js';
import { listCandidates } from '../../src/commands/policy/candidates.js';
import { recordMemory } from '../../src/commands/record.js';
import { reindexVectors } from '../../src/commands/retrieval/vector-index.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';
import { acquireEmbeddedServer, type EmbeddedServer } from '../../src/infrastructure/embedded-postgres/index.js';
import { candidatesProjection, readActive, type CandidatesDb } from '../../src/projections/index.js';
import { assess } from '../../src/queries/assess/assess.js';
import { lineage } from '../../src/queries/lineage/lineage.js';
import { staleSet } from '../../src/queries/stale-set.js';
import { runCli } from '../support/cli.js';
import { startModelServer, type ModelServer } from '../support/model-server.js';
import { fact, manifestOf, ok, openWorld, type World } from './support.js';

const PHONE = '+1 415 555 0173 ext 9';
const CONTENT = `Text me on ${PHONE}; never after 9pm.`;
const sha256 = (t: string) => createHash('sha256').update(t, 'utf8').digest('hex');
/** The number in every form it could leak in, and unkeyed hashes of what was written. */
/** A candidate's text (a permission a model proposed, held for review): erased by its id, it is nowhere either. */
const CANDIDATE_CONTENT = 'Let the agent redeploy the lighthouse-otter cluster at night';
const NEEDLES = [
  PHONE,
  '4155550173',
  '415 555 0173',
  '415-555-0173',
  sha256(PHONE),
  sha256(CONTENT),
  'lighthouse-otter',
  sha256(CANDIDATE_CONTENT),
];
/** Written in clear on purpose (a source ref): the positive control of every scan. */
const CLEAR_REF = 'msg://proof-thread/turn-7';

let dataDir: string;
let server: EmbeddedServer;
let world: World;
let model: ModelServer;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'memledger-erasure-proof-'));
  server = await acquireEmbeddedServer({ dataDir, durable: true });
  model = await startModelServer();
  world = await openWorld('unused', server.url, Date.now(), {
    MEMLEDGER_EMBEDDING_URL: model.baseUrl,
    MEMLEDGER_EMBEDDING_MODEL: 'bag-of-words-16',
  });
}, 180_000);

afterAll(async () => {
  await world?.close();
  await model?.close();
  await server?.release();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, 120_000);

const hits = (text: string, needles: readonly string[]) => needles.filter((n) => text.includes(n));

async function pendingCandidateIds(c: { tenant: string; subject: string }): Promise<string[]> {
  await world.catchUp(c);
  const rows = await readActive<CandidatesDb, Array<{ memory_id: string }>>(world.read.projections, candidatesProjection.name, (tables) =>
    tables.selectFrom('pending_candidates').select('memory_id').where('tenant', '=', c.tenant).where('subject', '=', c.subject).execute(),
  );
  return rows.map((r) => r.memory_id);
}

describe('proof of forgetting', () => {
  it('finds the erased number in no read path, table, log or file, before and after a rebuild from position 0', async () => {
    const c = { tenant: 'acme', subject: 'u-proof' };
    const logs: Array<{ args: string; stdout: string; stderr: string; beforeErasure: boolean }> = [];
    let erased = false;
    const cli = async (args: string[], stdin?: string) => {
      const run = await runCli([...args], world.env, stdin);
      logs.push({ args: args.join(' '), stdout: run.stdout, stderr: run.stderr, beforeErasure: !erased });
      expect(run.code, `${args.join(' ')}: ${run.stderr} ${run.stdout}`).toBe(0);
      return JSON.parse(run.stdout);
    };
    const subject = ['--tenant', c.tenant, '--subject', c.subject];

    // The number enters through the CLI (on stdin, so not even the process list shows it).
    const phoneEntry = {
      ...fact('contact.phone', PHONE, { content: CONTENT, anticipatedQueries: [`Is ${PHONE} the number to text?`] }),
      source: { type: 'user_assertion', refs: [CLEAR_REF] },
    };
    const phone = (await cli(['record', ...subject, '--entry', '-'], JSON.stringify(phoneEntry))).memoryId as string;
    const team = { tenant: c.tenant, subject: 'team:proof' };
    const teamFlags = ['--tenant', team.tenant, '--subject', team.subject];
    const promoted = await cli(['promote', ...subject, '--memory', phone, '--to', team.subject, '--reason', 'the team texts too']);
    await cli(['candidates', 'accept', ...teamFlags, '--memory', promoted.memoryId]);
    ok(await recordMemory(world.ledger, c, fact('notification.preference', 'sms')));
    ok(
      await recordMemory(world.ledger, c, {
        kind: 'constraint',
        key: 'contact.calls',
        value: { type: 'boolean', value: true },
        polarity: 'negated',
        source: { type: 'user_assertion' },
      }),
    );
    const proposal = {
      ...fact('deploy.nightly', 'lighthouse-otter redeploys allowed', { kind: 'permission', content: CANDIDATE_CONTENT }),
      source: { type: 'model_inference', refs: [] },
    };
    const held = await cli(['record', ...subject, '--entry', '-'], JSON.stringify(proposal));
    expect(held.decision).toBe('CANDIDATE');
    const candidate = held.memoryId as string;
    // The pending-candidates read model holds it (ids and expiry only) until it is erased.
    expect(await pendingCandidateIds(c)).toEqual([candidate]);
    const level1 = ok(await runConsolidation(world.ledger, world.services, c));
    ok(await recordMemory(world.ledger, c, fact('shipping.city', 'Hangzhou')));
    const level2 = ok(await runConsolidation(world.ledger, world.services, c));
    expect(level1.status).toBe('switched');
    expect(level2.status).toBe('switched');
    const summary1 = 'prepare' in level1 ? level1.prepare.artifactId : '';
    const summary2 = 'prepare' in level2 ? level2.prepare.artifactId : '';
    expect((await manifestOf(world, summary2)).parent).toBe(summary1);
    const stored = await world.ledger.eventStore.readStream(subjectStreamName(c.tenant, c.subject));
    const recorded = stored[0]!;
    const proposed = stored.find((e) => e.type === 'MemoryProposed')!;
    const copy = (await world.ledger.eventStore.readStream(subjectStreamName(team.tenant, team.subject))).find(
      (e) => e.type === 'MemoryRecorded',
    )!;
    const keyedHashes = [recorded, copy].flatMap((e) => [
      (e.data as { valueHash: string }).valueHash,
      (e.data as { contentHash: string }).contentHash,
    ]);
    const phoneRecordedAt = recorded.recordedAt.toISOString();

    // Positive controls: before the erasure the number is readable, and both summaries say it; every entry has a vector.
    expect((await vectorIds(c)).sort()).toContain(phone);
    expect(await vectorIds(c)).toHaveLength(4);
    expect(JSON.stringify(await cli(['recall', ...subject, '--max-sensitivity', 'restricted']))).toContain(PHONE);
    expect(JSON.stringify(await cli(['recall', ...teamFlags, '--max-sensitivity', 'restricted']))).toContain(PHONE);
    // A recall asked with the number: its question is recorded sealed, readable to an auditor until the memory it served is erased.
    const asked = await cli(['recall', ...subject, '--max-sensitivity', 'restricted', '--query', `Is ${PHONE} the number to text?`]);
    expect(JSON.stringify(asked.items)).toContain(phone);
    const recalled = await cli(['recalls', 'show', ...subject, '--recall', asked.recallId]);
    expect(recalled.parameters.query).toEqual({ state: 'readable', text: `Is ${PHONE} the number to text?` });
    for (const id of [summary1, summary2]) {
      const record = await readArtifact(world.ledger.eventStore, id);
      expect(JSON.stringify(await openOutput(world.ledger.keyStore, c, id, record.generated!.output))).toContain(PHONE);
    }

    erased = true;
    const receipt = await cli(['forget', ...subject, '--memory', phone, '--reason', 'GDPR art. 17 request 2026-118']);
    expect(receipt.verification.status, JSON.stringify(receipt.verification)).toBe('passed');
    // The team's copy went with it, by its own erasure (its receipt on the team's stream); its key is destroyed.
    expect(receipt.promotedCopies).toEqual([
      { subject: team.subject, memoryId: promoted.memoryId, receiptId: expect.any(String), outcome: 'erased' },
    ]);
    expect(receipt.verification.checks).toContainEqual(expect.objectContaining({ path: 'promoted_copies', status: 'passed', searched: 1 }));
    expect((await world.ledger.keyStore.memoryKeys(team, [promoted.memoryId])).get(promoted.memoryId)).toMatchObject({
      status: 'forgotten',
    });

    // The receipt's counts against the test's own: the memory, its key, and the summaries whose manifests (or parents') hold it.
    const artifactIds = await artifactsOf(c);
    const derived: string[] = [];
    for (const id of artifactIds) {
      const m = await manifestOf(world, id);
      if (m.inputs.includes(phone) || (m.parent !== null && derived.includes(m.parent))) derived.push(id);
    }
    expect(derived.sort()).toEqual([summary1, summary2].sort());
    expect(receipt).toMatchObject({
      scope: 'memory',
      memoryIds: [phone],
      canonicalRecords: 1,
      derivedRecordsInvalidated: derived.length,
      invalidatedArtifactIds: derived,
    });
    const keyIds = [
      (recorded.data as { value: { keyId: string } }).value.keyId,
      ...(await Promise.all(derived.map(async (id) => (await manifestOf(world, id)).outputKeyId))),
    ];
    expect([...receipt.destroyedKeyIds].sort()).toEqual(keyIds.sort());

    // The candidate, erased by its id: its key destroyed, the erasure verified with its plaintext known.
    const proposalKeyId = (proposed.data as { entry: { value: { keyId: string } } }).entry.value.keyId;
    const candidateReceipt = await cli(['forget', ...subject, '--memory', candidate]);
    expect(candidateReceipt.verification.status, JSON.stringify(candidateReceipt.verification)).toBe('passed');
    expect(candidateReceipt.verification.searchedFor).toContain('plaintext');
    expect(candidateReceipt).toMatchObject({ scope: 'memory', memoryIds: [candidate], destroyedKeyIds: [proposalKeyId] });
    expect((await world.ledger.keyStore.memoryKeys(c, [candidate])).get(candidate)).toMatchObject({ status: 'forgotten' });
    expect(await listCandidates(world.ledger, c, 'all')).toMatchObject([{ memoryId: candidate, status: 'forgotten' }]);
    expect(await pendingCandidateIds(c)).toEqual([]);
    expect(candidateReceipt.verification.checks).toContainEqual(
      expect.objectContaining({ path: 'projection:candidates', status: 'passed' }),
    );

    // What remains is consolidated anew (the alias is behind the epoch).
    const rebuilt = await cli(['consolidate', 'run', ...subject]);
    expect(rebuilt.status).toBe('switched');
    const summary3 = rebuilt.prepare.artifactId as string;

    // Every read path, through the CLI and in process, at the time the number was recorded and now.
    const answers: unknown[] = [
      await cli(['recall', ...subject, '--max-sensitivity', 'restricted']),
      await cli(['as-of', ...subject, '--system-time', phoneRecordedAt]),
      await cli(['replay', ...subject, '--at', phoneRecordedAt]),
      await cli(['events', ...subject]),
      await cli(['recalls', 'show', ...subject, '--recall', asked.recallId]),
      ...(await inProcessReads(c, [summary1, summary2, summary3])),
      await cli(['recall', ...teamFlags, '--max-sensitivity', 'restricted']),
      await cli(['as-of', ...teamFlags, '--system-time', copy.recordedAt.toISOString()]),
    ];
    expect(answers[4]).toMatchObject({ recallId: asked.recallId, parameters: { query: { state: 'erased' } } });
    expect(JSON.stringify(answers)).toContain('Hangzhou'); // the rest is still there
    for (const answer of answers) expect(hits(JSON.stringify(answer), [...NEEDLES, ...keyedHashes])).toEqual([]);

    // Every row of every table: the number nowhere; its keyed hashes only in the immutable log (useless without the master key).
    await expectTables(keyedHashes);

    // Replaying the log from position 0 into new projection tables brings nothing back.
    await cli(['projections', 'rebuild']);
    expect(await reindexVectors(world.ledger, c)).toMatchObject({ failed: 0 });
    expect(await vectorIds(c)).toHaveLength(3);
    expect(await vectorIds(c)).not.toContain(phone);
    await expectTables(keyedHashes);
    for (const answer of [
      await cli(['recall', ...subject, '--max-sensitivity', 'restricted']),
      ...(await inProcessReads(c, [summary1, summary2, summary3])),
    ]) {
      expect(hits(JSON.stringify(answer), [...NEEDLES, ...keyedHashes])).toEqual([]);
    }
    // An auditor's later check of the receipt, told what to look for on stdin.
    const again = await cli(
      ['erasure', 'verify', ...subject, '--receipt', receipt.receiptId, '--plaintext-stdin'],
      `${PHONE}\n${CONTENT}\n`,
    );
    expect(again.verification.status, JSON.stringify(again.verification)).toBe('passed');
    expect(again.verification.searchedFor).toContain('plaintext');

    // The log: nothing any process printed after the erasure, and nothing any process wrote to stderr, holds it.
    expect(logs.filter((l) => l.beforeErasure && l.args.startsWith('recall')).some((l) => l.stdout.includes(PHONE))).toBe(true);
    for (const l of logs) {
      expect(hits(l.stderr, NEEDLES), l.args).toEqual([]);
      if (!l.beforeErasure) expect(hits(l.stdout, NEEDLES), l.args).toEqual([]);
    }

    // The files: plaintext never reached disk (data files, WAL, server log), flushed first.
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    try {
      await admin.query('CHECKPOINT');
      await admin.query('SELECT pg_switch_wal()');
    } finally {
      await admin.end();
    }
    const disk = await grepFolder(dataDir, [...NEEDLES, CLEAR_REF]);
    expect(disk.files).toBeGreaterThan(10);
    expect(
      disk.found.get(CLEAR_REF)?.some((f) => f.includes('pg_wal')),
      'the scan finds what is written in clear, in the WAL too',
    ).toBe(true);
    for (const needle of NEEDLES) expect(disk.found.get(needle) ?? [], needle).toEqual([]);
  }, 900_000);
});

/** The memories that have a vector (of any model) in the vector store. */
async function vectorIds(c: { tenant: string; subject: string }): Promise<string[]> {
  return (await world.ledger.retrieval!.vectors.read(c, 'bag-of-words-16')).map((v) => v.memoryId);
}

/** Lineage, assess and the stale set of the subject's summaries, as the read side answers them in process. */
async function inProcessReads(c: { tenant: string; subject: string }, artifactIds: readonly string[]): Promise<unknown[]> {
  await world.catchUp(c);
  const out: unknown[] = [await staleSet(world.read, c.tenant, c.subject)];
  for (const id of artifactIds) {
    out.push(await lineage(world.read, c.tenant, id));
    out.push(await assess(world.read, { tenant: c.tenant, artifactId: id }));
  }
  return out;
}

async function artifactsOf(c: { tenant: string; subject: string }): Promise<string[]> {
  const ids: string[] = [];
  for (const event of await world.ledger.eventStore.readAll({ filter: { streamPrefixes: ['artifact-'] } })) {
    const m =
      event.type === 'ArtifactGenerated'
        ? (event.data as { manifest: { tenant: string; subject: string; artifactId: string } }).manifest
        : undefined;
    if (m && m.tenant === c.tenant && m.subject === c.subject) ids.push(m.artifactId);
  }
  return ids.sort();
}

/** Every row of every table of the app's database, fetched as text and searched here (no LIKE: the needle never goes to the server). */
async function expectTables(keyedHashes: readonly string[]): Promise<void> {
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  try {
    const tables = await client.query<{ schema: string; name: string }>(
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
       WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    let rows = 0;
    let clear = 0;
    for (const t of tables.rows) {
      const result = await client.query<{ row: string }>(`SELECT r::text AS row FROM "${t.schema}"."${t.name}" AS r`);
      for (const { row } of result.rows) {
        rows += 1;
        if (row.includes(CLEAR_REF)) clear += 1;
        expect(hits(row, NEEDLES), `${t.schema}.${t.name}`).toEqual([]);
        if (!(t.schema === 'public' && t.name === 'events')) expect(hits(row, keyedHashes), `${t.schema}.${t.name}`).toEqual([]);
      }
    }
    expect(rows).toBeGreaterThan(20);
    expect(clear, 'the scan finds what is stored in clear').toBeGreaterThan(0);
  } finally {
    await client.end();
  }
}

async function grepFolder(root: string, needles: readonly string[]): Promise<{ files: number; found: Map<string, string[]> }> {
  const found = new Map<string, string[]>();
  let files = 0;
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile() && (await stat(path)).size > 0) {
        files += 1;
        const bytes = await readFile(path);
        for (const needle of needles) {
          if (bytes.indexOf(Buffer.from(needle, 'utf8')) >= 0) found.set(needle, [...(found.get(needle) ?? []), path]);
        }
      }
    }
  };
  await walk(root);
  return { files, found };
}
