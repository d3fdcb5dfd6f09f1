// The lifecycle end to end (issue 18 item 3): decay reorders recall over a
// simulated year (time passed in, never slept) under the tenant's
// half-lives; the sweeper demotes what its rules name and nothing else,
// demoted memories leave recall unless asked for (excluded.demoted) and come
// back by restore or by writing them again; capacity archives the lowest
// value first, with its reason, kept for audit; a projection rebuild
// answers the same; bad input to the new CLI doors exits 2 with nothing
// appended.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreMemory } from '../../src/commands/lifecycle.js';
import { LifecyclePolicies } from '../../src/commands/memory-lifecycle/lifecycle-policies.js';
import { sweepSubjectLifecycle } from '../../src/commands/memory-lifecycle/sweep.js';
import { recordMemory } from '../../src/commands/record.js';
import { asOf } from '../../src/queries/as-of.js';
import { recall, type RecallAnswer } from '../../src/queries/recall/recall.js';
import { readSubjectEvents } from '../../src/queries/subject-events.js';
import { runCli } from '../support/cli.js';
import { ok, openWorld, text, type World } from '../forgetting/support.js';

const DAY = 86_400_000;
let world: World;
let policies: LifecyclePolicies;
beforeAll(async () => {
  world = await openWorld('lifecycle');
  policies = new LifecyclePolicies(world.ledger.eventStore, world.ledger.clock);
});
afterAll(async () => {
  await world?.close();
});

const later = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const memoryIds = (answer: Pick<RecallAnswer, 'items'>) => answer.items.flatMap((i) => (i.type === 'memory' ? [i.memoryId] : []));
const entry = (kind: string, key: string, value: string, extra: Record<string, unknown> = {}) => ({
  kind,
  key,
  value: text(value),
  source: { type: 'user_assertion', refs: [`msg://${key}`] },
  ...extra,
});

describe('decay', () => {
  it("reorders recall over a simulated year by the tenant's half-lives, counted from the record", async () => {
    const c = { tenant: 'decay-t', subject: 'u-1' };
    ok(await policies.set(c.tenant, { halfLives: { episodic: 'P30D', semantic: null } }, 'test'));
    const recent = ok(await recordMemory(world.ledger, c, entry('episodic', 'trip.hotel', 'Lisbon hotel booked near the river'))).memoryId;
    const lasting = ok(
      await recordMemory(world.ledger, c, {
        ...entry('semantic', 'trip.flight', 'Lisbon flight booked from Berlin'),
        source: { type: 'verified_tool_fact', refs: ['tool://flights'] },
      }),
    ).memoryId;
    await world.catchUp(c);
    const ask = (now: string) => recall(world.read, { ...c, query: 'Lisbon booked', now });
    const fresh = await ask(later(0));
    expect(memoryIds(fresh)).toEqual([recent, lasting]);
    const year = await ask(later(365));
    expect(memoryIds(year)).toEqual([lasting, recent]);
    const freshness = (answer: RecallAnswer, id: string) =>
      answer.items.find((i) => i.type === 'memory' && i.memoryId === id)?.retrieval?.reasons.find((r) => r.code === 'freshness');
    expect(freshness(year, recent)).toMatchObject({ halfLifeDays: 30 });
    expect(freshness(year, lasting)).toMatchObject({ halfLifeDays: null });
  });
});

describe('the lifecycle sweeper', () => {
  it('demotes what is long unreinforced or low-confidence and nothing else; recall leaves it out unless asked for', async () => {
    const c = { tenant: 'sweep-t', subject: 'u-1' };
    const record = async (e: Record<string, unknown>) => ok(await recordMemory(world.ledger, c, e)).memoryId;
    const old = await record(entry('episodic', 'visit.museum', 'visited the tile museum'));
    const rule = await record(entry('constraint', 'diet.nuts', 'never serve nuts'));
    const unsure = await record(entry('semantic', 'pet.name', 'the cat may be called Miso', { confidence: 0.1 }));
    const sure = await record(entry('semantic', 'home.city', 'lives in Porto', { confidence: 0.9 }));

    expect(await sweepSubjectLifecycle(world.ledger, policies, c.tenant, c.subject, later(20))).toMatchObject({
      demoted: [],
      archived: [],
    });
    const swept = await sweepSubjectLifecycle(world.ledger, policies, c.tenant, c.subject, later(400));
    expect(swept).toEqual({
      tenant: c.tenant,
      subject: c.subject,
      policyVersion: 0,
      demoted: [
        { memoryId: old, reason: 'unreinforced', rule: 'demotion.unreinforcedFor.episodic' },
        { memoryId: unsure, reason: 'low_confidence', rule: 'demotion.lowConfidence' },
      ],
      archived: [],
    });
    expect((await sweepSubjectLifecycle(world.ledger, policies, c.tenant, c.subject, later(401))).demoted).toEqual([]);

    await world.catchUp(c);
    const now = later(400);
    const served = await recall(world.read, { ...c, now });
    expect(memoryIds(served).sort()).toEqual([rule, sure].sort());
    expect(served.excluded.demoted).toBe(2);
    const all = await recall(world.read, { ...c, now, includeDemoted: true });
    expect(memoryIds(all).sort()).toEqual([old, rule, unsure, sure].sort());
    expect(all.excluded.demoted).toBe(0);

    // Back by a reviewer's restore, or by writing the same statement again.
    ok(await restoreMemory(world.ledger, { ...c, actor: 'reviewer' }, old, 'still relevant'));
    const again = ok(await recordMemory(world.ledger, c, entry('semantic', 'pet.name', 'the cat may be called Miso', { confidence: 0.1 })));
    expect(again).toMatchObject({ decision: 'DUPLICATE', memoryId: unsure });
    await world.catchUp(c);
    expect(memoryIds(await recall(world.read, { ...c, now })).sort()).toEqual([old, rule, unsure, sure].sort());
    const types = (await readSubjectEvents(world.ledger.eventStore, world.ledger.keyStore, c)).map((e) => e.type);
    expect(types.filter((t) => t === 'MemoryRestored')).toHaveLength(2);
    const refused = await restoreMemory(world.ledger, c, sure);
    expect(!refused.ok && refused.rejection.code).toBe('memory_not_demoted');
  });

  it('archives the lowest-value memories over capacity with a reason, kept for audit, and a rebuild answers the same', async () => {
    const c = { tenant: 'cap-t', subject: 'u-1' };
    ok(await policies.set(c.tenant, { capacity: { episodic: 2 } }, 'test'));
    const record = async (value: string, confidence: number) =>
      ok(await recordMemory(world.ledger, c, entry('episodic', `chat.${confidence * 10}`, value, { confidence }))).memoryId;
    const high = await record('asked about the ferry times', 0.9);
    const low = await record('said hello', 0.2);
    const mid = await record('mentioned the rain', 0.6);
    const good = await record('booked the ferry for Friday', 0.8);
    const beforeSweep = new Date().toISOString();
    const swept = await sweepSubjectLifecycle(world.ledger, policies, c.tenant, c.subject, later(1));
    expect(swept.policyVersion).toBe(1);
    expect(swept.archived).toEqual([
      { memoryId: low, reason: 'capacity', rule: 'capacity.episodic' },
      { memoryId: mid, reason: 'capacity', rule: 'capacity.episodic' },
    ]);
    const events = await readSubjectEvents(world.ledger.eventStore, world.ledger.keyStore, c);
    expect(events.filter((e) => e.type === 'MemoryArchived').map((e) => e.data)).toMatchObject([
      { memoryId: low, reason: 'capacity', policyVersion: 1 },
      { memoryId: mid, reason: 'capacity', policyVersion: 1 },
    ]);

    await world.catchUp(c);
    const now = later(1);
    const served = await recall(world.read, { ...c, now, includeDemoted: true });
    expect(memoryIds(served).sort()).toEqual([high, good].sort());
    // Kept for audit: what the ledger held before the sweep still reads back.
    expect(JSON.stringify(await asOf(world.read, { ...c, systemTime: beforeSweep }))).toContain('said hello');

    // A year on, the two kept are demoted too: demotion and capacity eviction read the same after a rebuild.
    const yearOn = later(400);
    expect((await sweepSubjectLifecycle(world.ledger, policies, c.tenant, c.subject, yearOn)).demoted.map((d) => d.memoryId)).toEqual([
      high,
      good,
    ]);
    await world.catchUp(c);
    // Each answer is a recall of its own (its recallId); what it served is what must not change.
    const answered = ({ recallId: _recallId, ...answer }: Awaited<ReturnType<typeof recall>>) => answer;
    const answers = async () => [
      answered(await recall(world.read, { ...c, now: yearOn })),
      answered(await recall(world.read, { ...c, now: yearOn, includeDemoted: true })),
    ];
    const before = await answers();
    expect(before[0]!.items).toEqual([]);
    expect(before[0]!.excluded.demoted).toBe(2);
    expect(memoryIds(before[1]!).sort()).toEqual([high, good].sort());
    const rebuild = await runCli(['projections', 'rebuild'], world.env);
    expect(rebuild.code, rebuild.stderr).toBe(0);
    await world.catchUp(c);
    expect(await answers()).toEqual(before);
  });
});

describe('the lifecycle CLI', () => {
  it('sets and shows the policy, sweeps at a given instant, and refuses bad input naming the field with nothing appended', async () => {
    const tenant = 'cli-life';
    const c = { tenant, subject: 'u-1' };
    ok(await recordMemory(world.ledger, c, entry('episodic', 'note.one', 'first note')));
    const file = join(tmpdir(), `lifecycle-${process.pid}.json`);
    writeFileSync(file, JSON.stringify({ capacity: { episodic: 0 } }));
    const bad = await runCli(['lifecycle', 'policy', 'set', '--tenant', tenant, '--file', file], world.env);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr)).toMatchObject({ error: 'invalid_input', field: 'policy.capacity.episodic' });
    const shown = await runCli(['lifecycle', 'policy', 'show', '--tenant', tenant], world.env);
    expect(JSON.parse(shown.stdout)).toMatchObject({ version: 0, builtIn: true });

    const badAt = await runCli(['lifecycle', 'sweep', '--tenant', tenant, '--at', 'next year'], world.env);
    expect(badAt.code).toBe(2);
    expect(JSON.parse(badAt.stderr)).toMatchObject({ error: 'invalid_input', field: 'at' });
    const eventsBefore = (await readSubjectEvents(world.ledger.eventStore, world.ledger.keyStore, c)).length;
    expect(eventsBefore).toBe(1);

    writeFileSync(file, JSON.stringify({ demotion: { unreinforcedFor: { episodic: 'P7D' } } }));
    const set = await runCli(['lifecycle', 'policy', 'set', '--tenant', tenant, '--file', file], world.env);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({
      version: 1,
      builtIn: false,
      policy: { demotion: { unreinforcedFor: { episodic: 'P7D' } } },
    });
    const sweep = await runCli(['lifecycle', 'sweep', '--tenant', tenant, '--at', later(8)], world.env);
    expect(sweep.code, sweep.stderr).toBe(0);
    expect(JSON.parse(sweep.stdout)).toMatchObject({
      subjects: [
        { tenant, subject: 'u-1', policyVersion: 1, demoted: [{ reason: 'unreinforced', rule: 'demotion.unreinforcedFor.episodic' }] },
      ],
    });
  });
});
