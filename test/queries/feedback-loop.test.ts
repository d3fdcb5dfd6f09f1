// The feedback loop (issue 18 items 1-2) in process, on the real store and
// read side: every recall is recorded under its recallId (what it served,
// where, why; the question sealed), feedback is checked against that record
// and idempotent, harmful holds a memory back until a reviewer decides,
// used/confirmed move ranking, and erasing a served memory shreds the question.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giveFeedback } from '../../src/commands/feedback/give-feedback.js';
import { forgetMemory, forgetSubject } from '../../src/commands/forget.js';
import { acceptCandidate, listCandidates, rejectCandidate } from '../../src/commands/policy/candidates.js';
import { recordMemory, supersedeMemory } from '../../src/commands/record.js';
import { recallStreamName, subjectStreamName } from '../../src/domain/events/stream-names.js';
import { readSideErasureChecks } from '../../src/queries/erasure/index.js';
import type { RecallItem } from '../../src/queries/recall/items.js';
import { recall, type RecallAnswer } from '../../src/queries/recall/recall.js';
import { showRecall } from '../../src/queries/recalls/show-recall.js';
import { findRecall } from '../../src/reads/recalls/recall-records.js';
import { ctx, ok, openReadWorld, type ReadWorld } from './support/read-world.js';
import { countingReads, type NotedRead } from '../support/counting-reads.js';

let world: ReadWorld;
beforeAll(async () => {
  world = await openReadWorld('queries_feedback_loop');
});
afterAll(async () => world?.close());

const QUESTION = 'can we text the owl-lantern number 0173?';
const said = (key: string, content: string) => ({
  kind: 'semantic',
  key,
  value: { type: 'text', text: content },
  content,
  source: { type: 'user_assertion', refs: [`msg://${key}`] },
});
const record = async (subject: string, key: string, content: string) =>
  ok(await recordMemory(world.t.ledger, ctx(subject), said(key, content))).memoryId;
async function asked(subject: string, query?: string): Promise<RecallAnswer> {
  await world.catchUp(ctx(subject));
  return recall(world.read, { tenant: 'acme', subject, ...(query !== undefined ? { query } : {}) });
}
const ids = (items: readonly RecallItem[]) => items.flatMap((i) => (i.type === 'memory' ? [i.memoryId] : []));
const streamLength = async (stream: string) => (await world.t.ledger.eventStore.readStream(stream)).length;

async function everyRow(): Promise<string[]> {
  const client = new pg.Client({ connectionString: world.t.database.url });
  await client.connect();
  try {
    const tables = await client.query<{ schema: string; name: string }>(
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
       WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    const rows: string[] = [];
    for (const t of tables.rows) {
      const result = await client.query<{ row: string }>(`SELECT r::text AS row FROM "${t.schema}"."${t.name}" AS r`);
      rows.push(...result.rows.map((r) => r.row));
    }
    return rows;
  } finally {
    await client.end();
  }
}

describe('recorded recalls', () => {
  it('records what each answer served, by position, with the question sealed at rest and readable to an auditor', async () => {
    const s = 'fb-record';
    const phone = await record(s, 'contact.phone', 'Text the owl-lantern number ending 0173 only.');
    const city = await record(s, 'shipping.city', 'Ship to Hangzhou.');
    const answer = await asked(s, QUESTION);
    expect(answer.recallId).toMatch(/^r-/);
    expect(ids(answer.items)[0]).toBe(phone);

    const audit = await showRecall(world.read, { tenant: 'acme', subject: s, recallId: answer.recallId });
    expect(audit.parameters.query).toEqual({ state: 'readable', text: QUESTION });
    expect(audit.subjectRevision).toBe(answer.revision);
    expect(audit.items.map((i) => i.memories.map((m) => m.memoryId)[0])).toEqual(ids(answer.items));
    expect(audit.items[0]).toMatchObject({
      position: 1,
      type: 'memory',
      kind: 'semantic',
      key: 'contact.phone',
      memories: [{ memoryId: phone, version: 1 }],
      score: answer.items[0]!.retrieval!.score,
      rank: 1,
    });
    expect(audit.items[0]!.reasons!.map((r) => r.code)).toContain('relevance');

    // At rest: neither the question nor its terms, anywhere (the log included); the ids are there in clear.
    const recorded = await world.t.ledger.eventStore.readStream(recallStreamName('acme', s));
    expect(recorded.map((e) => e.type)).toEqual(['RecallServed']);
    const rows = await everyRow();
    expect(rows.some((r) => r.includes(answer.recallId))).toBe(true);
    for (const needle of ['owl-lantern', QUESTION]) expect(rows.filter((r) => r.includes(needle))).toEqual([]);
    // The subject's stream did not move: reads never change its revision.
    expect(await streamLength(subjectStreamName('acme', s))).toBe(2);

    // A recall without a question is recorded too; an unknown id is bad input naming the recall.
    const plain = await asked(s);
    expect((await showRecall(world.read, { tenant: 'acme', subject: s, recallId: plain.recallId })).parameters.query).toEqual({
      state: 'not_asked',
    });
    await expect(showRecall(world.read, { tenant: 'acme', subject: s, recallId: 'r-nope' })).rejects.toMatchObject({ field: 'recall' });

    // Erasing a served memory shreds the question of every recall that served it, and the receipt's check says so.
    const receipt = ok(
      await forgetMemory(world.t.ledger, ctx(s), phone, 'asked to forget', {
        checks: readSideErasureChecks(world.read),
        beforeVerify: () => world.catchUp(ctx(s)),
      }),
    );
    expect(receipt.verification!.checks.find((c) => c.path === 'recalls')).toMatchObject({ status: 'passed', searched: 2, findings: 0 });
    const after = await showRecall(world.read, { tenant: 'acme', subject: s, recallId: answer.recallId });
    expect(after.parameters.query).toEqual({ state: 'erased' });
    expect(after.items[0]!.memories).toEqual([{ memoryId: phone, version: 1 }]);
    expect(city).toBeTruthy();
  });

  it("a question that served nothing goes with the subject's erasure", async () => {
    const s = 'fb-subject';
    await record(s, 'pet.name', 'The cat is called Miso.');
    const answer = await asked(s, 'what about the owl-lantern?');
    expect(answer.items).toEqual([]);
    expect((await showRecall(world.read, { tenant: 'acme', subject: s, recallId: answer.recallId })).parameters.query).toMatchObject({
      state: 'readable',
    });
    const receipt = ok(await forgetSubject(world.t.ledger, ctx(s), 'account closed', { checks: readSideErasureChecks(world.read) }));
    expect(receipt.verification!.checks.find((c) => c.path === 'recalls')).toMatchObject({ status: 'passed', findings: 0 });
    expect((await showRecall(world.read, { tenant: 'acme', subject: s, recallId: answer.recallId })).parameters.query).toEqual({
      state: 'erased',
    });
  });
});

describe('finding a recorded recall', () => {
  it('reads the newest records first, in pages that grow, and finds an old one or none', async () => {
    const s = 'fb-find';
    await record(s, 'order.carrier', 'Order ORD-88 ships by courier.');
    const answers: RecallAnswer[] = [];
    for (let i = 0; i < 40; i++) answers.push(await asked(s));
    const stream = recallStreamName('acme', s);
    const reads: NotedRead[] = [];
    const counting = countingReads(world.t.ledger.eventStore, stream, reads);
    const pages = () => reads.splice(0).map((r) => r.maxCount);
    const newest = answers.at(-1)!.recallId;
    expect((await findRecall(counting, ctx(s), newest))?.recall.recallId).toBe(newest);
    expect(pages()).toEqual([4]);
    const oldest = answers[0]!.recallId;
    expect((await findRecall(counting, ctx(s), oldest))?.recall.recallId).toBe(oldest);
    expect(pages()).toEqual([4, 16, 64]);
    expect(await findRecall(counting, ctx(s), 'r-none')).toBeUndefined();
    expect(pages()).toEqual([4, 16, 64]);
  });
});

describe('feedback', () => {
  it('is checked against the recall that served the memory, naming the field, and appends nothing when refused', async () => {
    const s = 'fb-validate';
    const served = await record(s, 'order.carrier', 'Order ORD-77 ships by courier.');
    const other = await record(s, 'order.window', 'Deliveries only after 5pm.');
    const answer = await asked(s, 'which carrier ships ORD-77?');
    const stream = subjectStreamName('acme', s);
    const before = await streamLength(stream);
    expect(ids(answer.items)).not.toContain(other);
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ recallId: 'r-unknown', memoryId: served, type: 'used' }, 'recallId'],
      [{ recallId: answer.recallId, memoryId: other, type: 'used' }, 'memoryId'],
      [{ recallId: answer.recallId, memoryId: served, type: 'loved' }, 'type'],
      [{ recallId: answer.recallId, memoryId: served, type: 'used', source: 'boss' }, 'source'],
      [{ recallId: answer.recallId, memoryId: served, type: 'used', evidence: ['has space'] }, 'evidence.0'],
      [{ recallId: answer.recallId, memoryId: served, type: 'used', extra: 1 }, 'extra'],
    ];
    for (const [input, field] of bad) {
      await expect(giveFeedback(world.t.ledger, ctx(s), input), JSON.stringify(input)).rejects.toMatchObject({
        name: 'InvalidInput',
        field,
      });
    }
    // Another subject's recall id is unknown here.
    await expect(
      giveFeedback(world.t.ledger, ctx('fb-elsewhere'), { recallId: answer.recallId, memoryId: served, type: 'used' }),
    ).rejects.toMatchObject({ field: 'recallId' });
    // corrected needs the supersession that fixed it.
    const refused = await giveFeedback(world.t.ledger, ctx(s), { recallId: answer.recallId, memoryId: served, type: 'corrected' });
    expect(refused).toMatchObject({ ok: false, rejection: { code: 'not_superseded' } });
    expect(await streamLength(stream)).toBe(before);

    const fixed = ok(await supersedeMemory(world.t.ledger, ctx(s), served, said('order.carrier', 'Order ORD-77 ships by post.')));
    const corrected = ok(
      await giveFeedback(world.t.ledger, ctx(s), {
        recallId: answer.recallId,
        memoryId: served,
        type: 'corrected',
        evidence: ['ticket://77'],
      }),
    );
    expect(corrected.events).toEqual([
      {
        type: 'MemoryFeedbackGiven',
        data: expect.objectContaining({ memoryId: served, memoryVersion: 1, correctedBy: fixed.memoryId, evidenceRefs: ['ticket://77'] }),
      },
    ]);
  });

  it('is idempotent under one idempotency key', async () => {
    const s = 'fb-idempotent';
    const m = await record(s, 'diet', 'Vegetarian, eats fish.');
    const answer = await asked(s, 'what does the user eat?');
    const keyed = { ...ctx(s), idempotencyKey: 'fb-1' };
    const input = { recallId: answer.recallId, memoryId: m, type: 'used' };
    const first = ok(await giveFeedback(world.t.ledger, keyed, input));
    const again = ok(await giveFeedback(world.t.ledger, keyed, input));
    expect(first.replayed).toBe(false);
    expect(again).toMatchObject({ replayed: true, revision: first.revision });
    const events = await world.t.ledger.eventStore.readStream(subjectStreamName('acme', s));
    expect(events.filter((e) => e.type === 'MemoryFeedbackGiven')).toHaveLength(1);
    const state = (await world.t.ledger.subjects.load(subjectStreamName('acme', s))).state;
    expect(state.entries.get(m)!.usage).toMatchObject({
      usedCount: 1,
      confirmedCount: 0,
      lastReinforcedAt: (first.events[0]!.data as { givenAt: string }).givenAt,
    });
  });

  it('harmful holds the memory back from the next recall until a reviewer reinstates or retracts it', async () => {
    const s = 'fb-harmful';
    const bad = await record(s, 'ops.deploy', 'Deploys may skip the review on Fridays.');
    const good = await record(s, 'ops.window', 'Deploys happen on weekdays before noon.');
    const first = await asked(s, 'when can we deploy?');
    expect(ids(first.items)).toEqual(expect.arrayContaining([bad, good]));
    ok(await giveFeedback(world.t.ledger, ctx(s), { recallId: first.recallId, memoryId: bad, type: 'harmful', source: 'verifier' }));

    const held = await asked(s, 'when can we deploy?');
    expect(ids(held.items)).toEqual([good]);
    expect(held.excluded.under_review).toBe(1);
    expect(ids((await asked(s)).items)).toEqual([good]);
    expect(await listCandidates(world.t.ledger, ctx(s))).toEqual([
      { memoryId: bad, kind: 'semantic', key: 'ops.deploy', status: 'pending', review: 'harmful_feedback', harmfulCount: 1 },
    ]);

    ok(await acceptCandidate(world.t.ledger, ctx(s), bad));
    expect(ids((await asked(s, 'when can we deploy?')).items)).toContain(bad);
    expect(await listCandidates(world.t.ledger, ctx(s))).toEqual([]);

    const again = await asked(s, 'when can we deploy?');
    ok(await giveFeedback(world.t.ledger, ctx(s), { recallId: again.recallId, memoryId: bad, type: 'harmful' }));
    const retracted = ok(await rejectCandidate(world.t.ledger, ctx(s), bad));
    expect(retracted.events.map((e) => e.type)).toEqual(['MemoryRetracted']);
    expect(ids((await asked(s, 'when can we deploy?')).items)).toEqual([good]);
    expect((await asked(s, 'when can we deploy?')).excluded.under_review).toBe(0);
  });

  it('used and confirmed count as corroboration: a reinforced memory overtakes its equal, and the read model keeps the counts', async () => {
    const s = 'fb-rank';
    const monday = await record(s, 'lunch.a', 'Lunch meetings at the noodle bar on Mondays.');
    const tuesday = await record(s, 'lunch.b', 'Lunch meetings at the noodle bar on Tuesdays.');
    // The two rank as near equals: reinforce the one behind, and it comes first.
    const before = ids((await asked(s, 'lunch meetings noodle bar')).items).slice(0, 2);
    expect(before.sort()).toEqual([monday, tuesday].sort());
    const [b, a] = ids((await asked(s, 'lunch meetings noodle bar')).items) as [string, string];
    for (const type of ['used', 'confirmed', 'confirmed']) {
      const served = await asked(s, 'lunch meetings noodle bar');
      ok(await giveFeedback(world.t.ledger, ctx(s), { recallId: served.recallId, memoryId: a, type }));
    }
    const served = await asked(s, 'lunch meetings noodle bar');
    ok(await giveFeedback(world.t.ledger, ctx(s), { recallId: served.recallId, memoryId: b, type: 'ignored' }));
    const after = await asked(s, 'lunch meetings noodle bar');
    expect(ids(after.items).slice(0, 2)).toEqual([a, b]);
    const first = after.items[0]!.retrieval!.reasons.find((r) => r.code === 'feedback');
    expect(first).toMatchObject({ reinforced: 3, ignored: 0 });
    expect(first!.contribution).toBeGreaterThan(0);

    const client = new pg.Client({ connectionString: world.t.database.url });
    await client.connect();
    try {
      const schemas = await client.query<{ schema: string }>(
        `SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = 'memory_usage'`,
      );
      expect(schemas.rows).toHaveLength(1);
      const { rows } = await client.query<{ memory_id: string; used: number; confirmed: number; ignored: number; reinforced: Date | null }>(
        `SELECT memory_id, used_count AS used, confirmed_count AS confirmed, ignored_count AS ignored, last_reinforced_at AS reinforced
         FROM "${schemas.rows[0]!.schema}".memory_usage WHERE subject = $1 ORDER BY used_count DESC`,
        [s],
      );
      expect(rows).toMatchObject([
        { memory_id: a, used: 1, confirmed: 2, ignored: 0 },
        { memory_id: b, used: 0, confirmed: 0, ignored: 1, reinforced: null },
      ]);
      expect(rows[0]!.reinforced).toBeInstanceOf(Date);
    } finally {
      await client.end();
    }
  });
});
