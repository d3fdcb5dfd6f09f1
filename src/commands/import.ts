// Bulk import (migrating an existing memory store): every line is validated
// before anything is written; then entries are decided one after another
// against the evolving state and appended in batches, one append per batch
// with the expected revision. Line idempotency keys derive from the import id,
// so running the same import again appends nothing new (within the retry
// window of recent commands, COMMAND_WINDOW).
import { requireEntry, type MemoryEntry } from '../domain/entry/entry.js';
import { subjectStreamName } from '../domain/events/stream-names.js';
import type { SubjectEvent } from '../domain/events/subject-events.js';
import { decide } from '../domain/subject/decide.js';
import type { Rejection, WriteOutcome } from '../domain/subject/decision.js';
import { fold } from '../domain/subject/evolve.js';
import { InvalidInput } from '../domain/validation/invalid-input.js';
import { instantOf } from '../domain/values/instant.js';
import { WrongExpectedVersion, type NewEvent } from '../infrastructure/event-store/port.js';
import { derivedId } from './ids/command-ids.js';
import type { CommandContext, Ledger } from './ledger.js';
import { appendSettled } from './subject/append-settled.js';
import { ConcurrencyExhausted } from './subject/execute.js';
import { toNewEvents } from './subject/new-events.js';
import { sealEntry } from './subject/seal-entry.js';
import type { SealedEntry } from '../domain/entry/sealed-entry.js';

export interface ImportResult {
  readonly lines: number;
  readonly decisions: Readonly<Record<WriteOutcome, number>>;
  /** Lines already imported before (same import id): nothing appended for them. */
  readonly alreadyImported: number;
  readonly rejected: ReadonlyArray<{ readonly line: number } & Rejection>;
  readonly batches: number;
  readonly revision: number;
}

interface PreparedLine {
  readonly line: number;
  readonly commandId: string;
  readonly memoryId: string;
  readonly conflictId: string;
  readonly entry: SealedEntry;
}

const MAX_ATTEMPTS = 25;

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
): Promise<ImportResult> {
  const stream = subjectStreamName(context.tenant, context.subject);
  const batchSize = options.batchSize ?? 500;
  const decisions: Record<WriteOutcome, number> = { NEW: 0, DUPLICATE: 0, SUPERSEDES: 0, CONFLICTS: 0 };
  const rejected: Array<{ line: number } & Rejection> = [];
  let alreadyImported = 0;
  let batches = 0;
  let revision = -1;
  for (let start = 0; start < entries.length; start += batchSize) {
    const sealed = await sealLines(ledger, context, options.importId, entries, start, Math.min(start + batchSize, entries.length));
    const prepared: PreparedLine[] = [];
    for (const line of sealed) {
      if ('rejected' in line) rejected.push(line.rejected);
      else prepared.push(line);
    }
    const applied = await appendBatch(ledger, stream, context, prepared);
    for (const [outcome, n] of Object.entries(applied.decisions)) decisions[outcome as WriteOutcome] += n;
    rejected.push(...applied.rejected);
    alreadyImported += applied.alreadyImported;
    revision = applied.revision;
    batches += applied.appended ? 1 : 0;
  }
  return { lines: entries.length, decisions, alreadyImported, rejected, batches, revision };
}

/** Key-store round trips dominate sealing: this many lines are sealed at once (the key store's pool holds 4 connections). */
const SEAL_CONCURRENCY = 4;

/** Seals lines [start, end) in line order, a few at a time. */
async function sealLines(
  ledger: Ledger,
  context: CommandContext,
  importId: string,
  entries: readonly MemoryEntry[],
  start: number,
  end: number,
): Promise<Array<PreparedLine | { readonly rejected: { line: number } & Rejection }>> {
  const out: Array<PreparedLine | { readonly rejected: { line: number } & Rejection }> = [];
  let next = start;
  const worker = async () => {
    for (let i = next++; i < end; i = next++) {
      const commandId = derivedId('import', importId, `line-${i + 1}`);
      const memoryId = derivedId('m', commandId, 'memory');
      const sealed = await sealEntry(ledger.keyStore, context, memoryId, entries[i]!);
      out[i - start] =
        sealed.status === 'sealed'
          ? { line: i + 1, commandId, memoryId, conflictId: derivedId('c', commandId, 'conflict'), entry: sealed.entry }
          : { rejected: { line: i + 1, code: 'subject_forgotten', message: 'the subject was forgotten' } };
    }
  };
  await Promise.all(Array.from({ length: SEAL_CONCURRENCY }, worker));
  return out;
}

async function appendBatch(ledger: Ledger, stream: string, context: CommandContext, lines: readonly PreparedLine[]) {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const loaded = await ledger.subjects.load(stream);
    const now = instantOf(ledger.clock());
    let state = loaded.state;
    const batch: NewEvent[] = [];
    const decisions: Partial<Record<WriteOutcome, number>> = {};
    const rejected: Array<{ line: number } & Rejection> = [];
    let alreadyImported = 0;
    for (const line of lines) {
      if (loaded.commands.has(line.commandId)) {
        alreadyImported++;
        continue;
      }
      const decided = decide(state, { type: 'RecordMemory', memoryId: line.memoryId, conflictId: line.conflictId, entry: line.entry, now });
      if (!decided.ok) {
        rejected.push({ line: line.line, ...decided.rejection });
        continue;
      }
      state = fold(decided.events as SubjectEvent[], state);
      if (decided.decision) decisions[decided.decision.outcome] = (decisions[decided.decision.outcome] ?? 0) + 1;
      batch.push(...toNewEvents(decided.events, { commandId: line.commandId, ...(context.actor ? { actor: context.actor } : {}) }));
    }
    if (batch.length === 0) return { decisions, rejected, alreadyImported, revision: loaded.revision, appended: false };
    try {
      const appended = await appendSettled(ledger.eventStore, stream, batch, {
        expectedRevision: loaded.revision < 0 ? 'no_stream' : loaded.revision,
      });
      return { decisions, rejected, alreadyImported, revision: appended.nextExpectedRevision, appended: true };
    } catch (error) {
      if (!(error instanceof WrongExpectedVersion)) throw error;
    }
  }
  throw new ConcurrencyExhausted(stream, MAX_ATTEMPTS);
}
