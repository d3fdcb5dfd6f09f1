// Property tests over arbitrary command sequences: the events the decider
// accepts form a valid stream, and folding such a stream is deterministic,
// does not mutate, and moves H and inputEpoch only forwards and only by the
// rules of DESIGN section 3.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeEvent, encodeEvent } from '../../src/domain/events/decode.js';
import { EPOCH_ADVANCING_EVENTS, type SubjectEvent } from '../../src/domain/events/subject-events.js';
import type { SubjectCommand } from '../../src/domain/subject/commands.js';
import { decide } from '../../src/domain/subject/decide.js';
import { evolve, fold } from '../../src/domain/subject/evolve.js';
import { fromStateSnapshot, toStateSnapshot } from '../../src/domain/subject/state-snapshot.js';
import { activeEntriesInSlot, initialState, type SubjectState } from '../../src/domain/subject/state.js';
import { SOURCE_TYPES, TRUST_LEVELS } from '../../src/domain/entry/source.js';
import { sealed } from './fixtures.js';

const DAY = 86_400_000;
const BASE = Date.parse('2026-07-01T00:00:00Z');
const at = (day: number) => new Date(BASE + day * DAY).toISOString();

const KEYS = ['notification.preference', 'delivery.delay'];
const VALUES = [
  { type: 'text', text: 'sms' },
  { type: 'text', text: 'email' },
  { type: 'number', amount: '72', unit: 'h' },
  { type: 'number', amount: 3, unit: 'd' },
  { type: 'entity', id: 'ORD-A1B2C3D4' },
];
const REFS = ['msg://t-1/1', 'msg://t-1/2', 'tool://crm', 'review://r-1'];

const entrySpec = fc.record({
  key: fc.nat(KEYS.length - 1),
  value: fc.nat(VALUES.length - 1),
  negated: fc.nat(3).map((n) => n === 0),
  source: fc.nat(SOURCE_TYPES.length - 1),
  ref: fc.nat(REFS.length - 1),
  scoped: fc.nat(3).map((n) => n === 0),
  validFrom: fc.option(fc.nat(30), { nil: undefined }),
  expiresIn: fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined }),
  content: fc.boolean(),
});
type EntrySpec = typeof entrySpec extends fc.Arbitrary<infer T> ? T : never;

const spec = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('record' as const), entry: entrySpec }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('supersede' as const), pick: fc.nat(), entry: entrySpec }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('retract' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('resolve' as const), pick: fc.nat(), winner: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('trust' as const), ref: fc.nat(REFS.length - 1), level: fc.nat(TRUST_LEVELS.length - 1) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('taint' as const), ref: fc.nat(REFS.length - 1) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('expire' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('forget' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('switch' as const), stale: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('forgetSubject' as const), rare: fc.nat(9) }) },
);
type Spec = typeof spec extends fc.Arbitrary<infer T> ? T : never;

// Sealing (zod + AES-GCM + HMAC) dominates the run time; equal specs can share one sealed entry.
const sealedBySpec = new Map<string, ReturnType<typeof sealed>>();
function entryOf(e: EntrySpec, key?: string) {
  const id = JSON.stringify([e, key]);
  const cached = sealedBySpec.get(id);
  if (cached) return cached;
  const made = sealedEntryOf(e, key);
  sealedBySpec.set(id, made);
  return made;
}

function sealedEntryOf(e: EntrySpec, key?: string) {
  return sealed({
    key: key ?? KEYS[e.key],
    value: VALUES[e.value],
    polarity: e.negated ? 'negated' : 'affirmed',
    source: { type: SOURCE_TYPES[e.source], refs: [REFS[e.ref]] },
    ...(e.scoped ? { scopes: { project: 'shop-a' } } : {}),
    ...(e.validFrom !== undefined ? { validFrom: at(e.validFrom) } : {}),
    ...(e.expiresIn !== undefined ? { expiresAt: at(30 + e.expiresIn) } : {}),
    ...(e.content ? { content: 'a statement in words' } : {}),
  });
}

const pickFrom = <T>(items: readonly T[], n: number): T | undefined => (items.length === 0 ? undefined : items[n % items.length]);

/** Turns an abstract step into a concrete command against the current state (ids and time are inputs, as in the handler). */
function commandOf(step: Spec, state: SubjectState, i: number, lastManifestEpoch: number): SubjectCommand | undefined {
  const now = at(i);
  const ids = [...state.entries.keys()].sort();
  switch (step.kind) {
    case 'record':
      return { type: 'RecordMemory', memoryId: `m-${i}`, conflictId: `c-${i}`, entry: entryOf(step.entry), now };
    case 'supersede': {
      const target = pickFrom(ids, step.pick);
      const key = target ? state.entries.get(target)!.key : undefined;
      return target
        ? { type: 'SupersedeMemory', memoryId: target, newMemoryId: `m-${i}`, conflictId: `c-${i}`, entry: entryOf(step.entry, key), now }
        : undefined;
    }
    case 'retract': {
      const target = pickFrom(ids, step.pick);
      return target ? { type: 'RetractMemory', memoryId: target, reason: 'withdrawn', now } : undefined;
    }
    case 'resolve': {
      const conflict = pickFrom([...state.conflicts.keys()].sort(), step.pick);
      if (!conflict) return undefined;
      const winner = pickFrom(state.conflicts.get(conflict)!.memoryIds, step.winner)!;
      return { type: 'ResolveConflict', conflictId: conflict, winner, now };
    }
    case 'trust':
      return { type: 'ChangeTrust', sourceRef: REFS[step.ref]!, level: TRUST_LEVELS[step.level]!, now };
    case 'taint':
      return { type: 'EscalateTaintPolicy', refPatterns: [REFS[step.ref]!], sourceTypes: [], reason: 'tainted', now };
    case 'expire':
      return { type: 'ExpireMemories', now: at(30 + (i % 25)) };
    case 'forget': {
      const target = pickFrom(ids, step.pick);
      return target
        ? { type: 'ForgetMemory', memoryId: target, receiptId: `r-${i}`, destroyedKeyIds: [`k-${target}`], invalidatedArtifactIds: [], now }
        : undefined;
    }
    case 'forgetSubject':
      return step.rare === 0
        ? { type: 'ForgetSubject', receiptId: `r-${i}`, destroyedKeyIds: ['k-subject'], invalidatedArtifactIds: [], now }
        : undefined;
    case 'switch': {
      const inputs = [...state.entries.values()]
        .filter((e) => e.status === 'active')
        .sort((a, b) => a.sequence - b.sequence)
        .map((e) => ({
          memoryId: e.memoryId,
          sequence: e.sequence,
          valueHash: e.valueHash,
          ...(e.contentHash ? { contentHash: e.contentHash } : {}),
        }));
      return {
        type: 'SwitchSummaryAlias',
        now,
        manifest: {
          artifactId: `a-${i}`,
          tenant: 'acme',
          subject: 'user-1',
          newCoversThrough: state.highWaterMark,
          inputEpoch: step.stale ? lastManifestEpoch : state.inputEpoch,
          expectedAlias: state.alias,
          inputs,
          inputRoot: '0'.repeat(64),
          conflictIds: [...state.openConflictIds],
          parentArtifactId: state.alias?.artifactId ?? null,
          selectorVersion: 's1',
          promptVersion: 'p1',
          modelSnapshot: 'm1',
        },
      };
    }
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Runs the steps through decide/evolve and returns the accepted events, checking decide's determinism on the way. */
function streamOf(steps: Spec[]): { events: SubjectEvent[]; state: SubjectState } {
  let state = initialState();
  const events: SubjectEvent[] = [];
  let lastManifestEpoch = 0;
  steps.forEach((step, i) => {
    const command = commandOf(step, state, i + 1, lastManifestEpoch);
    if (!command) return;
    if (command.type === 'SwitchSummaryAlias') lastManifestEpoch = state.inputEpoch;
    const result = decide(state, command);
    expect(decide(state, command)).toEqual(result);
    if (!result.ok) return;
    for (const event of result.events) {
      state = evolve(state, event);
      events.push(event);
    }
  });
  return { events, state };
}

const steps = fc.array(spec, { minLength: 5, maxLength: 60, size: 'medium' });

describe('the subject decider over arbitrary command sequences', () => {
  it('folding the same events twice gives the same state, which is the state built step by step', () => {
    fc.assert(
      fc.property(steps, (s) => {
        const { events, state } = streamOf(s);
        const first = fold(events);
        const second = fold(events);
        expect(second).toEqual(first);
        expect(first).toEqual(state);
      }),
    );
  });

  it('evolve does not mutate the state it is given', () => {
    fc.assert(
      fc.property(steps, (s) => {
        const { events } = streamOf(s);
        let state = deepFreeze(initialState());
        for (const event of events) {
          const before = JSON.stringify(toStateSnapshot(state));
          // Frozen inputs: any write inside evolve throws in strict mode.
          const next = evolve(state, deepFreeze(event));
          expect(JSON.stringify(toStateSnapshot(state))).toBe(before);
          state = deepFreeze(next);
        }
      }),
    );
  });

  it('H and inputEpoch never decrease, and move exactly as DESIGN section 3 says', () => {
    fc.assert(
      fc.property(steps, (s) => {
        const { events } = streamOf(s);
        let state = initialState();
        let recorded = 0;
        for (const event of events) {
          const next = evolve(state, event);
          expect(next.highWaterMark).toBeGreaterThanOrEqual(state.highWaterMark);
          expect(next.inputEpoch).toBeGreaterThanOrEqual(state.inputEpoch);
          expect(next.inputEpoch - state.inputEpoch).toBe(EPOCH_ADVANCING_EVENTS.has(event.type) ? 1 : 0);
          if (event.type === 'MemoryRecorded') {
            recorded += 1;
            expect(event.data.sequence).toBe(state.highWaterMark + 1);
          }
          expect(next.highWaterMark).toBe(recorded);
          if (state.alias && next.alias) expect(next.alias.coversThrough).toBeGreaterThanOrEqual(state.alias.coversThrough);
          state = next;
        }
      }),
    );
  });

  it('keeps its indexes consistent: slots hold exactly the active entries, open conflicts have two active members', () => {
    fc.assert(
      fc.property(steps, (s) => {
        const { state } = streamOf(s);
        const active = [...state.entries.values()].filter((e) => e.status === 'active');
        const slotted = [...state.activeBySlot.keys()].flatMap((slot) => activeEntriesInSlot(state, slot));
        expect(slotted.map((e) => e.memoryId).sort()).toEqual(active.map((e) => e.memoryId).sort());
        for (const slot of state.activeBySlot.keys()) {
          const seqs = activeEntriesInSlot(state, slot).map((e) => e.sequence);
          expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
        }
        expect([...state.expiring.keys()].sort()).toEqual(
          active
            .filter((e) => e.expiresAt)
            .map((e) => e.memoryId)
            .sort(),
        );
        for (const id of state.openConflictIds) {
          const members = state.conflicts.get(id)!.memoryIds.filter((m) => state.entries.get(m)?.status === 'active');
          expect(members.length).toBeGreaterThanOrEqual(2);
        }
      }),
    );
  });

  it('every accepted event survives encode, JSON and decode, and the decoded stream folds to the same state', () => {
    fc.assert(
      fc.property(steps, (s) => {
        const { events, state } = streamOf(s);
        const decoded = events.map((event) => {
          const stored = JSON.parse(JSON.stringify(encodeEvent(event))) as { type: string; data: unknown; schemaVersion: number };
          const result = decodeEvent(stored.type, stored.data, stored.schemaVersion);
          if (!result.ok) throw result.error;
          return result.event as SubjectEvent;
        });
        expect(decoded).toEqual(events);
        expect(fold(decoded)).toEqual(state);
      }),
      { numRuns: 50 },
    );
  });

  it('a state snapshot reads back as the same state', () => {
    fc.assert(
      fc.property(steps, (s) => {
        const { state } = streamOf(s);
        expect(fromStateSnapshot(JSON.parse(JSON.stringify(toStateSnapshot(state))))).toEqual(state);
      }),
      { numRuns: 50 },
    );
  });
});
