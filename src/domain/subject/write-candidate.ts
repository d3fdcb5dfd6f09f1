// A write as the decider weighs it (write-decision.ts): the sealed entry with
// its valid start, its source's effective trust and its slot, and the tests
// against one competitor of the slot.
import { slotOf } from '../entry/scopes.js';
import type { SealedEntry } from '../entry/sealed-entry.js';
import { trustRank, type TrustLevel } from '../entry/source.js';
import type { SubjectEventData } from '../events/subject-events.js';
import type { Instant } from '../values/instant.js';
import { reject } from '../result/result.js';
import type { DecideResult } from './decision.js';
import type { EntryState, SubjectState } from './state.js';
import { effectiveTrust } from './trust.js';

export interface Candidate {
  readonly memoryId: string;
  readonly entry: SealedEntry;
  /** What the write gate recorded, and the proposal this write accepts. */
  readonly audit: Pick<SubjectEventData<'MemoryRecorded'>, 'gate' | 'proposal'>;
  /** Entries of the slot the new value refines (the command's word, see commands.ts). */
  readonly refines: ReadonlySet<string>;
  /** Only a new entry records it (a duplicate stays the entry it was). */
  readonly promotedFrom?: SubjectEventData<'MemoryRecorded'>['promotedFrom'];
  readonly validFrom: Instant;
  readonly trust: TrustLevel;
  readonly slot: string;
}

export function candidate(
  state: SubjectState,
  memoryId: string,
  entry: SealedEntry,
  now: Instant,
  audit: Candidate['audit'] & Pick<Candidate, 'promotedFrom'> & { readonly refines?: readonly string[] } = {},
): Candidate {
  return {
    refines: new Set(audit.refines ?? []),
    memoryId,
    entry,
    audit: {
      ...(audit.gate !== undefined ? { gate: audit.gate } : {}),
      ...(audit.proposal !== undefined ? { proposal: audit.proposal } : {}),
    },
    ...(audit.promotedFrom !== undefined ? { promotedFrom: audit.promotedFrom } : {}),
    validFrom: entry.validFrom ?? now,
    trust: effectiveTrust(state, entry.source),
    slot: slotOf(entry.key, entry.scopes),
  };
}

/** Valid windows [from, to) overlap; an absent end is open. */
export function overlaps(existing: EntryState, c: Candidate): boolean {
  const startsBeforeCandidateEnds = c.entry.validTo === undefined || existing.validFrom < c.entry.validTo;
  const candidateStartsBeforeItEnds = existing.validTo === undefined || c.validFrom < existing.validTo;
  return startsBeforeCandidateEnds && candidateStartsBeforeItEnds;
}

export const sameStatement = (existing: EntryState, entry: SealedEntry) =>
  existing.valueHash === entry.valueHash && existing.polarity === entry.polarity;

export function maySupersede(state: SubjectState, c: Candidate, existing: EntryState): boolean {
  return c.validFrom >= existing.validFrom && trustRank(c.trust) >= trustRank(effectiveTrust(state, existing.source));
}

export function checkCandidate(state: SubjectState, c: Candidate, idField: string): DecideResult | undefined {
  if (state.forgotten) return reject('subject_forgotten', 'the subject was forgotten; its stream takes no more writes');
  if (state.entries.has(c.memoryId)) return reject('memory_id_taken', `memory ${c.memoryId} already exists`, idField);
  if (c.entry.validTo !== undefined && c.entry.validTo <= c.validFrom) {
    return reject('valid_time_order', `validTo must be later than validFrom (${c.validFrom})`, 'entry.validTo');
  }
  return undefined;
}
