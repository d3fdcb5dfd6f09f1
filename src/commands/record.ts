// record and supersede: parse the client's entry, pass it through the write
// gate (a refusal leaves no event and no key; a candidate is proposed for
// review, never recorded), fill its anticipated queries when it has none and
// an expander is configured, seal it, find the slot's entries it refines
// (opened at write time: subject/refined-entries.ts), decide the write (NEW,
// DUPLICATE, REFINEMENT, SUPERSEDES, CONFLICTS) and append; then embed the new memory (write first,
// embed after: see retrieval/vector-index.ts).
import { requireEntry } from '../domain/entry/entry.js';
import { subjectStreamName } from '../domain/events/stream-names.js';
import { requireId } from '../domain/values/ids.js';
import type { WriteOutcome } from '../domain/subject/decision.js';
import { derivedId, newCommandId } from './ids/command-ids.js';
import type { CommandContext, Ledger } from './ledger.js';
import { reject, type Result } from '../domain/result/result.js';
import { executeSubjectCommand, type SubjectEffect } from './subject/execute.js';
import { withAnticipatedQueries } from './retrieval/expand-entry.js';
import { embedMemories } from './retrieval/vector-index.js';
import { sealEntry } from './subject/seal-entry.js';
import { refinedEntries } from './subject/refined-entries.js';
import { gateEntry, writePolicyFor, type WriteRequestOptions } from './policy/gate-write.js';
import type { GateRecord } from '../domain/events/write-gate-events.js';

/** CANDIDATE: the gate held the write for review (MemoryProposed); memoryId is the id it takes when accepted. */
export type RecordDecision = WriteOutcome | 'CANDIDATE';

export interface RecordResult {
  readonly memoryId: string;
  /** 0 for a CANDIDATE (it has no place in the sequence until accepted). */
  readonly sequence: number;
  readonly decision: RecordDecision;
  /** The write gate's audit as the event records it: policy version, the rule that decided, detections, reasons. */
  readonly gate?: GateRecord;
  /** Entries the new one superseded. */
  readonly supersedes: readonly string[];
  /** Of those, the entries it refines (REFINEMENT: all of them). */
  readonly refines?: readonly string[];
  /** The decider's reasons, in codes naming memory ids (e.g. `refines:m-1`, `less_trusted_than:m-2`); the gate's are in `gate`. */
  readonly reasons: readonly string[];
  readonly conflictId?: string;
  readonly revision: number;
  readonly recordedAt: string;
  /** True when the key had been used for this very request already: nothing was appended now. */
  readonly replayed: boolean;
}

export async function recordMemory(
  ledger: Ledger,
  context: CommandContext,
  entryInput: unknown,
  options: WriteRequestOptions = {},
): Promise<Result<RecordResult>> {
  return writeEntry(ledger, context, entryInput, undefined, options);
}

export async function supersedeMemory(
  ledger: Ledger,
  context: CommandContext,
  memoryId: string,
  entryInput: unknown,
  options: WriteRequestOptions = {},
): Promise<Result<RecordResult>> {
  return writeEntry(ledger, context, entryInput, requireId('memory', memoryId), options);
}

async function writeEntry(
  ledger: Ledger,
  context: CommandContext,
  entryInput: unknown,
  replaces: string | undefined,
  options: WriteRequestOptions,
): Promise<Result<RecordResult>> {
  const stream = subjectStreamName(context.tenant, context.subject);
  const given = requireEntry(entryInput);
  const gated = gateEntry(given, context, options, await writePolicyFor(ledger, context.tenant), ledger.clock());
  if (gated.status === 'refused') {
    ledger.onWriteGated?.('rejected', gated.verdict.ruleId);
    return gated.rejection;
  }
  const entry = await withAnticipatedQueries(ledger.retrieval?.expander, gated.entry);
  const commandId = context.idempotencyKey ?? newCommandId();
  const memoryId = derivedId('m', commandId, 'memory');
  const conflictId = derivedId('c', commandId, 'conflict');
  const sealed = await sealEntry(ledger.keyStore, context, memoryId, entry);
  if (sealed.status !== 'sealed')
    return reject('subject_forgotten', 'the subject was forgotten: nothing more is recorded for it', 'subject');
  const request = {
    operation: replaces === undefined ? 'record' : 'supersede',
    ...(replaces !== undefined ? { memoryId: replaces } : {}),
    entry: given,
    ...(options.marks && options.marks.length > 0 ? { marks: [...options.marks].sort() } : {}),
  };
  const { gate } = gated;
  // Read once: the refinement check reads this fold, and the command's first attempt decides against it
  // (as this process last folded it: an outdated fold costs a retry, see StreamRepository.latest).
  const loaded = await ledger.subjects.latest(stream);
  const refined = gated.status === 'candidate' ? [] : await refinedEntries(ledger, context, loaded, entry);
  const refines = refined.length > 0 ? { refines: refined } : {};
  const envelope = { stream, commandId, request, ...actorOf(context) };
  const outcome = await executeSubjectCommand(
    ledger,
    envelope,
    (_loaded, now) => {
      if (gated.status === 'candidate')
        return { type: 'ProposeMemory', memoryId, entry: sealed.entry, gate, expiresAt: gated.expiresAt, now };
      return replaces === undefined
        ? { type: 'RecordMemory', memoryId, conflictId, entry: sealed.entry, gate, ...refines, now }
        : { type: 'SupersedeMemory', memoryId: replaces, newMemoryId: memoryId, conflictId, entry: sealed.entry, gate, ...refines, now };
    },
    loaded,
  );
  if (!outcome.ok) return outcome;
  const result = recordResultOf(outcome.result);
  if (!result.replayed) ledger.onWriteGated?.(gated.status === 'candidate' ? 'candidate' : 'accepted', gated.verdict.ruleId);
  if (result.memoryId === memoryId && result.decision !== 'CANDIDATE')
    await embedMemories(ledger, context, [{ memoryId, fields: entry }]).catch(() => undefined);
  return { ok: true, result };
}

/** The answer of a record (or an accepted candidate), from the decision, or on a replay from the events appended the first time. */
export function recordResultOf(effect: SubjectEffect): RecordResult {
  const gated = gateOf(effect);
  return gated ? { ...decidedResult(effect), gate: gated } : decidedResult(effect);
}

function gateOf(effect: SubjectEffect): GateRecord | undefined {
  for (const { event } of effect.events) {
    if (event.type === 'MemoryRecorded' || event.type === 'MemoryCorroborated' || event.type === 'MemoryProposed') {
      if (event.data.gate) return event.data.gate;
    }
  }
  return undefined;
}

function decidedResult(effect: SubjectEffect): RecordResult {
  const last = effect.events.at(-1);
  const recordedAt = last ? last.stored.recordedAt.toISOString() : new Date(0).toISOString();
  const revision = last ? last.stored.streamRevision : effect.revision;
  const replayed = effect.replayed;
  const stamp = { revision, recordedAt, replayed };
  if (effect.decision) {
    const d = effect.decision;
    const refines = refinesOf(effect);
    return {
      memoryId: d.memoryId,
      sequence: d.sequence,
      decision: d.outcome,
      supersedes: d.supersedes,
      ...(refines ? { refines } : {}),
      reasons: d.reasons,
      ...(d.conflictId ? { conflictId: d.conflictId } : {}),
      ...stamp,
    };
  }
  return { ...replayedResult(effect), ...stamp };
}

/** On a replay: the answer from the events appended the first time (the decision as MemoryRecorded / MemoryCorroborated kept it). */
function replayedResult(effect: SubjectEffect): Omit<RecordResult, 'revision' | 'recordedAt' | 'replayed'> {
  const proposed = effect.events.find(({ event }) => event.type === 'MemoryProposed');
  if (proposed?.event.type === 'MemoryProposed')
    return { memoryId: proposed.event.data.memoryId, sequence: 0, decision: 'CANDIDATE', supersedes: [], reasons: [] };
  const supersedes: string[] = [];
  let conflictId: string | undefined;
  let result: Omit<RecordResult, 'revision' | 'recordedAt' | 'replayed' | 'supersedes'> | undefined;
  for (const { event } of effect.events) {
    if (event.type === 'MemoryRecorded') {
      const { memoryId, sequence, refines, decision } = event.data;
      result = {
        memoryId,
        sequence,
        decision: decision?.outcome ?? 'NEW',
        ...(refines ? { refines } : {}),
        reasons: decision?.reasons ?? [],
      };
    }
    if (event.type === 'MemorySuperseded') supersedes.push(event.data.memoryId);
    if (event.type === 'ConflictDetected') conflictId = event.data.conflictId;
    if (event.type === 'MemoryCorroborated') {
      const entry = effect.state.entries.get(event.data.memoryId);
      const reasons = event.data.decision?.reasons ?? [];
      result = { memoryId: event.data.memoryId, sequence: entry?.sequence ?? 0, decision: 'DUPLICATE', reasons };
    }
  }
  if (!result) throw new Error('a record command appended no MemoryRecorded, MemoryCorroborated or MemoryProposed');
  // Events written before the decision was kept on them: the outcome as the events show it.
  const decision: RecordDecision =
    result.decision !== 'NEW' ? result.decision : conflictId ? 'CONFLICTS' : supersedes.length > 0 ? 'SUPERSEDES' : 'NEW';
  return { ...result, decision, supersedes, ...(conflictId ? { conflictId } : {}) };
}

function refinesOf(effect: SubjectEffect): readonly string[] | undefined {
  for (const { event } of effect.events) if (event.type === 'MemoryRecorded' && event.data.refines) return event.data.refines;
  return undefined;
}

/** The envelope fields a context gives: who, the correlation, and the key as the client gave it. */
export function actorOf(context: Pick<CommandContext, 'actor' | 'correlationId' | 'givenKey'>): {
  actor?: string;
  correlationId?: string;
  givenKey?: CommandContext['givenKey'];
} {
  return {
    ...(context.actor ? { actor: context.actor } : {}),
    ...(context.correlationId ? { correlationId: context.correlationId } : {}),
    ...(context.givenKey ? { givenKey: context.givenKey } : {}),
  };
}
