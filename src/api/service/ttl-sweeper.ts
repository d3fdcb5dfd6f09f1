// The TTL sweeper (DESIGN section 8): finds subjects with active entries
// whose expiresAt has passed — from the memory projection, so a sweep costs
// one indexed query, not a fold of every subject — and appends their
// MemoryExpired events through the expire command, which decides from the
// stream itself. Sweepers in several processes are safe: the command is
// fenced by the stream revision, and a subject with nothing due appends nothing.
import { setTimeout as pause } from 'node:timers/promises';
import { expireMemories } from '../../commands/lifecycle.js';
import type { Ledger } from '../../commands/ledger.js';
import { instantOf } from '../../domain/values/instant.js';
import { memoryProjection, ProjectionNotBuilt, readActive, type MemoryProjectionDb } from '../../projections/index.js';
import type { ProjectionsKysely } from '../../projections/runtime/schema-handles.js';

export interface SweepResult {
  readonly subjects: number;
  readonly expired: number;
}

export async function sweepOnce(ledger: Ledger, db: ProjectionsKysely): Promise<SweepResult> {
  const now = instantOf(ledger.clock());
  let due: Array<{ tenant: string; subject: string }>;
  try {
    due = await readActive<MemoryProjectionDb, Array<{ tenant: string; subject: string }>>(db, memoryProjection.name, (tables) =>
      tables
        .selectFrom('memory_versions')
        .select(['tenant', 'subject'])
        .distinct()
        .where('tx_to', 'is', null)
        .where('status', '=', 'active')
        .where('expires_at', '<=', new Date(now))
        .execute(),
    );
  } catch (error) {
    if (error instanceof ProjectionNotBuilt) return { subjects: 0, expired: 0 };
    throw error;
  }
  let expired = 0;
  for (const { tenant, subject } of due) {
    const outcome = await expireMemories(ledger, { tenant, subject, actor: 'ttl-sweeper' }, now);
    if (outcome.ok) expired += outcome.result.events.filter((e) => e.type === 'MemoryExpired').length;
  }
  return { subjects: due.length, expired };
}

export async function runTtlSweeper(
  ledger: Ledger,
  db: ProjectionsKysely,
  options: { readonly intervalMs: number; readonly signal: AbortSignal; readonly report: (result: SweepResult) => void },
): Promise<void> {
  while (!options.signal.aborted) {
    const result = await sweepOnce(ledger, db);
    if (result.expired > 0) options.report(result);
    await pause(options.intervalMs, undefined, { signal: options.signal }).catch(() => undefined);
  }
}
