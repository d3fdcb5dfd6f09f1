// A generated history through the real write side (sealed fields, real
// keys): records that come out NEW, DUPLICATE, SUPERSEDES or CONFLICTS,
// explicit supersessions, retractions, conflict resolutions, TTL expiries,
// erasures of single memories and of a whole subject. Seeded, so it repeats.
import { forgetMemory, forgetSubject } from '../../../src/commands/forget.js';
import { expireMemories, resolveConflict, retractMemory } from '../../../src/commands/lifecycle.js';
import { recordMemory, supersedeMemory } from '../../../src/commands/record.js';
import { subjectStreamName } from '../../../src/domain/events/stream-names.js';
import { activeEntries } from '../../../src/domain/subject/state.js';
import { ctx, random, type ReadWorld } from './read-world.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const KEYS = ['notification.preference', 'contact.phone', 'delivery.delay', 'language', 'shipping.city'];
const VALUES = ['sms', 'email', '+86-138-0000-0001', '72h', 'zh', 'en', 'Shanghai', 'Hangzhou'];
const SOURCES = ['human_review', 'user_assertion', 'verified_tool_fact', 'model_inference'] as const;

export interface HistoryCounts {
  recorded: number;
  superseded: number;
  retracted: number;
  expired: number;
  forgotten: number;
  resolved: number;
}

export async function generateHistory(
  world: ReadWorld,
  subjects: readonly string[],
  steps: number,
  seed: number,
  options: { forgetLastSubject?: boolean } = {},
): Promise<HistoryCounts> {
  const rand = random(seed);
  const counts: HistoryCounts = { recorded: 0, superseded: 0, retracted: 0, expired: 0, forgotten: 0, resolved: 0 };
  const entry = () => {
    const validFrom = world.clock.now + (rand(5) - 3) * DAY;
    return {
      kind: rand(4) === 0 ? 'constraint' : 'profile',
      key: KEYS[rand(KEYS.length)]!,
      value: { type: 'text', text: VALUES[rand(VALUES.length)]! },
      polarity: rand(8) === 0 ? 'negated' : 'affirmed',
      ...(rand(2) === 0 ? { content: `said in turn ${rand(1000)}` } : {}),
      source: { type: SOURCES[rand(SOURCES.length)]!, refs: [`msg://t-${rand(3)}/${rand(50)}`] },
      ...(rand(3) === 0 ? { confidence: rand(100) / 100 } : {}),
      sensitivity: rand(3) === 0 ? 'personal' : 'normal',
      ...(rand(2) === 0 ? { validFrom: new Date(validFrom).toISOString() } : {}),
      ...(rand(6) === 0 ? { validTo: new Date(validFrom + (1 + rand(10)) * DAY).toISOString() } : {}),
      ...(rand(4) === 0 ? { expiresAt: new Date(world.clock.now + (1 + rand(72)) * HOUR).toISOString() } : {}),
    };
  };
  for (let step = 0; step < steps; step++) {
    for (const subject of subjects) {
      world.clock.now += (1 + rand(6)) * HOUR;
      const c = ctx(subject);
      const state = (await world.t.ledger.subjects.load(subjectStreamName(c.tenant, c.subject))).state;
      const active = activeEntries(state);
      const pick = <T>(list: readonly T[]) => list[rand(list.length)];
      const roll = rand(100);
      if (roll < 50 || active.length === 0) {
        if ((await recordMemory(world.t.ledger, c, entry())).ok) counts.recorded++;
      } else if (roll < 62) {
        const target = pick(active)!;
        const next = { ...entry(), key: target.key, scopes: target.scopes };
        if ((await supersedeMemory(world.t.ledger, c, target.memoryId, next)).ok) counts.superseded++;
      } else if (roll < 74) {
        const target = pick([...state.entries.values()].filter((e) => e.status !== 'forgotten' && e.status !== 'retracted'));
        if (target && (await retractMemory(world.t.ledger, c, target.memoryId, 'withdrawn by the source')).ok) counts.retracted++;
      } else if (roll < 84) {
        const result = await expireMemories(world.t.ledger, c);
        if (result.ok) counts.expired += result.result.events.filter((e) => e.type === 'MemoryExpired').length;
      } else if (roll < 91) {
        const conflictId = pick(state.openConflictIds);
        const members = conflictId
          ? state.conflicts.get(conflictId)!.memoryIds.filter((m) => state.entries.get(m)?.status === 'active')
          : [];
        if (conflictId && members.length > 0 && (await resolveConflict(world.t.ledger, c, conflictId, pick(members)!, 'reviewed')).ok)
          counts.resolved++;
      } else if (roll < 96) {
        const target = pick(active)!;
        if ((await forgetMemory(world.t.ledger, c, target.memoryId, 'asked to forget')).ok) counts.forgotten++;
      }
    }
  }
  if (options.forgetLastSubject) {
    world.clock.now += HOUR;
    await forgetSubject(world.t.ledger, ctx(subjects.at(-1)!), 'erasure request');
  }
  return counts;
}
