// DESIGN section 9, invariant 5: replay(T) — the belief at T computed from
// the event stream alone — equals asOf(T) from memory_versions, for every
// (T, V) tried over a generated history with supersessions, retractions,
// expiries, conflict resolutions and erasures of memories and of a subject.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';
import { InvalidInput } from '../../src/domain/validation/invalid-input.js';
import { asOf } from '../../src/queries/as-of.js';
import { replay } from '../../src/queries/replay/replay.js';
import { generateHistory, type HistoryCounts } from './support/history.js';
import { ctx, openReadWorld, random, type ReadWorld } from './support/read-world.js';

const SUBJECTS = ['u-1', 'u-2', 'u-3', 'u-4'];
const PAIRS = 520;

let world: ReadWorld;
let counts: HistoryCounts;
beforeAll(async () => {
  world = await openReadWorld('queries_asof');
  counts = await generateHistory(world, SUBJECTS, 45, 20260710, { forgetLastSubject: true });
  await world.catchUp(...SUBJECTS.map((s) => ctx(s)));
}, 240_000);
afterAll(async () => world?.close());

const iso = (ms: number) => new Date(ms).toISOString();

describe('replay == asOf', () => {
  it('the generated history exercises every rule', () => {
    expect(counts.recorded).toBeGreaterThan(40);
    expect(counts.superseded).toBeGreaterThan(5);
    expect(counts.retracted).toBeGreaterThan(5);
    expect(counts.expired).toBeGreaterThan(2);
    expect(counts.forgotten).toBeGreaterThan(2);
  });

  it(`agrees exactly for ${PAIRS} random (T, V) pairs`, async () => {
    const rand = random(99);
    let nonEmpty = 0;
    let superseded = 0;
    let forgottenFields = 0;
    let pairs = 0;
    for (const subject of SUBJECTS) {
      const stored = await world.t.ledger.eventStore.readStream(subjectStreamName('acme', subject));
      const commits = [...new Set(stored.map((e) => e.recordedAt.getTime()))];
      const valid = stored.flatMap((e) => {
        const d = e.data as Record<string, unknown>;
        return ['validFrom', 'validTo', 'expiresAt'].flatMap((k) => (typeof d[k] === 'string' ? [Date.parse(d[k] as string)] : []));
      });
      const [t0, t1] = [Math.min(...commits), Math.max(...commits)];
      const [v0, v1] = [Math.min(...valid), Math.max(...valid)];
      for (let i = 0; i < PAIRS / SUBJECTS.length; i++) {
        // Exactly at a commit, just around one, or anywhere (before the first event and after the last too).
        const base = commits[rand(commits.length)]!;
        const T = [base, base - 1, base + 1, t0 - 5 + rand(t1 - t0 + 10)][rand(4)]!;
        const vBase = valid[rand(valid.length)]!;
        const V = [vBase, vBase - 1, T, v0 - 1000 + rand(v1 - v0 + 2000)][rand(4)]!;
        const query = { tenant: 'acme', subject, systemTime: iso(T), validTime: iso(V) };
        const [fromTable, fromStream] = await Promise.all([asOf(world.read, query), replay(world.read, query)]);
        expect(fromStream.beliefs, `${subject} T=${iso(T)} V=${iso(V)}`).toEqual(fromTable.beliefs);
        pairs++;
        if (fromTable.beliefs.length > 0) nonEmpty++;
        superseded += fromTable.beliefs.filter((b) => b.status === 'superseded').length;
        forgottenFields += fromTable.beliefs.filter((b) => b.personal.status === 'forgotten').length;
      }
    }
    expect(pairs).toBeGreaterThanOrEqual(500);
    // Not a comparison of empty answers: most pairs believe something, some hold superseded versions (for the window they kept) and erased fields.
    expect(nonEmpty).toBeGreaterThan(pairs / 2);
    expect(superseded).toBeGreaterThan(0);
    expect(forgottenFields).toBeGreaterThan(0);
  }, 240_000);

  it('as of a reported recordedAt includes that very event', async () => {
    const stored = await world.t.ledger.eventStore.readStream(subjectStreamName('acme', 'u-1'));
    const first = stored.find((e) => e.type === 'MemoryRecorded')!;
    const memoryId = (first.data as { memoryId: string }).memoryId;
    const validFrom = (first.data as { validFrom: string }).validFrom;
    const at = { tenant: 'acme', subject: 'u-1', systemTime: first.recordedAt.toISOString(), validTime: validFrom };
    const before = { ...at, systemTime: iso(first.recordedAt.getTime() - 1) };
    for (const query of [asOf, replay]) {
      expect((await query(world.read, at)).beliefs.map((b) => b.memoryId)).toContain(memoryId);
      expect((await query(world.read, before)).beliefs.map((b) => b.memoryId)).not.toContain(memoryId);
    }
  });

  it('opens personal fields in memory, and marks erased ones instead of failing', async () => {
    const now = iso(Date.now() + 60_000);
    const answers = await Promise.all(
      SUBJECTS.map((subject) => asOf(world.read, { tenant: 'acme', subject, systemTime: now, validTime: iso(world.clock.now) })),
    );
    const readable = answers.flatMap((a) => a.beliefs).filter((b) => b.personal.status === 'readable');
    expect(readable.length).toBeGreaterThan(0);
    for (const b of readable) expect(b.personal).toMatchObject({ status: 'readable', value: { type: 'text' } });
    // The last subject was forgotten: nothing is believed about it any more.
    expect(answers.at(-1)!.beliefs).toEqual([]);
  });

  it('another tenant sees nothing of this subject', async () => {
    const query = { tenant: 'other', subject: 'u-1', systemTime: iso(Date.now() + 60_000) };
    expect((await asOf(world.read, query)).beliefs).toEqual([]);
    expect((await replay(world.read, query)).beliefs).toEqual([]);
  });

  it('bad input is a typed error naming the field', async () => {
    await expect(asOf(world.read, { tenant: 'acme', subject: 'u-1', systemTime: 'yesterday' })).rejects.toMatchObject({
      name: 'InvalidInput',
      field: 'systemTime',
    });
    await expect(replay(world.read, { tenant: 'acme', subject: 'u 1', systemTime: iso(0) })).rejects.toBeInstanceOf(InvalidInput);
    await expect(
      replay(world.read, { tenant: 'acme', subject: 'u-1', systemTime: iso(0), validTime: '2026-13-01T00:00:00Z' }),
    ).rejects.toMatchObject({ field: 'validTime' });
  });
});
