// The two-phase protocol on a real PostgreSQL: prepare writes a gated
// artifact that nobody can read; publish switches the alias only through the
// subject stream's revision fence.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveArtifact } from '../../src/commands/consolidation/approve.js';
import { openOutput } from '../../src/reads/opened/artifact-output.js';
import { readArtifact } from '../../src/reads/streams/artifact-stream.js';
import { prepareConsolidation, type PrepareResult } from '../../src/commands/consolidation/prepare.js';
import { publishArtifact } from '../../src/commands/consolidation/publish.js';
import { readableSummary } from '../../src/commands/consolidation/readable-summary.js';
import type { ConsolidationServices } from '../../src/commands/consolidation/services.js';
import { recoverForward, runConsolidation } from '../../src/commands/consolidation/run.js';
import { retractMemory } from '../../src/commands/lifecycle.js';
import { recordMemory } from '../../src/commands/record.js';
import type { Ledger } from '../../src/commands/ledger.js';
import type { EventStore } from '../../src/infrastructure/event-store/port.js';
import type { Summarizer } from '../../src/infrastructure/summarizer/port.js';
import { deterministicSummarizer } from '../../src/infrastructure/summarizer/deterministic.js';
import { openTestLedger, type TestLedger } from '../support/ledger.js';
import { artifactEventTypes, fill, fillerEntry, subjectEvents, subjectState, testServices } from './support.js';
import { importEntries, validateImportLines } from '../../src/commands/import.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';
import { SubjectRepository } from '../../src/reads/streams/subject-repository.js';
import { countingReads, type NotedRead } from '../support/counting-reads.js';

let t: TestLedger;
let services: ConsolidationServices;
beforeAll(async () => {
  t = await openTestLedger('consolidation_protocol');
  services = await testServices();
});
afterAll(async () => {
  await t?.close();
});

const ctx = (subject: string, tenant = 'acme') => ({ tenant, subject });

async function prepared(subject: string, through?: number, svc = services): Promise<PrepareResult> {
  const outcome = await prepareConsolidation(t.ledger, svc, ctx(subject), through !== undefined ? { through } : {});
  if (!outcome.ok) throw new Error(`prepare refused: ${outcome.rejection.code} ${outcome.rejection.message}`);
  return outcome.result;
}

async function published(artifactId: string, svc = services) {
  const outcome = await publishArtifact(t.ledger, svc, { tenant: 'acme' }, artifactId);
  if (!outcome.ok) throw new Error(`publish refused: ${outcome.rejection.code}`);
  return outcome.result;
}

describe('prepare', () => {
  it('writes manifest, output and gate verdict to a new artifact stream; nothing of it is readable and nothing is in clear', async () => {
    const c = ctx('prep-1');
    await recordMemory(t.ledger, c, {
      kind: 'constraint',
      key: 'contact.phone_calls',
      value: { type: 'boolean', value: true },
      polarity: 'negated',
      content: 'Never call: SECRET-PLAINTEXT-7731',
      source: { type: 'user_assertion' },
    });
    await fill(t.ledger, c, 12, 2);
    const result = await prepared('prep-1');
    expect(result).toMatchObject({
      status: 'gate_passed',
      reused: false,
      parentArtifactId: null,
      inputs: 13,
      fences: { newCoversThrough: 13, inputEpoch: 0, expectedAlias: null, conflictIds: [] },
    });
    expect(result.artifactId).toMatch(/^summary:prep-1:000013:[0-9a-f]{12}$/);
    expect(await artifactEventTypes(t.ledger, result.artifactId)).toEqual(['ArtifactGenerated', 'GatePassed']);
    const record = await readArtifact(t.ledger.eventStore, result.artifactId);
    expect(record.generated?.manifest.inputs.map((i) => i.sequence)).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
    expect(record.generated?.manifest.inputRoot).toMatch(/^[0-9a-f]{64}$/);
    expect(record.generated?.manifest).toMatchObject({
      selectorVersion: 'selector-v1',
      promptVersion: 'template-v2',
      modelSnapshot: 'deterministic-v2',
    });
    // Not readable: the alias did not move, readers fall back to raw entries.
    expect((await subjectState(t.ledger, c)).alias).toBeNull();
    expect(await readableSummary(t.ledger, c)).toMatchObject({ status: 'raw', reason: 'no_alias' });
    // The output is sealed: the plaintext is nowhere in the store.
    const client = new pg.Client({ connectionString: t.database.url });
    await client.connect();
    try {
      const rows = await client.query(
        `select count(*)::int as n from events where data::text like '%SECRET-PLAINTEXT%' or data::text like '%contact.phone_calls: NOT%'`,
      );
      expect(rows.rows[0].n).toBe(0);
    } finally {
      await client.end();
    }
    const opened = await openOutput(t.ledger.keyStore, c, result.artifactId, record.generated!.output);
    expect(opened?.claims.find((cl) => cl.key === 'contact.phone_calls')).toMatchObject({
      polarity: 'negated',
      value: { type: 'boolean', value: true },
    });
  });

  it('the same snapshot prepared twice is one artifact (the second run takes the first one as it is)', async () => {
    const c = ctx('prep-2');
    await fill(t.ledger, c, 5);
    const first = await prepared('prep-2');
    const second = await prepared('prep-2');
    expect(second).toMatchObject({ artifactId: first.artifactId, reused: true, status: 'gate_passed' });
    expect(await artifactEventTypes(t.ledger, first.artifactId)).toEqual(['ArtifactGenerated', 'GatePassed']);
  });

  it('over the token budget, low-value entries are recorded on the artifact as cold-tier discards with a reason', async () => {
    const c = ctx('prep-budget');
    await fill(t.ledger, c, 30);
    const p = await prepared('prep-budget', undefined, { ...services, tokenBudget: 40 });
    expect(p.status).toBe('gate_passed');
    const record = await readArtifact(t.ledger.eventStore, p.artifactId);
    const cold = record.generated?.record.discards ?? [];
    expect(cold.length).toBeGreaterThan(10);
    expect(cold.every((d) => d.category === 'over_token_budget' && d.recoverable && d.reason.includes('token budget'))).toBe(true);
    // The numbers (every 10th entry: must-preserve) are never discarded; discarded entries stay inputs.
    const state = await subjectState(t.ledger, c);
    const coldSequences = cold.map((d) => state.entries.get(d.memoryId)!.sequence);
    expect(coldSequences.filter((s) => s % 10 === 0)).toEqual([]);
    expect(record.generated?.manifest.inputs).toHaveLength(30);
  });

  it('refuses what cannot be consolidated, writing nothing', async () => {
    expect(await prepareConsolidation(t.ledger, services, ctx('prep-empty'))).toMatchObject({
      ok: false,
      rejection: { code: 'nothing_to_consolidate' },
    });
    const c = ctx('prep-3');
    await fill(t.ledger, c, 5);
    expect(await prepareConsolidation(t.ledger, services, c, { through: 9 })).toMatchObject({
      ok: false,
      rejection: { code: 'coverage_beyond_head', field: 'through' },
    });
    await expect(prepareConsolidation(t.ledger, services, c, { through: 0 })).rejects.toMatchObject({
      name: 'InvalidInput',
      field: 'through',
    });
  });
});

describe('publish', () => {
  it('switches the alias with the manifest fences; publishing again changes nothing', async () => {
    const c = ctx('pub-1');
    await fill(t.ledger, c, 10);
    const p = await prepared('pub-1');
    const before = (await subjectEvents(t.ledger, c)).length;
    const first = await published(p.artifactId);
    expect(first).toMatchObject({
      status: 'switched',
      alias: { artifactId: p.artifactId, sourceEpoch: 0, coversThrough: 10 },
      previous: null,
      replayed: false,
    });
    const again = await published(p.artifactId);
    expect(again).toMatchObject({ status: 'switched', replayed: true });
    expect((await subjectEvents(t.ledger, c)).length).toBe(before + 1);
    const readable = await readableSummary(t.ledger, c);
    expect(readable.status).toBe('summary');
  });

  it('publishing again long after (beyond the command window) says it switched, reading only that switch', async () => {
    const c = ctx('pub-long-ago');
    await fill(t.ledger, c, 10);
    const p = await prepared('pub-long-ago');
    const first = await published(p.artifactId);
    if (first.status !== 'switched') throw new Error('expected the first publish to switch');
    // More commands than the fold keeps (1,024): the publish is decided afresh, and fenced out.
    await importEntries(t.ledger, c, validateImportLines(Array.from({ length: 1_030 }, (_, i) => fillerEntry(100 + i, 'later'))), {
      importId: 'pub-long-ago-later',
      batchSize: 1,
    });
    const stream = subjectStreamName(c.tenant, c.subject);
    const reads: NotedRead[] = [];
    const counting = countingReads(t.ledger.eventStore, stream, reads);
    const here: Ledger = { ...t.ledger, eventStore: counting, subjects: new SubjectRepository(counting) };
    const head = (await here.subjects.load(stream)).revision;
    reads.length = 0;
    const outcome = await publishArtifact(here, services, { tenant: 'acme' }, p.artifactId);
    expect(outcome).toMatchObject({ ok: true, result: { status: 'switched', replayed: true, revision: first.revision, previous: null } });
    // Besides the loads' looks past the fold's head, one event is read: the artifact's switch.
    expect(reads.filter((r) => (r.fromRevision ?? head) <= head)).toEqual([{ fromRevision: first.revision, maxCount: 1 }]);
  }, 120_000);

  it('the race of the seed: prepared at H=184 and H=220 on one parent, 220 published first, then 184 is rejected and coverage stays 220', async () => {
    const c = ctx('race');
    await fill(t.ledger, c, 220);
    const parent = await prepared('race', 90);
    expect(await published(parent.artifactId)).toMatchObject({ status: 'switched', alias: { coversThrough: 90 } });
    const old = await prepared('race', 184);
    const newer = await prepared('race', 220);
    expect(old.fences.expectedAlias).toEqual(newer.fences.expectedAlias);
    expect(old.fences.expectedAlias?.artifactId).toBe(parent.artifactId);
    expect(await published(newer.artifactId)).toMatchObject({ status: 'switched', alias: { coversThrough: 220 } });
    const late = await published(old.artifactId);
    expect(late).toMatchObject({ status: 'rejected', reason: 'alias_changed' });
    expect((await subjectState(t.ledger, c)).alias).toMatchObject({ artifactId: newer.artifactId, coversThrough: 220 });
    expect(await artifactEventTypes(t.ledger, old.artifactId)).toEqual(['ArtifactGenerated', 'GatePassed', 'ConsolidationRejected']);
    // Asked again, the rejection stands and nothing more is written.
    expect(await published(old.artifactId)).toMatchObject({ status: 'rejected', reason: 'alias_changed', replayed: true });
    expect(await artifactEventTypes(t.ledger, old.artifactId)).toHaveLength(3);
    // And it can never be prepared below the coverage.
    expect(await prepareConsolidation(t.ledger, services, c, { through: 184 })).toMatchObject({
      ok: false,
      rejection: { code: 'coverage_regressed' },
    });
  });

  it('a retraction after the gate passed and before publish blocks the switch; run then recovers forward from the valid inputs', async () => {
    const c = ctx('retract');
    const kept = await recordMemory(t.ledger, c, {
      kind: 'semantic',
      key: 'order.wait',
      value: { type: 'number', amount: '72', unit: 'h' },
      source: { type: 'verified_tool_fact' },
    });
    const doomed = await recordMemory(t.ledger, c, {
      kind: 'profile',
      key: 'notification.preference',
      value: { type: 'text', text: 'sms' },
      polarity: 'negated',
      source: { type: 'user_assertion' },
    });
    if (!kept.ok || !doomed.ok) throw new Error('record failed');
    const p = await prepared('retract');
    expect(p.status).toBe('gate_passed');
    await retractMemory(t.ledger, c, doomed.result.memoryId, 'the user withdrew it');
    const outcome = await published(p.artifactId);
    expect(outcome).toMatchObject({ status: 'rejected', reason: 'epoch_changed' });
    expect((await subjectState(t.ledger, c)).alias).toBeNull();
    expect(await readableSummary(t.ledger, c)).toMatchObject({ status: 'raw', reason: 'no_alias' });

    const recovered = await runConsolidation(t.ledger, services, c);
    if (!recovered.ok || !('publish' in recovered.result)) throw new Error('run did not publish');
    expect(recovered.result.publish).toMatchObject({ status: 'switched' });
    const readable = await readableSummary(t.ledger, c);
    if (readable.status !== 'summary') throw new Error('no readable summary');
    expect(readable.output.claims.flatMap((cl) => cl.derivedFrom)).toEqual([kept.result.memoryId]);
  });

  it('a retraction through an input whose artifact is published makes the alias behind the epoch: readers get raw entries, and the rebuild ignores the stale summary', async () => {
    const c = ctx('stale');
    await fill(t.ledger, c, 6);
    const first = await runConsolidation(t.ledger, services, c);
    expect(first.ok && first.result.status).toBe('switched');
    const state = await subjectState(t.ledger, c);
    const victim = [...state.entries.values()].find((e) => e.sequence === 3)!;
    await retractMemory(t.ledger, c, victim.memoryId, 'wrong');
    expect(await readableSummary(t.ledger, c)).toMatchObject({ status: 'raw', reason: 'behind_epoch' });
    const rebuilt = await prepared('stale');
    expect(rebuilt.parentArtifactId).toBeNull();
    expect(rebuilt.inputs).toBe(5);
    expect(rebuilt.fences.expectedAlias?.artifactId).toBe(state.alias?.artifactId);
    expect(await published(rebuilt.artifactId)).toMatchObject({ status: 'switched', alias: { coversThrough: 6, sourceEpoch: 1 } });
  });

  it('tail appends between prepare and publish do not block the switch', async () => {
    const c = ctx('tail');
    await fill(t.ledger, c, 8);
    const p = await prepared('tail');
    await fill(t.ledger, c, 5, 9);
    expect(await published(p.artifactId)).toMatchObject({ status: 'switched', alias: { coversThrough: 8 } });
  });

  it('a later summary uses the current one as parent while it is valid, with the same claims as a rebuild from raw entries', async () => {
    const c = ctx('parent');
    await fill(t.ledger, c, 30);
    const first = await runConsolidation(t.ledger, services, c);
    expect(first.ok && first.result.status).toBe('switched');
    await fill(t.ledger, c, 20, 31);
    const child = await prepared('parent');
    expect(child.parentArtifactId).toBe((first.ok && 'publish' in first.result && first.result.publish.artifactId) || 'missing');
    const raw = await prepareConsolidation(t.ledger, services, c, { fromRaw: true });
    if (!raw.ok) throw new Error('raw prepare refused');
    expect(raw.result.parentArtifactId).toBeNull();
    const claimsOf = async (id: string) => {
      const record = await readArtifact(t.ledger.eventStore, id);
      return (await openOutput(t.ledger.keyStore, c, id, record.generated!.output))?.claims;
    };
    expect(await claimsOf(child.artifactId)).toEqual(await claimsOf(raw.result.artifactId));
    expect(await published(child.artifactId)).toMatchObject({ status: 'switched', alias: { coversThrough: 50 } });
    // Forward recovery on demand rebuilds from raw entries, at no lower coverage.
    const recovered = await recoverForward(t.ledger, services, c);
    expect(recovered.ok && 'publish' in recovered.result && recovered.result.publish).toMatchObject({
      status: 'switched',
      alias: { coversThrough: 50 },
    });
    expect(recovered.ok && 'prepare' in recovered.result && recovered.result.prepare.parentArtifactId).toBeNull();
  });

  it('a run on an up-to-date subject does nothing', async () => {
    const c = ctx('twice');
    await fill(t.ledger, c, 4);
    const first = await runConsolidation(t.ledger, services, c);
    const count = (await subjectEvents(t.ledger, c)).length;
    const second = await runConsolidation(t.ledger, services, c);
    expect(first.ok && first.result.status).toBe('switched');
    expect(second).toMatchObject({ ok: true, result: { status: 'up_to_date' } });
    expect((await subjectEvents(t.ledger, c)).length).toBe(count);
  });

  it('an artifact that failed the gate is never published, and another tenant cannot see an artifact', async () => {
    const c = ctx('lossy');
    await recordMemory(t.ledger, c, {
      kind: 'profile',
      key: 'contact.phone_calls',
      value: { type: 'boolean', value: true },
      polarity: 'negated',
      source: { type: 'user_assertion' },
    });
    await fill(t.ledger, c, 3, 2);
    const inner = deterministicSummarizer();
    const dropsNegations: Summarizer = {
      modelSnapshot: 'drops-negations',
      promptVersion: 'test',
      async summarize(request) {
        const generated = await inner.summarize(request);
        return generated.ok
          ? { ok: true, output: { ...generated.output, claims: generated.output.claims.filter((cl) => cl.polarity !== 'negated') } }
          : generated;
      },
    };
    const p = await prepared('lossy', undefined, { ...services, summarizer: dropsNegations });
    expect(p).toMatchObject({ status: 'gate_failed', gate: { passed: false } });
    expect(p.gate.reasons?.map((r) => r.code)).toEqual(['missing_fact']);
    expect(await artifactEventTypes(t.ledger, p.artifactId)).toEqual(['ArtifactGenerated', 'GateFailed']);
    expect(await publishArtifact(t.ledger, services, { tenant: 'acme' }, p.artifactId)).toMatchObject({
      ok: false,
      rejection: { code: 'gate_failed' },
    });
    const good = await prepared('lossy');
    expect(await publishArtifact(t.ledger, services, { tenant: 'other' }, good.artifactId)).toMatchObject({
      ok: false,
      rejection: { code: 'artifact_not_found' },
    });
    expect(await publishArtifact(t.ledger, services, { tenant: 'acme', subject: 'someone-else' }, good.artifactId)).toMatchObject({
      ok: false,
      rejection: { code: 'artifact_not_found' },
    });
    expect((await subjectState(t.ledger, c)).alias).toBeNull();
  });
});

/** The real ledger, except that another writer gets in just before the first alias switch is appended. */
function racing(ledger: Ledger, writer: () => Promise<void>): Ledger {
  const store = ledger.eventStore;
  let raced = false;
  const eventStore: EventStore = {
    async append(stream, events, options) {
      if (!raced && events.some((e) => e.type === 'SummaryAliasSwitched')) {
        raced = true;
        await writer();
      }
      return store.append(stream, events, options);
    },
    readStream: (stream, options) => store.readStream(stream, options),
    readAll: (options) => store.readAll(options),
    readPage: (options) => store.readPage(options),
    countAll: (options) => store.countAll(options),
    headPosition: () => store.headPosition(),
    awaitCommitted: (options) => store.awaitCommitted(options),
    subscribeAll: (options) => store.subscribeAll(options),
    close: () => store.close(),
  };
  return { ...ledger, eventStore, subjects: ledger.subjects, keyStore: ledger.keyStore, clock: ledger.clock };
}

describe('publish against a concurrent writer', () => {
  it('WrongExpectedVersion from a tail append: publish reloads, decides again and switches after it', async () => {
    const c = ctx('wev-tail');
    await fill(t.ledger, c, 6);
    const p = await prepared('wev-tail');
    const ledger = racing(t.ledger, async () => void (await fill(t.ledger, c, 1, 7)));
    const outcome = await publishArtifact(ledger, services, { tenant: 'acme' }, p.artifactId);
    expect(outcome).toMatchObject({ ok: true, result: { status: 'switched', alias: { coversThrough: 6 } } });
    expect((await subjectEvents(t.ledger, c)).slice(-2).map((e) => e.event.type)).toEqual(['MemoryRecorded', 'SummaryAliasSwitched']);
  });

  it('WrongExpectedVersion from a retraction: the decision made again fails the epoch fence, and the rejection is recorded', async () => {
    const c = ctx('wev-retract');
    await fill(t.ledger, c, 6);
    const p = await prepared('wev-retract');
    const victim = [...(await subjectState(t.ledger, c)).entries.values()].find((e) => e.sequence === 4)!;
    const ledger = racing(t.ledger, async () => void (await retractMemory(t.ledger, c, victim.memoryId, 'withdrawn mid-publish')));
    const outcome = await publishArtifact(ledger, services, { tenant: 'acme' }, p.artifactId);
    expect(outcome).toMatchObject({ ok: true, result: { status: 'rejected', reason: 'epoch_changed' } });
    expect((await subjectState(t.ledger, c)).alias).toBeNull();
    expect((await readArtifact(t.ledger.eventStore, p.artifactId)).rejected).toMatchObject({ reason: 'epoch_changed' });
  });
});

describe('shadow mode', () => {
  it('generates and gates, switches only after approval', async () => {
    const shadow = await testServices({ shadowTenants: 'acme' });
    const c = ctx('shadow');
    await fill(t.ledger, c, 7);
    const outcome = await runConsolidation(t.ledger, shadow, c);
    if (!outcome.ok || !('publish' in outcome.result)) throw new Error('run did not get to publish');
    expect(outcome.result.publish).toMatchObject({ status: 'awaiting_approval' });
    const artifactId = outcome.result.prepare.artifactId;
    expect(await publishArtifact(t.ledger, shadow, { tenant: 'acme' }, artifactId)).toMatchObject({
      ok: true,
      result: { status: 'awaiting_approval' },
    });
    expect(await readableSummary(t.ledger, c)).toMatchObject({ status: 'raw', reason: 'no_alias' });
    const approved = await approveArtifact(t.ledger, shadow, { tenant: 'acme', actor: 'reviewer-1' }, artifactId);
    expect(approved).toMatchObject({ ok: true, result: { status: 'switched', alias: { artifactId, coversThrough: 7 } } });
    expect(await artifactEventTypes(t.ledger, artifactId)).toEqual(['ArtifactGenerated', 'GatePassed', 'ArtifactApproved']);
    expect((await readArtifact(t.ledger.eventStore, artifactId)).approved?.approvedBy).toBe('reviewer-1');
  });
});
