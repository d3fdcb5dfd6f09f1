// Shared pieces of the event store contract suite: the target description,
// unique names per run, events, and reading a subscription step by step.
import { randomBytes, randomUUID } from 'node:crypto';
import type { AppendResult, EventStore, NewEvent, StoredEvent, Subscription } from '../../src/infrastructure/event-store/port.js';

export interface EventStoreContractTarget {
  readonly name: string;
  /** A new store instance (its own connections) on the store under test. Called more than once. */
  readonly open: () => Promise<EventStore>;
  /** Called once after the whole suite. */
  readonly close?: () => Promise<void>;
  readonly capabilities?: {
    /** Run the concurrent-writers ordering test (default true). */
    readonly concurrentWriters?: boolean;
    /** The store's append limit in bytes, when it has one (EventStoreDB's MaxAppendSize). */
    readonly maxAppendBytes?: number;
    /** Steps the clock that stamps recordedAt back (the store's, or what a step of it looks like to the next append). */
    readonly clock?: { stepBack(ms: number): void | Promise<void> };
  };
}

/**
 * Names unique to this run, so the suite also runs against a shared store
 * that holds other data: every stream of a case starts with that case's
 * prefix, and global-log reads filter on it.
 */
export const CONTRACT_STREAM_PREFIX = 'contract-';

export function runNames() {
  const run = `${CONTRACT_STREAM_PREFIX}${randomBytes(4).toString('hex')}`;
  let cases = 0;
  return {
    /** A fresh prefix for one case: `contract-<run>-<n>-`. */
    casePrefix(): string {
      cases += 1;
      return `${run}-${cases}-`;
    },
  };
}

export function newEvent(type = 'ContractNoted', data: unknown = { note: randomUUID() }): NewEvent {
  return {
    id: randomUUID(),
    type,
    data,
    metadata: { schemaVersion: 1, correlationId: randomUUID(), causationId: randomUUID(), actor: 'contract-suite' },
  };
}

/** What a retry must answer as the first append did (`written` is what the first one wrote: a retry writes nothing). */
export function outcomeOf(result: AppendResult): Pick<AppendResult, 'nextExpectedRevision' | 'position'> {
  return { nextExpectedRevision: result.nextExpectedRevision, position: result.position };
}

export function newEvents(count: number, type?: string): NewEvent[] {
  return Array.from({ length: count }, (_, i) => newEvent(type, { index: i, note: randomUUID() }));
}

/** Pulls events one by one from a subscription, keeping it open between calls. */
export function reader(subscription: Subscription) {
  const iterator = subscription[Symbol.asyncIterator]();
  return {
    async take(count: number): Promise<StoredEvent[]> {
      const events: StoredEvent[] = [];
      while (events.length < count) {
        const next = await iterator.next();
        if (next.done) throw new Error(`subscription ended after ${events.length} of ${count} events`);
        events.push(next.value);
      }
      return events;
    },
    async next(): Promise<IteratorResult<StoredEvent>> {
      return iterator.next();
    },
  };
}

/** Captures the error a promise rejects with (fails the test when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** A small deterministic PRNG (mulberry32), so a failing seed can be replayed. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
