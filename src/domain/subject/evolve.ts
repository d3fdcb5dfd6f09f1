// evolve: the subject state after one event. Pure, total (an event about an
// unknown memory changes only the counters), and it never mutates its input.
import { OPTIONAL_CLEAR_FIELDS, presentFields } from '../entry/fields.js';
import { slotOf } from '../entry/scopes.js';
import { advancesEpoch, type SubjectEvent, type SubjectEventData } from '../events/subject-events.js';
import { unhandled } from '../decider/decider.js';
import type { ConflictState, EntryState, SubjectState } from './state.js';
import { statusChangeOf, statusMayChange, SUBJECT_FORGOTTEN_STATUS, type StatusChange } from './status-change.js';
import { initialState } from './state.js';
import { PersistentMap } from '../persistent-map/persistent-map.js';
import { demotionChanged } from './demotion.js';
import { NO_USAGE, usageAfter } from '../usage/usage.js';
import { proposalEnded, proposalForgotten, proposalsForgotten, proposed } from './proposals.js';

export function evolve(state: SubjectState, event: SubjectEvent): SubjectState {
  const next = apply(state, event);
  return advancesEpoch(event) ? { ...next, inputEpoch: next.inputEpoch + 1 } : next;
}

/** Folds events onto a state (from the initial state by default). */
export function fold(events: Iterable<SubjectEvent>, from: SubjectState = initialState()): SubjectState {
  let state = from;
  for (const event of events) state = evolve(state, event);
  return state;
}

function apply(state: SubjectState, event: SubjectEvent): SubjectState {
  switch (event.type) {
    case 'MemoryRecorded': {
      const next = recorded(state, event.data);
      return event.data.proposal ? proposalEnded(next, event.data.proposal, 'accepted', event.data.memoryId) : next;
    }
    case 'MemoryCorroborated': {
      const entry = state.entries.get(event.data.memoryId);
      const next = entry
        ? { ...state, entries: state.entries.set(entry.memoryId, { ...entry, corroborations: entry.corroborations + 1 }) }
        : state;
      return event.data.proposal ? proposalEnded(next, event.data.proposal, 'accepted', event.data.memoryId) : next;
    }
    case 'MemorySuperseded':
    case 'MemoryRetracted':
    case 'MemoryExpired':
    case 'MemoryArchived':
      return leave(state, statusChangeOf(event));
    case 'MemoryDemoted':
    case 'MemoryRestored':
      return demotionChanged(state, event);
    case 'MemoryForgotten':
      // The id may be a proposal's (a candidate erased by its memory id).
      return proposalForgotten(leave(state, statusChangeOf(event)), event.data.memoryId);
    case 'ConflictDetected':
      return conflictDetected(state, event.data);
    case 'ConflictResolved': {
      const conflict = state.conflicts.get(event.data.conflictId);
      if (!conflict) return state;
      return {
        ...state,
        conflicts: state.conflicts.set(conflict.conflictId, { ...conflict, status: 'resolved', winner: event.data.winner }),
        openConflictIds: state.openConflictIds.filter((id) => id !== conflict.conflictId),
      };
    }
    case 'TrustChanged':
      return { ...state, trustOverrides: state.trustOverrides.set(event.data.sourceRef, event.data.level) };
    case 'TaintPolicyEscalated': {
      const policy = state.taintPolicy;
      return {
        ...state,
        taintPolicy: {
          version: Math.max(policy.version, event.data.policyVersion),
          refPatterns: [...new Set([...policy.refPatterns, ...event.data.refPatterns])].sort(),
          sourceTypes: [...new Set([...policy.sourceTypes, ...event.data.sourceTypes])].sort(),
        },
      };
    }
    case 'SubjectForgotten':
      return subjectForgotten(state);
    case 'SummaryAliasSwitched':
      return {
        ...state,
        alias: { artifactId: event.data.artifactId, sourceEpoch: event.data.sourceEpoch, coversThrough: event.data.coversThrough },
      };
    case 'DeletionReceiptIssued':
    case 'MemoryPromoted': // the link is read by an erasure from the stream (reads/erasure/history.ts), not a decision's input
      return state;
    case 'MemoryProposed':
      return proposed(state, event.data);
    case 'ProposalRejected':
      return proposalEnded(state, event.data.memoryId, 'rejected');
    case 'ProposalExpired':
      return proposalEnded(state, event.data.memoryId, 'expired');
    case 'MemoryFeedbackGiven': {
      const entry = state.entries.get(event.data.memoryId);
      if (!entry) return state;
      return { ...state, entries: state.entries.set(entry.memoryId, { ...entry, usage: usageAfter(entry.usage ?? NO_USAGE, event.data) }) };
    }
    default:
      return unhandled(event);
  }
}

function recorded(state: SubjectState, data: SubjectEventData<'MemoryRecorded'>): SubjectState {
  if (state.entries.has(data.memoryId)) return { ...state, highWaterMark: Math.max(state.highWaterMark, data.sequence) };
  const slot = slotOf(data.key, data.scopes);
  const entry: EntryState = {
    memoryId: data.memoryId,
    sequence: data.sequence,
    kind: data.kind,
    key: data.key,
    scopes: data.scopes,
    slot,
    valueType: data.valueType,
    valueHash: data.valueHash,
    ...(data.contentHash !== undefined ? { contentHash: data.contentHash } : {}),
    polarity: data.polarity,
    source: data.source,
    trustAtRecord: data.trust,
    sensitivity: data.sensitivity,
    ...presentFields(data, OPTIONAL_CLEAR_FIELDS),
    validFrom: data.validFrom,
    status: 'active',
    corroborations: 0,
    conflictIds: [],
  };
  return {
    ...state,
    highWaterMark: Math.max(state.highWaterMark, data.sequence),
    entries: state.entries.set(entry.memoryId, entry),
    activeBySlot: state.activeBySlot.set(slot, [...(state.activeBySlot.get(slot) ?? []), entry.memoryId]),
    expiring: entry.expiresAt !== undefined ? state.expiring.set(entry.memoryId, entry.expiresAt) : state.expiring,
  };
}

/** An entry stops being active: it leaves its slot and the sweeper's list, and conflicts left with fewer than two active members become moot. */
function leave(state: SubjectState, { memoryId, status, ...patch }: StatusChange): SubjectState {
  const entry = state.entries.get(memoryId);
  if (!entry || !statusMayChange(entry.status)) return state;
  const updated: EntryState = { ...entry, ...patch, status };
  let next: SubjectState = { ...state, entries: state.entries.set(memoryId, updated) };
  if (entry.status !== 'active') return next;
  const slotIds = (next.activeBySlot.get(entry.slot) ?? []).filter((id) => id !== memoryId);
  next = {
    ...next,
    activeBySlot: slotIds.length > 0 ? next.activeBySlot.set(entry.slot, slotIds) : next.activeBySlot.delete(entry.slot),
    expiring: next.expiring.delete(memoryId),
  };
  return mootConflicts(next, entry.conflictIds);
}

function mootConflicts(state: SubjectState, conflictIds: readonly string[]): SubjectState {
  let next = state;
  for (const conflictId of conflictIds) {
    const conflict = next.conflicts.get(conflictId);
    if (!conflict || conflict.status !== 'open') continue;
    const active = conflict.memoryIds.filter((id) => next.entries.get(id)?.status === 'active').length;
    if (active >= 2) continue;
    next = {
      ...next,
      conflicts: next.conflicts.set(conflictId, { ...conflict, status: 'moot' }),
      openConflictIds: next.openConflictIds.filter((id) => id !== conflictId),
    };
  }
  return next;
}

function conflictDetected(state: SubjectState, data: SubjectEventData<'ConflictDetected'>): SubjectState {
  if (state.conflicts.has(data.conflictId)) return state;
  const conflict: ConflictState = {
    conflictId: data.conflictId,
    key: data.key,
    scopes: data.scopes,
    memoryIds: data.memoryIds,
    status: 'open',
  };
  let entries = state.entries;
  for (const id of data.memoryIds) {
    const entry = entries.get(id);
    if (entry) entries = entries.set(id, { ...entry, conflictIds: [...entry.conflictIds, data.conflictId] });
  }
  return {
    ...state,
    entries,
    conflicts: state.conflicts.set(conflict.conflictId, conflict),
    openConflictIds: [...state.openConflictIds, conflict.conflictId].sort(),
  };
}

function subjectForgotten(state: SubjectState): SubjectState {
  let entries = state.entries;
  for (const entry of state.entries.values()) {
    if (statusMayChange(entry.status)) entries = entries.set(entry.memoryId, { ...entry, status: SUBJECT_FORGOTTEN_STATUS });
  }
  let conflicts = state.conflicts;
  for (const id of state.openConflictIds) {
    const conflict = conflicts.get(id);
    if (conflict) conflicts = conflicts.set(id, { ...conflict, status: 'moot' });
  }
  return {
    ...state,
    entries,
    conflicts,
    openConflictIds: [],
    activeBySlot: PersistentMap.empty(),
    expiring: PersistentMap.empty(),
    forgotten: true,
    proposals: proposalsForgotten(state),
  };
}
