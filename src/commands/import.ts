// Bulk import (migrating an existing memory store): every line is validated
// before anything is written; then entries are decided one after another
// against the evolving state and appended in batches, one append per batch
// through the command loop (src/commands/stream). Line idempotency keys
// derive from the import id, so running the same import again appends
// nothing new, whatever its size (LoadedStream.firstEvents holds every command
// of the stream); an import id sent again with other entries (an API
// Idempotency-Key reused) is refused before anything is appended.
import { requireEntry, type MemoryEntry } from '../domain/entry/entry.js';
import type { SealedEntry } from '../domain/entry/sealed-entry.js';
import { subjectStreamName } from '../domain/events/stream-names.js';
import type { Rejection, Result } from '../domain/result/result.js';
import type { PersistentMap } from '../domain/persistent-map/persistent-map.js';
import type { SubjectCommand } from '../domain/subject/commands.js';
import { InvalidInput } from '../domain/validation/invalid-input.js';
import { derivedId, requestHashOf, sameRequest } from './ids/command-ids.js';
import type { CommandContext, Ledger } from './ledger.js';
import { reindexVectors } from './retrieval/vector-index.js';
import { handleCommands, keyReused } from './stream/handle-commands.js';
import { sealEntry } from './subject/seal-entry.js';
import { gateEntry, writePolicyFor, type GatedWrite } from './policy/gate-write.js';
import type { GateRecord } from '../domain/events/write-gate-events.js';
import type { RecordDecision } from './record.js';

export interface ImportResult {
  readonly lines: number;
  readonly decisions: Readonly<Record<RecordDecision, number>>;
  /** Lines already imported before (same import id): nothing appended for them. */
  readonly alreadyImported: number;
  readonly rejected: ReadonlyArray<{ readonly line: number } & Rejection>;
  readonly batches: number;
  readonly revision: number;
}

interface PreparedLine {
  readonly line: number;
  readonly commandId: string;
  readonly requestHash: string;
  readonly memoryId: string;
  readonly conflictId: string;
  readonly entry: SealedEntry;
  readonly gate: GateRecord;
  /** Set when the write gate held the line for review: proposed, not recorded. */
  readonly candidateExpiresAt?: string;
}

type PassedLine = Exclude<GatedWrite, { status: 'refused' }>;

/** A line as sealing leaves it: ready to decide, refused, or imported before (a line another writer adds meanwhile is replayed by the command loop). */
type SealedLine = PreparedLine | { readonly rejected: { line: number } & Rejection } | { readonly alreadyImported: true };

/** Validates every line first: a bad line throws InvalidInput naming `line N: field`, and nothing is written. */
export function validateImportLines(values: readonly unknown[]): MemoryEntry[] {
  return values.map((value, index) => {
    try {
      return requireEntry(value);
    } catch (error) {
      if (error instanceof InvalidInput) throw new InvalidInput(`line ${index + 1}: ${error.field}`, error.reason);
      throw error;
    }
  });
}

export async function importEntries(
  ledger: Ledger,
  context: CommandContext,
  entries: readonly MemoryEntry[],
  options: { readonly importId: string; readonly batchSize?: number },
): Promise<Result<ImportResult>> {
  const stream = subjectStreamName(context.tenant, context.subject);
  const batchSize = options.batchSize ?? 500;
  const lineIds = entries.map((entry, i) => ({
    commandId: derivedId('import', options.importId, `line-${i + 1}`),
    requestHash: requestHashOf({ operation: 'import', entry }),
  }));
  // The write gate on every line before anything is sealed: a secret, an over-claimed source type or a
  // missing consent refuses the whole import (bad input); a line the policy refuses is reported and skipped.
  const policy = await writePolicyFor(ledger, context.tenant);
  const gateTime = ledger.clock();
  const gated = entries.map((entry) => gateEntry(entry, context, {}, policy, gateTime));
  const badLine = gated.findIndex((g) => g.status === 'refused' && g.rejection.rejection.code !== 'policy_rejected');
  const bad = gated[badLine];
  if (bad?.status === 'refused') {
    const { rejection } = bad.rejection;
    return { ok: false, rejection: { ...rejection, field: `line ${badLine + 1}: ${rejection.field ?? 'entry'}` } };
  }
  // Every line already in the stream must be the line imported then: else the import id (its key) is being reused.
  const before = await ledger.subjects.load(stream);
  for (const { commandId, requestHash } of lineIds) {
    const first = before.firstEvents.get(commandId);
    if (first !== undefined && !sameRequest(stream, first, commandId, requestHash))
      return { ok: false, rejection: keyReused(commandId, context.givenKey) };
  }
  const decisions: Record<RecordDecision, number> = { NEW: 0, DUPLICATE: 0, REFINEMENT: 0, SUPERSEDES: 0, CONFLICTS: 0, CANDIDATE: 0 };
  const rejected: Array<{ line: number } & Rejection> = [];
  let alreadyImported = 0;
  let batches = 0;
  let revision = -1;
  for (let start = 0; start < entries.length; start += batchSize) {
    const sealed = await sealLines(ledger, context, gated, lineIds, before.firstEvents, start, Math.min(start + batchSize, entries.length));
    const prepared: PreparedLine[] = [];
    for (const line of sealed) {
      if ('rejected' in line) rejected.push(line.rejected);
      else if ('alreadyImported' in line) alreadyImported++;
      else prepared.push(line);
    }
    const target = { stream, ...(context.actor ? { actor: context.actor } : {}) };
    const { outcomes, loaded, appended } = await handleCommands(ledger.subjects, ledger, target, (_loaded, now) =>
      prepared.map((line) => ({
        commandId: line.commandId,
        requestHash: line.requestHash,
        ...(context.givenKey ? { givenKey: context.givenKey } : {}),
        command: lineCommand(line, now),
      })),
    );
    outcomes.forEach((outcome, index) => {
      if (outcome.status === 'replayed') alreadyImported++;
      else if (outcome.status === 'rejected') rejected.push({ line: prepared[index]!.line, ...outcome.rejection });
      else if (outcome.decision) decisions[outcome.decision.outcome]++;
      else if (prepared[index]!.candidateExpiresAt !== undefined) decisions.CANDIDATE++;
    });
    revision = appended?.nextExpectedRevision ?? loaded.revision;
    if (prepared.length === 0) revision = Math.max(revision, before.revision);
    batches += appended ? 1 : 0;
  }
  // Vectors after the appends, in batches (a failing endpoint is recorded for a retry, never a failed import).
  await reindexVectors(ledger, context).catch(() => undefined);
  return { ok: true, result: { lines: entries.length, decisions, alreadyImported, rejected, batches, revision } };
}

function lineCommand(line: PreparedLine, now: string): SubjectCommand {
  const { memoryId, entry, gate } = line;
  return line.candidateExpiresAt !== undefined
    ? { type: 'ProposeMemory', memoryId, entry, gate, expiresAt: line.candidateExpiresAt, now }
    : { type: 'RecordMemory', memoryId, conflictId: line.conflictId, entry, gate, now };
}

/** Key-store round trips dominate sealing: this many lines are sealed at once (the key store's pool holds 4 connections). */
const SEAL_CONCURRENCY = 4;

/** Seals lines [start, end) in line order, a few at a time; a line imported before this call is only counted (nothing to seal or decide). */
async function sealLines(
  ledger: Ledger,
  context: CommandContext,
  gated: readonly GatedWrite[],
  lineIds: ReadonlyArray<{ readonly commandId: string; readonly requestHash: string }>,
  imported: PersistentMap<string>,
  start: number,
  end: number,
): Promise<SealedLine[]> {
  const out: SealedLine[] = [];
  let next = start;
  const worker = async () => {
    for (let i = next++; i < end; i = next++) {
      const { commandId, requestHash } = lineIds[i]!;
      if (imported.has(commandId)) {
        out[i - start] = { alreadyImported: true };
        continue;
      }
      const line = gated[i]!;
      if (line.status === 'refused') {
        out[i - start] = { rejected: { line: i + 1, ...line.rejection.rejection } };
        continue;
      }
      out[i - start] = await sealLine(ledger, context, line, i + 1, commandId, requestHash);
    }
  };
  await Promise.all(Array.from({ length: SEAL_CONCURRENCY }, worker));
  return out;
}

async function sealLine(
  ledger: Ledger,
  context: CommandContext,
  passed: PassedLine,
  line: number,
  commandId: string,
  requestHash: string,
): Promise<SealedLine> {
  const memoryId = derivedId('m', commandId, 'memory');
  const sealed = await sealEntry(ledger.keyStore, context, memoryId, passed.entry);
  if (sealed.status !== 'sealed') return { rejected: { line, code: 'subject_forgotten', message: 'the subject was forgotten' } };
  return {
    line,
    commandId,
    requestHash,
    memoryId,
    conflictId: derivedId('c', commandId, 'conflict'),
    entry: sealed.entry,
    gate: passed.gate,
    ...(passed.status === 'candidate' ? { candidateExpiresAt: passed.expiresAt } : {}),
  };
}
