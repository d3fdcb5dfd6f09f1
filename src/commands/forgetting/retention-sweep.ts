// The retention sweeper (DESIGN section 8; seed 001 sections 5 and F): for
// one subject at `now`, expire (archive) the active entries due by their
// expiresAt or by the tenant's default TTL, then erase the entries whose
// archive period is over, through the erasure pipeline (receipt scope
// `retention`). The TTL rules are applied here, at sweep time, rather than
// written into expiresAt at record time: a tenant that shortens its policy
// has it applied to what it holds already, and the expiry events carry the
// due instant, so replay stays deterministic. Sweepers in several processes
// are safe: each decision is fenced by the stream revision, and what is
// already expired or erased is passed over.
import { subjectStreamName } from '../../domain/events/stream-names.js';
import { subjectsInLog } from '../../reads/streams/subjects-in-log.js';
import { planRetention, type RetentionFacts } from '../../domain/retention/plan.js';
import type { RetentionRule } from '../../domain/retention/policy.js';
import { instantOf, type Instant } from '../../domain/values/instant.js';
import type { EventStore } from '../../infrastructure/event-store/port.js';
import { newCommandId } from '../ids/command-ids.js';
import type { CommandContext, Ledger } from '../ledger.js';
import { actorOf } from '../record.js';
import { executeSubjectCommand } from '../subject/execute.js';
import type { DeletionReceipt } from '../../reads/erasure/history.js';
import { erase, type ErasureOptions } from './erase.js';
import { readErasureHistory } from '../../reads/erasure/history.js';

export interface RetentionRules {
  rules(tenant: string): Promise<readonly RetentionRule[]>;
}

export interface SubjectSweep {
  readonly tenant: string;
  readonly subject: string;
  /** Entries archived by this sweep (MemoryExpired appended). */
  readonly expired: readonly string[];
  /** The receipt of the entries erased by this sweep, if any. */
  readonly erased: DeletionReceipt | null;
}

export const RETENTION_ACTOR = 'retention-sweeper';

export async function sweepSubject(
  ledger: Ledger,
  policies: RetentionRules,
  context: CommandContext,
  at?: Instant,
  options: Omit<ErasureOptions, 'reason'> = {},
): Promise<SubjectSweep> {
  const now = at ?? instantOf(ledger.clock());
  const stream = subjectStreamName(context.tenant, context.subject);
  const actor = { ...context, actor: context.actor ?? RETENTION_ACTOR };
  const loaded = await ledger.subjects.load(stream);
  const none = { tenant: context.tenant, subject: context.subject, expired: [], erased: null };
  if (loaded.state.forgotten || loaded.revision < 0) return none;
  const history = await readErasureHistory(ledger.eventStore, stream);
  const facts: RetentionFacts[] = [...loaded.state.entries.values()].flatMap((e) => {
    const recordedAt = history.recordedAt.get(e.memoryId);
    if (recordedAt === undefined) return [];
    const dueAt = history.expiredDueAt.get(e.memoryId);
    return [
      {
        memoryId: e.memoryId,
        sequence: e.sequence,
        kind: e.kind,
        sensitivity: e.sensitivity,
        status: e.status,
        recordedAt,
        ...(e.expiresAt ? { expiresAt: e.expiresAt } : {}),
        ...(dueAt ? { expiredDueAt: dueAt } : {}),
      },
    ];
  });
  const plan = planRetention(facts, await policies.rules(context.tenant), now);

  const expired: string[] = [];
  if (plan.expire.length > 0) {
    const outcome = await executeSubjectCommand(ledger, { stream, commandId: newCommandId(), ...actorOf(actor) }, () => ({
      type: 'ExpireByRetention',
      expirations: [...plan.expire],
      now,
    }));
    if (outcome.ok) for (const { event } of outcome.result.events) if (event.type === 'MemoryExpired') expired.push(event.data.memoryId);
  }
  const pending = plan.erase.map((e) => e.memoryId).filter((id) => !history.receipted.has(id));
  if (pending.length === 0) return { ...none, expired };
  const erased = await erase(
    ledger,
    actor,
    { scope: 'retention', memoryIds: pending },
    { ...options, reason: 'retention policy: the archive period is over' },
  );
  return { ...none, expired, erased: erased.ok ? erased.result : null };
}

/** Every subject of the tenant that has a stream, from the log (no projection needed). */
export async function tenantSubjects(store: EventStore, tenant: string): Promise<string[]> {
  return (await subjectsInLog(store, tenant)).map((s) => s.subject);
}

/** The sweep of a whole tenant (or of the listed subjects), one subject after another. */
export async function sweepTenant(
  ledger: Ledger,
  policies: RetentionRules,
  tenant: string,
  at?: Instant,
  options: Omit<ErasureOptions, 'reason'> & { readonly subjects?: readonly string[] } = {},
): Promise<SubjectSweep[]> {
  const now = at ?? instantOf(ledger.clock());
  const subjects = options.subjects ?? (await tenantSubjects(ledger.eventStore, tenant));
  const results: SubjectSweep[] = [];
  for (const subject of subjects) {
    const swept = await sweepSubject(ledger, policies, { tenant, subject }, now, options);
    if (swept.expired.length > 0 || swept.erased) results.push(swept);
  }
  return results;
}
