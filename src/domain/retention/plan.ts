// What the retention sweeper does to one subject at `now`, as a pure
// function of the entries' facts and the tenant's rules:
//   - an active entry whose due instant has passed expires (MemoryExpired):
//     it is archived — never recalled, still readable for audit;
//   - an entry (expired, superseded or retracted: anything not yet erased)
//     whose due instant plus the rule's archive period has passed is erased.
// The due instant is the entry's explicit expiresAt when it has one (the
// policy's TTL is a default), else its record time plus the rule's TTL. The
// archive period counts from the due instant, not from when a sweeper got
// there, so a late sweep erases exactly what a punctual one would have.
import type { MemoryKind, Sensitivity } from '../entry/vocabulary.js';
import type { EntryStatus } from '../subject/state.js';
import { plusSeconds, type Instant } from '../values/instant.js';
import { ruleFor, type RetentionRule } from './policy.js';

export interface RetentionFacts {
  readonly memoryId: string;
  readonly sequence: number;
  readonly kind: MemoryKind;
  readonly sensitivity: Sensitivity;
  readonly status: EntryStatus;
  /** The store's commit time of its MemoryRecorded. */
  readonly recordedAt: Instant;
  /** Its explicit expiresAt, if the entry had one. */
  readonly expiresAt?: Instant;
  /** The due instant its MemoryExpired named, once it expired. */
  readonly expiredDueAt?: Instant;
}

export interface RetentionPlan {
  readonly expire: ReadonlyArray<{ readonly memoryId: string; readonly expiresAt: Instant }>;
  readonly erase: ReadonlyArray<{ readonly memoryId: string; readonly dueAt: Instant }>;
}

export function dueInstant(facts: RetentionFacts, rule: RetentionRule | undefined): Instant | undefined {
  if (facts.expiredDueAt !== undefined) return facts.expiredDueAt;
  if (facts.expiresAt !== undefined) return facts.expiresAt;
  return rule?.ttlSeconds != null ? plusSeconds(facts.recordedAt, rule.ttlSeconds) : undefined;
}

export function planRetention(entries: readonly RetentionFacts[], rules: readonly RetentionRule[], now: Instant): RetentionPlan {
  const expire: Array<{ memoryId: string; expiresAt: Instant }> = [];
  const erase: Array<{ memoryId: string; dueAt: Instant }> = [];
  for (const facts of [...entries].sort((a, b) => a.sequence - b.sequence)) {
    if (facts.status === 'forgotten') continue;
    const rule = ruleFor(rules, facts.kind, facts.sensitivity);
    const due = dueInstant(facts, rule);
    if (due === undefined) continue;
    if (facts.status === 'active' && due <= now) expire.push({ memoryId: facts.memoryId, expiresAt: due });
    if (rule?.archiveSeconds != null) {
      const eraseAt = plusSeconds(due, rule.archiveSeconds);
      if (eraseAt <= now) erase.push({ memoryId: facts.memoryId, dueAt: eraseAt });
    }
  }
  return { expire, erase };
}
