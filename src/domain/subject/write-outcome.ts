// The events and the answer of a write decision once decideRecord /
// decideSupersede (write-decision.ts) have sorted the slot's competitors into
// those superseded and the rivals: the supersessions (cause `refinement` for
// an entry the new one refines), the MemoryRecorded with its lineage
// (`refines`) and the decider's audit (outcome and reasons), and a
// ConflictDetected when rivals stay.
import type { SubjectEvent, SubjectEventData, SupersessionCause, WriteDecisionRecord, WriteOutcome } from '../events/subject-events.js';
import type { Instant } from '../values/instant.js';
import { reject } from '../result/result.js';
import { accept, type DecideResult, type WriteDecision } from './decision.js';
import type { EntryState, SubjectState } from './state.js';
import type { Candidate } from './write-candidate.js';

function recordedEvent(state: SubjectState, c: Candidate, refined: readonly string[], decision: WriteDecisionRecord): SubjectEvent {
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
    ...(entry.purposes !== undefined ? { purposes: entry.purposes } : {}),
    ...c.audit,
    ...(c.promotedFrom !== undefined ? { promotedFrom: c.promotedFrom } : {}),
    ...(refined.length > 0 ? { refines: [...refined] } : {}),
    decision,
  };
  return { type: 'MemoryRecorded', data };
}

export type ReplacedBy = 'newer_statement' | 'explicit';

function superseded(old: EntryState, c: Candidate, cause: SupersessionCause, now: Instant): SubjectEvent {
  return {
    type: 'MemorySuperseded',
    data: { memoryId: old.memoryId, supersededBy: c.memoryId, validTo: c.validFrom, cause, supersededAt: now },
  };
}

/** Why each competitor went the way it did, in codes naming memory ids. */
function reasonsOf(c: Candidate, supersedes: EntryState[], rivals: EntryState[], by: ReplacedBy): string[] {
  const reasons = supersedes.flatMap((e) => [
    `${by === 'explicit' ? 'named_by_caller' : 'newer_and_as_trusted'}:${e.memoryId}`,
    ...(c.refines.has(e.memoryId) ? [`refines:${e.memoryId}`] : []),
  ]);
  for (const r of rivals) {
    if (by === 'explicit') reasons.push(`disagrees_with:${r.memoryId}`);
    else reasons.push(`${c.validFrom < r.validFrom ? 'older_than' : 'less_trusted_than'}:${r.memoryId}`);
  }
  return reasons;
}

export function outcome(
  state: SubjectState,
  c: Candidate,
  contest: { readonly supersedes: EntryState[]; readonly rivals: EntryState[]; readonly by: ReplacedBy; readonly skipped?: string },
  conflictId: string,
  now: Instant,
): DecideResult {
  const { supersedes, rivals, by } = contest;
  if (rivals.length > 0 && state.conflicts.has(conflictId))
    return reject('conflict_id_taken', `conflict ${conflictId} already exists`, 'conflictId');
  const refined = supersedes.filter((e) => c.refines.has(e.memoryId)).map((e) => e.memoryId);
  const result: WriteOutcome =
    rivals.length > 0 ? 'CONFLICTS' : supersedes.length === 0 ? 'NEW' : refined.length === supersedes.length ? 'REFINEMENT' : 'SUPERSEDES';
  const reasons = reasonsOf(c, supersedes, rivals, by);
  if (reasons.length === 0) reasons.push(contest.skipped ?? 'no_competing_statement');
  const events: SubjectEvent[] = [
    ...supersedes.map((old) => superseded(old, c, c.refines.has(old.memoryId) ? 'refinement' : by, now)),
    recordedEvent(state, c, refined, { outcome: result, reasons }),
  ];
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
    outcome: result,
    memoryId: c.memoryId,
    sequence: state.highWaterMark + 1,
    supersedes: supersedes.map((e) => e.memoryId),
    conflictsWith: rivals.map((e) => e.memoryId),
    ...(rivals.length > 0 ? { conflictId } : {}),
    reasons,
  };
  return accept(events, decision);
}
