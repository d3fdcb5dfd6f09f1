// The lifecycle sweeper of the service (issue 18 item 3): every subject the
// memory projection knows and that is not forgotten, one after another,
// through the command-side sweep (src/commands/memory-lifecycle/sweep.ts),
// which decides from each subject's stream. Safe in several processes: each
// append is fenced by its stream's revision and what is already demoted or
// archived is passed over.
import { setTimeout as pause } from 'node:timers/promises';
import type { Ledger } from '../../commands/ledger.js';
import { sweepLifecycle, type LifecyclePolicySource, type LifecycleSweep } from '../../commands/memory-lifecycle/sweep.js';
import { memoryProjection, ProjectionNotBuilt, readActive, type MemoryProjectionDb } from '../../projections/index.js';
import type { ProjectionsKysely } from '../../projections/runtime/schema-handles.js';

export async function sweepLifecycleOnce(
  ledger: Ledger,
  db: ProjectionsKysely,
  policies: LifecyclePolicySource,
): Promise<LifecycleSweep[]> {
  let subjects: Array<{ tenant: string; subject: string }>;
  try {
    subjects = await readActive<MemoryProjectionDb, Array<{ tenant: string; subject: string }>>(db, memoryProjection.name, (tables) =>
      tables
        .selectFrom('subject_clock')
        .select(['tenant', 'subject'])
        .where('forgotten', '=', false)
        .orderBy('tenant')
        .orderBy('subject')
        .execute(),
    );
  } catch (error) {
    if (error instanceof ProjectionNotBuilt) return [];
    throw error;
  }
  return sweepLifecycle(ledger, policies, subjects);
}

export async function runLifecycleSweeper(
  ledger: Ledger,
  db: ProjectionsKysely,
  policies: LifecyclePolicySource,
  options: { readonly intervalMs: number; readonly signal: AbortSignal; readonly report: (swept: LifecycleSweep[]) => void },
): Promise<void> {
  while (!options.signal.aborted) {
    const swept = await sweepLifecycleOnce(ledger, db, policies);
    if (swept.length > 0) options.report(swept);
    await pause(options.intervalMs, undefined, { signal: options.signal }).catch(() => undefined);
  }
}
