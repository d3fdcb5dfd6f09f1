// A consolidation worker: finds due subjects and runs them, again and again.
// Several workers (threads or processes) may work on the same subjects at
// once: a snapshot's artifact is written once (no_stream), and a switch is
// fenced by the subject stream's revision, so the worst a race costs is a
// rejected artifact, never a regressed or unfenced alias.
import { setTimeout as pause } from 'node:timers/promises';
import type { Ledger } from '../ledger.js';
import { consolidationRunsNow } from '../../domain/consolidation/schedule.js';
import { DueSubjects, type DueSubject } from './due-subjects.js';
import { runConsolidation, type RunHooks } from './run.js';
import type { ConsolidationServices } from './services.js';

export interface WorkerOptions {
  readonly tenant?: string;
  /** New entries since the alias's coverage that make a subject due. */
  readonly threshold: number;
  /** Stop after this long without a due subject (absent: run until aborted). */
  readonly idleExitMs?: number;
  readonly pollMs?: number;
  readonly signal?: AbortSignal;
  readonly hooks?: RunHooks;
  /** One line per run, e.g. to stderr. */
  readonly report?: (line: Record<string, unknown>) => void;
  /** Off-peak: a due subject waits while `busy()` says the service is, at most `maxDeferMs` (consolidationRunsNow). */
  readonly offPeak?: OffPeak;
}

export interface OffPeak {
  readonly busy: () => boolean;
  readonly maxDeferMs: number;
}

export interface WorkerStats {
  runs: number;
  switched: number;
  rejected: number;
  upToDate: number;
  awaitingApproval: number;
  failed: number;
  errors: number;
}

const keyOf = (subject: DueSubject) => `${subject.tenant}/${subject.subject}`;

export async function runWorker(ledger: Ledger, services: ConsolidationServices, options: WorkerOptions): Promise<WorkerStats> {
  const stats: WorkerStats = { runs: 0, switched: 0, rejected: 0, upToDate: 0, awaitingApproval: 0, failed: 0, errors: 0 };
  const finder = new DueSubjects(ledger.eventStore, ledger.subjects, options.tenant);
  // Subjects whose last run made no progress (a failed gate, a failed generation), by the revision it saw: not retried until the subject changes.
  const stuck = new Map<string, number>();
  let idleSince = Date.now();
  // When each due subject was first found due (off-peak deferral counts from there).
  const dueSince = new Map<string, number>();
  while (!options.signal?.aborted) {
    const due = shuffle((await finder.find(options.threshold)).filter((s) => stuck.get(keyOf(s)) !== s.revision));
    if (due.length === 0) {
      dueSince.clear();
      if (options.idleExitMs !== undefined && Date.now() - idleSince >= options.idleExitMs) break;
      await sleep(options.pollMs ?? 250, options.signal);
      continue;
    }
    const found = Date.now();
    const keys = new Set(due.map(keyOf));
    for (const key of dueSince.keys()) if (!keys.has(key)) dueSince.delete(key);
    for (const key of keys) if (!dueSince.has(key)) dueSince.set(key, found);
    let ran = 0;
    for (const subject of due) {
      if (options.signal?.aborted) break;
      const key = keyOf(subject);
      // Judged before each run: a run takes seconds, and the service may have become busy meanwhile.
      const now = Date.now();
      if (options.offPeak && !consolidationRunsNow(dueSince.get(key)!, now, options.offPeak.busy(), options.offPeak.maxDeferMs)) continue;
      const deferredMs = now - dueSince.get(key)!;
      dueSince.delete(key);
      ran++;
      stats.runs++;
      try {
        const outcome = await runConsolidation(
          ledger,
          services,
          { tenant: subject.tenant, subject: subject.subject, actor: 'consolidation-worker' },
          options.hooks ? { hooks: options.hooks } : {},
        );
        const status = outcome.ok ? outcome.result.status : outcome.rejection.code;
        if (status === 'switched') stats.switched++;
        else if (status === 'rejected') stats.rejected++;
        else if (status === 'up_to_date') stats.upToDate++;
        else {
          // Waiting for approval, a failed gate or generation: nothing changes until the subject does.
          if (status === 'awaiting_approval') stats.awaitingApproval++;
          else stats.failed++;
          stuck.set(key, subject.revision);
        }
        options.report?.({ subject: subject.subject, due: subject.reason, status, ...(options.offPeak ? { deferredMs } : {}) });
      } catch (error) {
        stats.errors++;
        stuck.set(key, subject.revision);
        options.report?.({ subject: subject.subject, due: subject.reason, error: (error as Error).message });
      }
    }
    // Every due subject deferred: look again after a pause, not at once.
    if (ran === 0) await sleep(options.pollMs ?? 250, options.signal);
    else idleSince = Date.now();
  }
  return stats;
}

function shuffle<T>(items: T[]): T[] {
  // Workers take due subjects in different orders, so they spread out instead of all starting on the same one.
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  // Resolves at once when the signal is (or already was) aborted.
  return pause(ms, undefined, signal ? { signal } : {}).catch(() => undefined);
}
