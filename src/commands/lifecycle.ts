// Retraction, conflict resolution, trust and taint changes, and the TTL
// sweeper: each loads, decides and appends through executeSubjectCommand.
import { subjectStreamName } from '../domain/events/stream-names.js';
import type { SubjectCommand } from '../domain/subject/commands.js';
import type { SourceType, TrustLevel } from '../domain/entry/source.js';
import type { Instant } from '../domain/values/instant.js';
import { newCommandId } from './ids/command-ids.js';
import type { CommandContext, Ledger } from './ledger.js';
import { actorOf } from './record.js';
import type { Result } from '../domain/result/result.js';
import { executeSubjectCommand } from './subject/execute.js';

/** The common answer of a lifecycle command: what it appended, where, and when. */
export interface LifecycleResult {
  readonly events: ReadonlyArray<{ readonly type: string; readonly data: unknown }>;
  /** The stream's revision after the command (-1: the stream does not exist). */
  readonly revision: number;
  readonly recordedAt: string | null;
  readonly replayed: boolean;
}

/** A command as the client asks it: everything but the time it is decided at. */
type Request<C> = C extends unknown ? Omit<C, 'now'> : never;
export type LifecycleRequest = Request<SubjectCommand>;

/**
 * Decides `request` at `at` (default: the clock) and appends. The request is
 * what a retry under the same idempotency key must repeat (with `at`, when
 * the client gave one).
 */
export async function runLifecycleCommand(
  ledger: Ledger,
  context: CommandContext,
  request: LifecycleRequest,
  at?: Instant,
): Promise<Result<LifecycleResult>> {
  const stream = subjectStreamName(context.tenant, context.subject);
  const commandId = context.idempotencyKey ?? newCommandId();
  const envelope = { stream, commandId, request: at === undefined ? request : { ...request, at }, ...actorOf(context) };
  const outcome = await executeSubjectCommand(ledger, envelope, (_loaded, now) => ({ ...request, now: at ?? now }));
  if (!outcome.ok) return outcome;
  const { events, revision, replayed } = outcome.result;
  return {
    ok: true,
    result: {
      events: events.map(({ event }) => ({ type: event.type, data: event.data })),
      revision: events.at(-1)?.stored.streamRevision ?? revision,
      recordedAt: events.at(-1)?.stored.recordedAt.toISOString() ?? null,
      replayed,
    },
  };
}

export const retractMemory = (ledger: Ledger, context: CommandContext, memoryId: string, reason: string) =>
  runLifecycleCommand(ledger, context, { type: 'RetractMemory', memoryId, reason });

export const resolveConflict = (ledger: Ledger, context: CommandContext, conflictId: string, winner: string, reason?: string) =>
  runLifecycleCommand(ledger, context, { type: 'ResolveConflict', conflictId, winner, ...(reason ? { reason } : {}) });

export const changeTrust = (ledger: Ledger, context: CommandContext, sourceRef: string, level: TrustLevel, reason?: string) =>
  runLifecycleCommand(ledger, context, { type: 'ChangeTrust', sourceRef, level, ...(reason ? { reason } : {}) });

export const escalateTaintPolicy = (
  ledger: Ledger,
  context: CommandContext,
  policy: { refPatterns: string[]; sourceTypes: SourceType[]; reason: string },
) => runLifecycleCommand(ledger, context, { type: 'EscalateTaintPolicy', ...policy });

/** The TTL sweeper for one subject: MemoryExpired for every active entry due at `at` (default: the clock). */
export const expireMemories = (ledger: Ledger, context: CommandContext, at?: Instant) =>
  runLifecycleCommand(ledger, context, { type: 'ExpireMemories' }, at);

/** A reviewer or admin brings a demoted memory back (MemoryRestored, reason `restored`). */
export const restoreMemory = (ledger: Ledger, context: CommandContext, memoryId: string, note?: string) =>
  runLifecycleCommand(ledger, context, { type: 'RestoreMemory', memoryId, ...(note ? { note } : {}) });
