// Bulk import (migrating an existing memory store): every line is validated
// before anything is written; then entries are decided one after another
// against the evolving state and appended in batches, one append per batch
// through the command loop (src/commands/stream). Line idempotency keys
// derive from the import id, so running the same import again appends
// nothing new (within the retry window of recent commands, COMMAND_WINDOW).
import { requireEntry, type MemoryEntry } from '../domain/entry/entry.js';
import type { SealedEntry } from '../domain/entry/sealed-entry.js';
import { subjectStreamName } from '../domain/events/stream-names.js';
import type { Rejection } from '../domain/result/result.js';
import type { WriteOutcome } from '../domain/subject/decision.js';
import { InvalidInput } from '../domain/validation/invalid-input.js';
import { derivedId } from './ids/command-ids.js';
import type { CommandContext, Ledger } from './ledger.js';
import { reindexVectors } from './retrieval/vector-index.js';
import { handleCommands } from './stream/handle-commands.js';
import { sealEntry } from './subject/seal-entry.js';

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
    const prepared: PreparedLine[] = [];
    for (let i = start; i < Math.min(start + batchSize, entries.length); i++) {
      const commandId = derivedId('import', options.importId, `line-${i + 1}`);
      const memoryId = derivedId('m', commandId, 'memory');
      const sealed = await sealEntry(ledger.keyStore, context, memoryId, entries[i]!);
      if (sealed.status !== 'sealed') {
        rejected.push({ line: i + 1, code: 'subject_forgotten', message: 'the subject was forgotten' });
        continue;
      }
      prepared.push({ line: i + 1, commandId, memoryId, conflictId: derivedId('c', commandId, 'conflict'), entry: sealed.entry });
    }
    const target = { stream, ...(context.actor ? { actor: context.actor } : {}) };
    const { outcomes, loaded, appended } = await handleCommands(ledger.subjects, ledger, target, (_loaded, now) =>
      prepared.map((line) => ({
        commandId: line.commandId,
        command: { type: 'RecordMemory', memoryId: line.memoryId, conflictId: line.conflictId, entry: line.entry, now } as const,
      })),
    );
    outcomes.forEach((outcome, index) => {
      if (outcome.status === 'replayed') alreadyImported++;
      else if (outcome.status === 'rejected') rejected.push({ line: prepared[index]!.line, ...outcome.rejection });
      else if (outcome.decision) decisions[outcome.decision.outcome]++;
    });
    revision = appended?.nextExpectedRevision ?? loaded.revision;
    batches += appended ? 1 : 0;
  }
  // Vectors after the appends, in batches (a failing endpoint is recorded for a retry, never a failed import).
  await reindexVectors(ledger, context).catch(() => undefined);
  return { lines: entries.length, decisions, alreadyImported, rejected, batches, revision };
}
