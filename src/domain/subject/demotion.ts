// Demotion and capacity archive on the subject stream (issue 18 item 3):
// the sweeper's command applies a plan the command side computed
// (src/domain/lifecycle/plan.ts) to what the stream holds now, passing over
// what moved on meanwhile (left active, already demoted or restored); a
// reviewer's RestoreMemory brings a demoted memory back; evolve sets and
// clears the demotion. A demoted memory stays active: it keeps its slot,
// so writing the same statement again corroborates it and restores it
// (restoredIfDemoted), and a new value supersedes it as usual.
import type { SubjectEvent, SubjectEventOf } from '../events/subject-events.js';
import { reject } from '../result/result.js';
import type { Instant } from '../values/instant.js';
import type { SubjectCommandOf } from './commands.js';
import { accept, type DecideResult } from './decision.js';
import type { EntryState, SubjectState } from './state.js';

export function decideSweepLifecycle(state: SubjectState, command: SubjectCommandOf<'SweepLifecycle'>): DecideResult {
  if (state.forgotten) return accept([]);
  const events: SubjectEvent[] = [];
  const archived = new Set<string>();
  for (const a of command.archivals) {
    const entry = state.entries.get(a.memoryId);
    if (!entry || entry.status !== 'active' || archived.has(a.memoryId)) continue;
    archived.add(a.memoryId);
    events.push({
      type: 'MemoryArchived',
      data: {
        memoryId: a.memoryId,
        reason: 'capacity',
        rule: a.rule,
        policyVersion: command.policyVersion,
        value: a.value,
        archivedAt: command.now,
      },
    });
  }
  const demoted = new Set<string>();
  for (const d of command.demotions) {
    const entry = state.entries.get(d.memoryId);
    if (!entry || entry.status !== 'active' || entry.demotion || archived.has(d.memoryId) || demoted.has(d.memoryId)) continue;
    demoted.add(d.memoryId);
    events.push({
      type: 'MemoryDemoted',
      data: {
        memoryId: d.memoryId,
        reason: d.reason,
        rule: d.rule,
        policyVersion: command.policyVersion,
        lastReinforcedAt: d.lastReinforcedAt,
        demotedAt: command.now,
      },
    });
  }
  return accept(events);
}

export function decideRestore(state: SubjectState, command: SubjectCommandOf<'RestoreMemory'>): DecideResult {
  if (state.forgotten) return reject('subject_forgotten', 'the subject was forgotten; its stream takes no more writes');
  const entry = state.entries.get(command.memoryId);
  if (!entry) return reject('memory_not_found', `memory ${command.memoryId} does not exist`, 'memoryId');
  if (entry.status !== 'active') return reject('memory_not_active', `memory ${command.memoryId} is ${entry.status}`, 'memoryId');
  if (!entry.demotion) return reject('memory_not_demoted', `memory ${command.memoryId} is not demoted`, 'memoryId');
  return accept([
    {
      type: 'MemoryRestored',
      data: { memoryId: entry.memoryId, reason: 'restored', ...(command.note ? { note: command.note } : {}), restoredAt: command.now },
    },
  ]);
}

/**
 * What brings a demoted memory back besides a reviewer: a write repeating its
 * statement (`rewritten`, appended after its MemoryCorroborated) or `used` /
 * `confirmed` feedback (`feedback`). Nothing when it is not demoted.
 */
export function restoredIfDemoted(entry: EntryState, reason: 'rewritten' | 'feedback', now: Instant): SubjectEvent[] {
  return entry.demotion ? [{ type: 'MemoryRestored', data: { memoryId: entry.memoryId, reason, restoredAt: now } }] : [];
}

export function demotionChanged(state: SubjectState, event: SubjectEventOf<'MemoryDemoted' | 'MemoryRestored'>): SubjectState {
  const entry = state.entries.get(event.data.memoryId);
  if (!entry || entry.status !== 'active') return state;
  if (event.type === 'MemoryRestored') {
    if (!entry.demotion) return state;
    const { demotion: _demotion, ...rest } = entry;
    return { ...state, entries: state.entries.set(entry.memoryId, rest) };
  }
  if (entry.demotion) return state;
  const { reason, rule, policyVersion, demotedAt } = event.data;
  return { ...state, entries: state.entries.set(entry.memoryId, { ...entry, demotion: { reason, rule, policyVersion, demotedAt } }) };
}
