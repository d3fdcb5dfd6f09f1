// The lifecycle sweeper (issue 18 item 3): for one subject at `now` (the
// clock, or a given instant, so a simulated year needs no sleeping), plan
// demotions and capacity archivals under the tenant's lifecycle policy
// (src/domain/lifecycle/plan.ts) and append them as one SweepLifecycle, whose
// events name the rule and the policy version. The plan is made from the
// state each attempt loads, so a sweep that loses a race to another writer
// re-plans from what won; what is already demoted or archived is passed
// over, so sweepers in several processes are safe (fenced by the stream
// revision, like the retention sweeper).
import { subjectStreamName } from '../../domain/events/stream-names.js';
import { planLifecycle, type LiveMemory } from '../../domain/lifecycle/plan.js';
import type { VersionedLifecyclePolicy } from '../../domain/lifecycle/policy.js';
import { lifecycleInputOf } from '../../domain/lifecycle/input.js';
import type { SubjectState } from '../../domain/subject/state.js';
import { instantOf, type Instant } from '../../domain/values/instant.js';
import { readErasureHistory } from '../../reads/erasure/history.js';
import { newCommandId } from '../ids/command-ids.js';
import type { Ledger } from '../ledger.js';
import { executeSubjectCommand } from '../subject/execute.js';

export const LIFECYCLE_ACTOR = 'lifecycle-sweeper';

export interface LifecyclePolicySource {
  current(tenant: string): Promise<VersionedLifecyclePolicy>;
}

export interface LifecycleSweep {
  readonly tenant: string;
  readonly subject: string;
  readonly policyVersion: number;
  readonly demoted: ReadonlyArray<{ readonly memoryId: string; readonly reason: string; readonly rule: string }>;
  readonly archived: ReadonlyArray<{ readonly memoryId: string; readonly reason: 'capacity'; readonly rule: string }>;
}

/** The subject's live memories as the plan reads them. */
export function liveMemories(state: SubjectState, recordedAt: ReadonlyMap<string, Instant>): LiveMemory[] {
  return [...state.entries.values()].flatMap((entry) => {
    const at = recordedAt.get(entry.memoryId);
    if (entry.status !== 'active' || at === undefined) return [];
    // The entry's own fields and what feedback said (entry.usage) fill the rules' input in lifecycleInputOf.
    return [
      {
        memoryId: entry.memoryId,
        sequence: entry.sequence,
        demoted: entry.demotion !== undefined,
        usage: lifecycleInputOf({ ...entry, ...entry.usage, recordedAt: at }),
      },
    ];
  });
}

export async function sweepSubjectLifecycle(
  ledger: Ledger,
  policies: LifecyclePolicySource,
  tenant: string,
  subject: string,
  at?: Instant,
): Promise<LifecycleSweep> {
  const now = at ?? instantOf(ledger.clock());
  const stream = subjectStreamName(tenant, subject);
  const { version, policy } = await policies.current(tenant);
  const none: LifecycleSweep = { tenant, subject, policyVersion: version, demoted: [], archived: [] };
  const loaded = await ledger.subjects.load(stream);
  if (loaded.state.forgotten || loaded.revision < 0) return none;
  const { recordedAt } = await readErasureHistory(ledger.eventStore, stream);
  if (planIsEmpty(planLifecycle(liveMemories(loaded.state, recordedAt), policy, now))) return none;
  const outcome = await executeSubjectCommand(ledger, { stream, commandId: newCommandId(), actor: LIFECYCLE_ACTOR }, (current) => {
    const plan = planLifecycle(liveMemories(current.state, recordedAt), policy, now);
    return {
      type: 'SweepLifecycle',
      policyVersion: version,
      demotions: plan.demote.map((d) => ({ ...d })),
      archivals: plan.archive.map((a) => ({ ...a })),
      now,
    };
  });
  if (!outcome.ok) return none;
  const demoted: LifecycleSweep['demoted'][number][] = [];
  const archived: LifecycleSweep['archived'][number][] = [];
  for (const { event } of outcome.result.events) {
    if (event.type === 'MemoryDemoted') demoted.push({ memoryId: event.data.memoryId, reason: event.data.reason, rule: event.data.rule });
    if (event.type === 'MemoryArchived') archived.push({ memoryId: event.data.memoryId, reason: 'capacity', rule: event.data.rule });
  }
  return { ...none, demoted, archived };
}

const planIsEmpty = (plan: { demote: readonly unknown[]; archive: readonly unknown[] }) =>
  plan.demote.length === 0 && plan.archive.length === 0;

/** Sweeps the listed subjects one after another; answers the subjects where something changed. */
export async function sweepLifecycle(
  ledger: Ledger,
  policies: LifecyclePolicySource,
  subjects: ReadonlyArray<{ tenant: string; subject: string }>,
  at?: Instant,
): Promise<LifecycleSweep[]> {
  const now = at ?? instantOf(ledger.clock());
  const changed: LifecycleSweep[] = [];
  for (const { tenant, subject } of subjects) {
    const swept = await sweepSubjectLifecycle(ledger, policies, tenant, subject, now);
    if (swept.demoted.length > 0 || swept.archived.length > 0) changed.push(swept);
  }
  return changed;
}
