// The candidate expiry sweep (issue 17): finds the subjects with pending
// candidates whose expiry has passed, from the pending-candidates read model
// (one indexed query, not a fold of every subject), and appends their
// ProposalExpired events through the subject's command, which decides from
// the stream itself. Safe in several processes at once: each command is
// fenced by the stream's revision, and a subject with nothing due appends
// nothing. `memledger candidates expire` runs it once; `serve` on an interval.
import { setTimeout as pause } from 'node:timers/promises';
import { expireCandidates } from '../../commands/policy/candidates.js';
import type { Ledger } from '../../commands/ledger.js';
import { instantOf, type Instant } from '../../domain/values/instant.js';
import { candidatesProjection, ProjectionNotBuilt, readActive, type CandidatesDb } from '../../projections/index.js';
import type { ProjectionsKysely } from '../../projections/runtime/schema-handles.js';

export interface CandidateSweep {
  readonly at: Instant;
  readonly subjects: number;
  /** The candidates expired, by subject. */
  readonly expired: ReadonlyArray<{ readonly tenant: string; readonly subject: string; readonly memoryIds: readonly string[] }>;
}

export async function sweepCandidatesOnce(ledger: Ledger, db: ProjectionsKysely, at?: Instant): Promise<CandidateSweep> {
  const now = at ?? instantOf(ledger.clock());
  let due: Array<{ tenant: string; subject: string }>;
  try {
    due = await readActive<CandidatesDb, Array<{ tenant: string; subject: string }>>(db, candidatesProjection.name, (tables) =>
      tables
        .selectFrom('pending_candidates')
        .select(['tenant', 'subject'])
        .distinct()
        .where('expires_at', '<=', new Date(now))
        .orderBy('tenant')
        .orderBy('subject')
        .execute(),
    );
  } catch (error) {
    if (error instanceof ProjectionNotBuilt) return { at: now, subjects: 0, expired: [] };
    throw error;
  }
  const expired: Array<CandidateSweep['expired'][number]> = [];
  for (const { tenant, subject } of due) {
    const outcome = await expireCandidates(ledger, { tenant, subject, actor: 'candidate-sweeper' }, now);
    if (!outcome.ok) continue;
    const memoryIds = outcome.result.events.flatMap(({ event }) => (event.type === 'ProposalExpired' ? [event.data.memoryId] : []));
    if (memoryIds.length > 0) expired.push({ tenant, subject, memoryIds });
  }
  return { at: now, subjects: due.length, expired };
}

export async function runCandidateSweeper(
  ledger: Ledger,
  db: ProjectionsKysely,
  options: { readonly intervalMs: number; readonly signal: AbortSignal; readonly report: (sweep: CandidateSweep) => void },
): Promise<void> {
  while (!options.signal.aborted) {
    const sweep = await sweepCandidatesOnce(ledger, db);
    if (sweep.expired.length > 0) options.report(sweep);
    await pause(options.intervalMs, undefined, { signal: options.signal }).catch(() => undefined);
  }
}
