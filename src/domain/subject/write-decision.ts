// The write decisions (DESIGN section 3), against the active entries of the
// same slot (key + scopes) whose valid windows overlap the new entry's:
//
//   NEW         nothing competes.
//   DUPLICATE   one competitor has the same keyed value hash and polarity:
//               nothing new, a MemoryCorroborated with the new source.
//   SUPERSEDES  the new entry is at least as late (validFrom not earlier) and
//               its source at least as trusted as every competitor: each gets
//               a MemorySuperseded closing its window at the new validFrom,
//               then the MemoryRecorded (supersessions first, so the slot
//               never holds both).
//   CONFLICTS   otherwise. Several competitors (an open conflict) are judged
//               one by one: those the new entry may supersede are superseded,
//               the rest stay active and one ConflictDetected names them with
//               the new entry, appended after its MemoryRecorded.
//
// An entry without validFrom is valid from the command's `now`; that is
// written into MemoryRecorded so replay needs no clock.
import { slotOf } from '../entry/scopes.js';
import type { SealedEntry } from '../entry/sealed-entry.js';
import { trustRank, type TrustLevel } from '../entry/source.js';
import type { SubjectEvent, SubjectEventData } from '../events/subject-events.js';
import type { Instant } from '../values/instant.js';
import type { SubjectCommandOf } from './commands.js';
import { reject } from '../result/result.js';
import { accept, type DecideResult, type WriteDecision } from './decision.js';
import { activeEntriesInSlot, type EntryState, type SubjectState } from './state.js';
import { restoredIfDemoted } from './demotion.js';
import { pendingProposal } from './proposals.js';
import { effectiveTrust } from './trust.js';
import { isAppendOnly } from './operation-sets.js';

interface Candidate {
  readonly memoryId: string;
  readonly entry: SealedEntry;
  /** What the write gate recorded, and the proposal this write accepts. */
  readonly audit: Pick<SubjectEventData<'MemoryRecorded'>, 'gate' | 'proposal'>;
  /** Only a new entry records it (a duplicate stays the entry it was). */
  readonly promotedFrom?: SubjectEventData<'MemoryRecorded'>['promotedFrom'];
  readonly validFrom: Instant;
  readonly trust: TrustLevel;
  readonly slot: string;
}

function candidate(
  state: SubjectState,
  memoryId: string,
  entry: SealedEntry,
  now: Instant,
  audit: Candidate['audit'] & Pick<Candidate, 'promotedFrom'> = {},
): Candidate {
  return {
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
function overlaps(existing: EntryState, c: Candidate): boolean {
  const startsBeforeCandidateEnds = c.entry.validTo === undefined || existing.validFrom < c.entry.validTo;
  const candidateStartsBeforeItEnds = existing.validTo === undefined || c.validFrom < existing.validTo;
  return startsBeforeCandidateEnds && candidateStartsBeforeItEnds;
}

const sameStatement = (existing: EntryState, entry: SealedEntry) =>
  existing.valueHash === entry.valueHash && existing.polarity === entry.polarity;

function maySupersede(state: SubjectState, c: Candidate, existing: EntryState): boolean {
  return c.validFrom >= existing.validFrom && trustRank(c.trust) >= trustRank(effectiveTrust(state, existing.source));
}

function checkCandidate(state: SubjectState, c: Candidate, idField: string): DecideResult | undefined {
  if (state.forgotten) return reject('subject_forgotten', 'the subject was forgotten; its stream takes no more writes');
  if (state.entries.has(c.memoryId)) return reject('memory_id_taken', `memory ${c.memoryId} already exists`, idField);
  if (c.entry.validTo !== undefined && c.entry.validTo <= c.validFrom) {
    return reject('valid_time_order', `validTo must be later than validFrom (${c.validFrom})`, 'entry.validTo');
  }
  return undefined;
}

function recordedEvent(state: SubjectState, c: Candidate): SubjectEvent {
  const { entry } = c;
  const data: SubjectEventData<'MemoryRecorded'> = {
    memoryId: c.memoryId,
    sequence: state.highWaterMark + 1,
    kind: entry.kind,
    key: entry.key,
    valueType: entry.valueType,
    valueHash: entry.valueHash,
    value: entry.value,
    polarity: entry.polarity,
    ...(entry.content !== undefined ? { content: entry.content } : {}),
    ...(entry.contentHash !== undefined ? { contentHash: entry.contentHash } : {}),
    ...(entry.anticipatedQueries !== undefined ? { anticipatedQueries: entry.anticipatedQueries } : {}),
    source: entry.source,
    trust: c.trust,
    ...(entry.confidence !== undefined ? { confidence: entry.confidence } : {}),
    sensitivity: entry.sensitivity,
    scopes: entry.scopes,
    validFrom: c.validFrom,
    ...(entry.validTo !== undefined ? { validTo: entry.validTo } : {}),
    ...(entry.expiresAt !== undefined ? { expiresAt: entry.expiresAt } : {}),
    ...(entry.consentRef !== undefined ? { consentRef: entry.consentRef } : {}),
    ...c.audit,
    ...(c.promotedFrom !== undefined ? { promotedFrom: c.promotedFrom } : {}),
  };
  return { type: 'MemoryRecorded', data };
}

function superseded(old: EntryState, c: Candidate, cause: 'newer_statement' | 'explicit', now: Instant): SubjectEvent {
  return {
    type: 'MemorySuperseded',
    data: { memoryId: old.memoryId, supersededBy: c.memoryId, validTo: c.validFrom, cause, supersededAt: now },
  };
}

function outcome(
  state: SubjectState,
  c: Candidate,
  supersedes: EntryState[],
  rivals: EntryState[],
  conflictId: string,
  now: Instant,
  cause: 'newer_statement' | 'explicit',
): DecideResult {
  if (rivals.length > 0 && state.conflicts.has(conflictId))
    return reject('conflict_id_taken', `conflict ${conflictId} already exists`, 'conflictId');
  const events: SubjectEvent[] = [...supersedes.map((old) => superseded(old, c, cause, now)), recordedEvent(state, c)];
  if (rivals.length > 0) {
    events.push({
      type: 'ConflictDetected',
      data: {
        conflictId,
        key: c.entry.key,
        scopes: c.entry.scopes,
        memoryIds: [...rivals.map((r) => r.memoryId), c.memoryId],
        detectedAt: now,
      },
    });
  }
  const decision: WriteDecision = {
    outcome: rivals.length > 0 ? 'CONFLICTS' : supersedes.length > 0 ? 'SUPERSEDES' : 'NEW',
    memoryId: c.memoryId,
    sequence: state.highWaterMark + 1,
    supersedes: supersedes.map((e) => e.memoryId),
    conflictsWith: rivals.map((e) => e.memoryId),
    ...(rivals.length > 0 ? { conflictId } : {}),
  };
  return accept(events, decision);
}

export function decideRecord(state: SubjectState, command: SubjectCommandOf<'RecordMemory'>): DecideResult {
  const c = candidate(state, command.memoryId, command.entry, command.now, command);
  if (command.proposal !== undefined) {
    const proposal = pendingProposal(state, command.proposal);
    if ('ok' in proposal) return proposal;
    if (command.memoryId !== command.proposal) return reject('memory_id_taken', 'an accepted candidate keeps its memory id', 'memoryId');
  }
  const invalid = checkCandidate(state, c, 'memoryId');
  if (invalid) return invalid;
  const competitors = activeEntriesInSlot(state, c.slot).filter((e) => overlaps(e, c));
  const duplicate = competitors.find((e) => sameStatement(e, c.entry));
  if (duplicate) {
    const event: SubjectEvent = {
      type: 'MemoryCorroborated',
      data: {
        memoryId: duplicate.memoryId,
        source: c.entry.source,
        ...(c.entry.confidence !== undefined ? { confidence: c.entry.confidence } : {}),
        corroboratedAt: command.now,
        ...c.audit,
      },
    };
    return accept([event, ...restoredIfDemoted(duplicate, 'rewritten', command.now)], {
      outcome: 'DUPLICATE',
      memoryId: duplicate.memoryId,
      sequence: duplicate.sequence,
      supersedes: [],
      conflictsWith: [],
    });
  }
  // Episodes are append-only (operation-sets.ts): a new one is added beside the others, and none is ever replaced.
  const contenders = isAppendOnly(c.entry.kind) ? [] : competitors.filter((e) => !isAppendOnly(e.kind));
  const supersedes = contenders.filter((e) => maySupersede(state, c, e));
  const rivals = contenders.filter((e) => !maySupersede(state, c, e));
  return outcome(state, c, supersedes, rivals, command.conflictId, command.now, 'newer_statement');
}

/**
 * Explicit supersession: the caller names the entry replaced, so the trust
 * rule does not apply (who may do this is an authorisation question, outside
 * the domain). The new entry must stay in the same slot and not start before
 * the old one. Other active entries of the slot that disagree with it are
 * recorded as a conflict, never superseded implicitly.
 */
export function decideSupersede(state: SubjectState, command: SubjectCommandOf<'SupersedeMemory'>): DecideResult {
  const c = candidate(state, command.newMemoryId, command.entry, command.now, command);
  const invalid = checkCandidate(state, c, 'newMemoryId');
  if (invalid) return invalid;
  const target = state.entries.get(command.memoryId);
  if (!target) return reject('memory_not_found', `memory ${command.memoryId} does not exist`, 'memoryId');
  if (target.status !== 'active') return reject('memory_not_active', `memory ${command.memoryId} is ${target.status}`, 'memoryId');
  if (isAppendOnly(target.kind))
    return reject(
      'append_only',
      `memory ${command.memoryId} is ${target.kind}: such records are append-only (record a new one)`,
      'memoryId',
    );
  if (target.key !== c.entry.key) return reject('slot_mismatch', `the new entry must keep the key ${target.key}`, 'entry.key');
  if (target.slot !== c.slot) return reject('slot_mismatch', 'the new entry must keep the scopes of the entry it replaces', 'entry.scopes');
  if (c.validFrom < target.validFrom) {
    return reject('valid_time_order', `validFrom must not be earlier than the replaced entry's (${target.validFrom})`, 'entry.validFrom');
  }
  const rivals = activeEntriesInSlot(state, c.slot).filter(
    (e) => e.memoryId !== target.memoryId && !isAppendOnly(e.kind) && overlaps(e, c) && !sameStatement(e, c.entry),
  );
  return outcome(state, c, [target], rivals, command.conflictId, command.now, 'explicit');
}
