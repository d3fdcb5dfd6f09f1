// Issue 17 items 6, 7 and 9 through the write path and the read side:
// REFINEMENT (the old value opened at write time, lineage in the events,
// memory_versions and the replay), the decider's reasons in the record
// answer (also on an idempotent replay), purposes on entries and recall's
// purpose filter (excluded.purpose), and a consentRef the policy requires.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WritePolicies } from '../../src/commands/policy/write-policies.js';
import { recordMemory, supersedeMemory } from '../../src/commands/record.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';
import { DEFAULT_POLICY_DOCUMENT } from '../../src/domain/policy/default-policy.js';
import { InvalidInput } from '../../src/domain/validation/invalid-input.js';
import { asOf } from '../../src/queries/as-of.js';
import { recall } from '../../src/queries/recall/recall.js';
import { replay } from '../../src/queries/replay/replay.js';
import { ctx, ok, openReadWorld, type ReadWorld } from '../queries/support/read-world.js';

let world: ReadWorld;
beforeAll(async () => {
  world = await openReadWorld('refine_purpose');
}, 120_000);
afterAll(async () => world?.close());

const user = { type: 'user_assertion', refs: ['msg://chat-1/turn-1'] };
const profile = (key: string, value: unknown, extra: Record<string, unknown> = {}) => ({
  kind: 'profile',
  key,
  value,
  source: user,
  ...extra,
});
const text = (t: string) => ({ type: 'text', text: t });
const events = async (subject: string) => world.t.ledger.eventStore.readStream(subjectStreamName('acme', subject));
const tick = () => (world.clock.now += 60_000);

describe('REFINEMENT', () => {
  it('a value that keeps every word of the current one and adds detail refines it: cause, lineage, reasons, as-of and replay', async () => {
    const c = ctx('u-refine');
    const first = ok(await recordMemory(world.t.ledger, c, profile('home.city', text('Berlin'))));
    tick();
    const keyed = { ...c, idempotencyKey: 'refine-1' };
    const refined = ok(await recordMemory(world.t.ledger, keyed, profile('home.city', text('Berlin Mitte, Torstraße 5'))));
    expect(refined).toMatchObject({
      decision: 'REFINEMENT',
      supersedes: [first.memoryId],
      refines: [first.memoryId],
      reasons: [`newer_and_as_trusted:${first.memoryId}`, `refines:${first.memoryId}`],
      replayed: false,
    });
    const again = ok(await recordMemory(world.t.ledger, keyed, profile('home.city', text('Berlin Mitte, Torstraße 5'))));
    expect(again).toEqual({ ...refined, replayed: true });

    const stored = (await events('u-refine')).map((e) => ({ type: e.type, data: e.data as Record<string, unknown> }));
    expect(stored.find((e) => e.type === 'MemorySuperseded')?.data).toMatchObject({ memoryId: first.memoryId, cause: 'refinement' });
    expect(stored.at(-1)?.data).toMatchObject({
      memoryId: refined.memoryId,
      refines: [first.memoryId],
      decision: { outcome: 'REFINEMENT' },
    });

    await world.catchUp(c);
    const query = { tenant: 'acme', subject: 'u-refine', systemTime: new Date(Date.now() + 60_000).toISOString() };
    const [fromTable, fromStream] = await Promise.all([asOf(world.read, query), replay(world.read, query)]);
    expect(fromTable.beliefs.map((b) => [b.memoryId, b.refines])).toEqual([[refined.memoryId, [first.memoryId]]]);
    expect(fromStream.beliefs).toEqual(fromTable.beliefs);
  });

  it('a changed word is a SUPERSEDES, a date-time on the date a REFINEMENT, and a named supersession may refine too', async () => {
    const c = ctx('u-refine-2');
    const city = ok(await recordMemory(world.t.ledger, c, profile('home.city', text('Berlin Mitte'))));
    tick();
    const moved = ok(await recordMemory(world.t.ledger, c, profile('home.city', text('Hamburg Mitte'))));
    expect(moved).toMatchObject({
      decision: 'SUPERSEDES',
      supersedes: [city.memoryId],
      reasons: [`newer_and_as_trusted:${city.memoryId}`],
    });
    expect(moved).not.toHaveProperty('refines');

    const day = ok(await recordMemory(world.t.ledger, c, profile('trip.start', { type: 'date', date: '2026-08-03' })));
    tick();
    const hour = ok(
      await supersedeMemory(world.t.ledger, c, day.memoryId, profile('trip.start', { type: 'date', date: '2026-08-03T07:45:00Z' })),
    );
    expect(hour).toMatchObject({
      decision: 'REFINEMENT',
      refines: [day.memoryId],
      reasons: [`named_by_caller:${day.memoryId}`, `refines:${day.memoryId}`],
    });
  });

  it('NEW and DUPLICATE carry their reasons', async () => {
    const c = ctx('u-reasons');
    const first = ok(await recordMemory(world.t.ledger, c, profile('tone', text('formal'))));
    expect(first).toMatchObject({ decision: 'NEW', reasons: ['no_competing_statement'] });
    const same = ok(await recordMemory(world.t.ledger, c, profile('tone', text('formal'))));
    expect(same).toMatchObject({ decision: 'DUPLICATE', memoryId: first.memoryId, reasons: [`same_value_and_polarity:${first.memoryId}`] });
  });
});

describe('purposes', () => {
  it('recall for a purpose leaves out entries whose purposes exclude it (excluded.purpose); without purposes an entry serves any', async () => {
    const c = ctx('u-purpose');
    const support = ok(
      await recordMemory(world.t.ledger, c, profile('contact.channel', text('chat'), { purposes: ['support', 'support'] })),
    );
    const billing = ok(await recordMemory(world.t.ledger, c, profile('invoice.format', text('pdf'), { purposes: ['billing'] })));
    const any = ok(await recordMemory(world.t.ledger, c, profile('language', text('German'))));
    await world.catchUp(c);

    const served = async (purpose?: string) => {
      const answer = await recall(world.read, { tenant: 'acme', subject: 'u-purpose', ...(purpose ? { purpose } : {}) });
      return {
        ids: answer.items.flatMap((i) => (i.type === 'memory' ? [i.memoryId] : [])).sort(),
        excluded: answer.excluded.purpose,
        answer,
      };
    };
    const forSupport = await served('support');
    expect(forSupport.ids).toEqual([support.memoryId, any.memoryId].sort());
    expect(forSupport.excluded).toBe(1);
    expect(forSupport.answer.filters).toMatchObject({ purpose: 'support' });
    const forMarketing = await served('marketing.email');
    expect(forMarketing.ids).toEqual([any.memoryId]);
    expect(forMarketing.excluded).toBe(2);
    const forAnything = await served();
    expect(forAnything.ids).toEqual([support.memoryId, billing.memoryId, any.memoryId].sort());
    expect(forAnything.excluded).toBe(0);

    const query = { tenant: 'acme', subject: 'u-purpose', systemTime: new Date(Date.now() + 60_000).toISOString() };
    const beliefs = (await asOf(world.read, query)).beliefs;
    expect(beliefs.find((b) => b.memoryId === support.memoryId)?.purposes).toEqual(['support']);
    expect(beliefs.find((b) => b.memoryId === any.memoryId)?.purposes).toBeNull();
  });

  it('a bad purpose label, on the entry or at recall, is refused naming the field, and nothing is appended', async () => {
    const c = ctx('u-purpose-bad');
    ok(await recordMemory(world.t.ledger, c, profile('tone', text('formal'))));
    const before = (await events('u-purpose-bad')).length;
    await expect(recordMemory(world.t.ledger, c, profile('tone', text('casual'), { purposes: ['Support!'] }))).rejects.toMatchObject({
      field: 'purposes.0',
    });
    await expect(recordMemory(world.t.ledger, c, profile('tone', text('casual'), { purposes: [] }))).rejects.toBeInstanceOf(InvalidInput);
    expect((await events('u-purpose-bad')).length).toBe(before);
    await expect(recall(world.read, { tenant: 'acme', subject: 'u-purpose-bad', purpose: 'no spaces' })).rejects.toMatchObject({
      field: 'purpose',
    });
  });
});

describe('consent', () => {
  it('a policy that requires consentRef from personal refuses an entry without one, naming the field, and appends nothing', async () => {
    const set = await new WritePolicies(world.t.ledger.eventStore, world.t.ledger.clock).set('consenting', {
      ...DEFAULT_POLICY_DOCUMENT,
      consentRequiredAt: 'personal',
    });
    expect(set.ok).toBe(true);
    const c = ctx('u-consent', 'consenting');
    const entry = profile('contact.email', text('mail me'), { sensitivity: 'personal' });
    const refused = await recordMemory(world.t.ledger, c, entry);
    expect(refused).toMatchObject({ ok: false, rejection: { code: 'consent_required', field: 'consentRef' } });
    expect(await world.t.ledger.eventStore.readStream(subjectStreamName('consenting', 'u-consent'))).toEqual([]);
    const consented = ok(await recordMemory(world.t.ledger, c, { ...entry, consentRef: 'consent://c-1' }));
    expect(consented.decision).toBe('NEW');
  });
});
