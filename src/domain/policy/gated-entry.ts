// The entry as the gate lets it through: the effective sensitivity, the
// granted source type, and for a TTL verdict an expiry (the earlier of the
// entry's own and now + TTL). What the decider then receives.
import type { MemoryEntry } from '../entry/entry.js';
import { plusSeconds, type Instant } from '../values/instant.js';
import type { GateVerdict } from './verdict.js';

export function gatedEntry(entry: MemoryEntry, verdict: GateVerdict, now: Instant): MemoryEntry {
  const gated: MemoryEntry = {
    ...entry,
    sensitivity: verdict.sensitivity.effective,
    source: { ...entry.source, type: verdict.sourceType.granted },
  };
  if (verdict.decision !== 'accept_with_ttl') return gated;
  const due = plusSeconds(now, verdict.ttlSeconds);
  return { ...gated, expiresAt: entry.expiresAt !== undefined && entry.expiresAt < due ? entry.expiresAt : due };
}
