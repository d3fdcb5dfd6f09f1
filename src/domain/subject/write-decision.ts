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
//   REFINEMENT  a SUPERSEDES where every superseded entry is stated more
//               precisely by the new one (refinement.ts, compared in clear by
//               the command layer): the supersessions' cause is `refinement`
//               and MemoryRecorded names them in `refines` (lineage).
//   CONFLICTS   otherwise. Several competitors (an open conflict) are judged
//               one by one: those the new entry may supersede are superseded,
//               the rest stay active and one ConflictDetected names them with
//               the new entry, appended after its MemoryRecorded.
//
// An entry without validFrom is valid from the command's `now`; that is
// written into MemoryRecorded so replay needs no clock. The decision and its
// reasons (codes naming memory ids, never values) are written on the
// MemoryRecorded / MemoryCorroborated too: a replayed request answers the same.
import type { SubjectEvent } from '../events/subject-events.js';
import type { SubjectCommandOf } from './commands.js';
import { reject } from '../result/result.js';
import { accept, type DecideResult } from './decision.js';
import { activeEntriesInSlot, type SubjectState } from './state.js';
import { restoredIfDemoted } from './demotion.js';
import { pendingProposal } from './proposals.js';
import { isAppendOnly } from './operation-sets.js';
import { candidate, checkCandidate, maySupersede, overlaps, sameStatement } from './write-candidate.js';
import { outcome } from './write-outcome.js';

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
    const reasons = [`same_value_and_polarity:${duplicate.memoryId}`];
    const event: SubjectEvent = {
      type: 'MemoryCorroborated',
      data: {
        memoryId: duplicate.memoryId,
        source: c.entry.source,
        ...(c.entry.confidence !== undefined ? { confidence: c.entry.confidence } : {}),
        corroboratedAt: command.now,
        ...c.audit,
        decision: { outcome: 'DUPLICATE', reasons },
      },
    };
    return accept([event, ...restoredIfDemoted(duplicate, 'rewritten', command.now)], {
      outcome: 'DUPLICATE',
      memoryId: duplicate.memoryId,
      sequence: duplicate.sequence,
      supersedes: [],
      conflictsWith: [],
      reasons,
    });
  }
  // Episodes are append-only (operation-sets.ts): a new one is added beside the others, and none is ever replaced.
  const contenders = isAppendOnly(c.entry.kind) ? [] : competitors.filter((e) => !isAppendOnly(e.kind));
  const supersedes = contenders.filter((e) => maySupersede(state, c, e));
  const rivals = contenders.filter((e) => !maySupersede(state, c, e));
  const skipped = contenders.length < competitors.length ? 'append_only' : undefined;
  return outcome(state, c, { supersedes, rivals, by: 'newer_statement', ...(skipped ? { skipped } : {}) }, command.conflictId, command.now);
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
  return outcome(state, c, { supersedes: [target], rivals, by: 'explicit' }, command.conflictId, command.now);
}
