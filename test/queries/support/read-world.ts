// A query test's world: a ledger on a fresh database, its read side, and a
// clock the test moves (the decider's `now`; commit times are the store's).
import type { CommandContext } from '../../../src/commands/ledger.js';
import { subjectStreamName } from '../../../src/domain/events/stream-names.js';
import { artifactStreams, catchUpWith, openReadSide, type OpenReadSide } from '../../../src/queries/read-side.js';
import { openTestLedger, type TestLedger } from '../../support/ledger.js';
import type { Result } from '../../../src/domain/result/result.js';

export interface ReadWorld {
  readonly t: TestLedger;
  readonly read: OpenReadSide;
  /** The ledger's clock, moved by the test. */
  readonly clock: { now: number };
  /** Projections caught up through the last event of each subject (read your own writes). */
  catchUp(...subjects: CommandContext[]): Promise<void>;
  /** The same for an artifact's stream and its subject's. */
  catchUpArtifact(tenant: string, artifactId: string): Promise<void>;
  close(): Promise<void>;
}

export async function openReadWorld(prefix: string, start = Date.parse('2026-07-01T00:00:00Z')): Promise<ReadWorld> {
  const clock = { now: start };
  const t = await openTestLedger(prefix, () => new Date(clock.now));
  const read = await openReadSide(t.ledger);
  return {
    t,
    read,
    clock,
    async catchUp(...subjects) {
      await catchUpWith(
        read,
        subjects.map((c) => subjectStreamName(c.tenant, c.subject)),
      );
    },
    async catchUpArtifact(tenant, artifactId) {
      await catchUpWith(read, await artifactStreams(read.eventStore, tenant, artifactId));
    },
    async close() {
      await read.close();
      await t.close();
    },
  };
}

export const ctx = (subject: string, tenant = 'acme'): CommandContext => ({ tenant, subject });

/** Unwraps a command or consolidation outcome, failing the test on a rejection. */
export function ok<R>(outcome: Result<R>): R {
  if (!outcome.ok) throw new Error(`refused: ${outcome.rejection.code}: ${outcome.rejection.message}`);
  return outcome.result;
}

/** A seeded PRNG (mulberry32): an integer in [0, n). */
export function random(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}
