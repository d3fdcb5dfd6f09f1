// run = prepare + publish. A switch refused because the subject moved on
// (an input retracted, a new conflict, another worker's switch) is followed
// by forward recovery: a new artifact from the current valid inputs, whose
// coverage is not below the current alias, published the same way. Nothing
// is ever rolled back and no failed artifact is deleted.
import type { AliasTuple, FenceFailure } from '../../domain/events/alias.js';
import { subjectStreamName } from '../../domain/events/stream-names.js';
import type { SubjectState } from '../../domain/subject/state.js';
import type { CommandContext, Ledger } from '../ledger.js';
import { prepareConsolidation, type PrepareOptions, type PrepareResult } from './prepare.js';
import { publishArtifact, type PublishResult } from './publish.js';
import type { Result } from '../../domain/result/result.js';
import type { ConsolidationServices } from './services.js';

export interface RunHooks {
  /** Called after the artifact stream was written and before publication (tests pause or kill the process here). */
  readonly afterArtifactWritten?: (artifactId: string) => Promise<void>;
}

export type RunResult =
  | { readonly status: 'up_to_date'; readonly alias: AliasTuple }
  | { readonly status: 'gate_failed'; readonly prepare: PrepareResult }
  | { readonly status: 'generation_failed'; readonly prepare: PrepareResult }
  | { readonly status: PublishResult['status']; readonly prepare: PrepareResult; readonly publish: PublishResult; readonly rounds: number };

/** Fence failures that a fresh snapshot can get past. */
const RECOVERABLE: ReadonlySet<FenceFailure> = new Set([
  'epoch_changed',
  'alias_changed',
  'input_not_active',
  'input_hash_changed',
  'new_conflict',
]);
const MAX_ROUNDS = 3;

export async function runConsolidation(
  ledger: Ledger,
  services: ConsolidationServices,
  context: CommandContext,
  options: PrepareOptions & { readonly hooks?: RunHooks } = {},
): Promise<Result<RunResult>> {
  const stream = subjectStreamName(context.tenant, context.subject);
  let last: RunResult | undefined;
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    const state = (await ledger.subjects.load(stream)).state;
    const current = upToDate(state, options);
    if (current) return { ok: true, result: { status: 'up_to_date', alias: current } };
    const prepared = await prepareConsolidation(ledger, services, context, options);
    if (!prepared.ok) return prepared;
    const prepare = prepared.result;
    if (prepare.status === 'gate_failed') return { ok: true, result: { status: 'gate_failed', prepare } };
    if (prepare.status === 'generation_failed') return { ok: true, result: { status: 'generation_failed', prepare } };
    await options.hooks?.afterArtifactWritten?.(prepare.artifactId);
    const published = await publishArtifact(ledger, services, context, prepare.artifactId);
    if (!published.ok) return published;
    const publish = published.result;
    last = { status: publish.status, prepare, publish, rounds: round };
    if (publish.status !== 'rejected' || !RECOVERABLE.has(publish.reason)) return { ok: true, result: last };
  }
  return { ok: true, result: last! };
}

/** Forward recovery on demand: rebuild from the raw valid inputs, never on top of the current summary. */
export function recoverForward(
  ledger: Ledger,
  services: ConsolidationServices,
  context: CommandContext,
  hooks?: RunHooks,
): Promise<Result<RunResult>> {
  return runConsolidation(ledger, services, context, { fromRaw: true, ...(hooks ? { hooks } : {}) });
}

function upToDate(state: SubjectState, options: PrepareOptions): AliasTuple | undefined {
  const alias = state.alias;
  // A named boundary (a hand-off, a phase, a branch) gets a record of its own even when the summary is current.
  const named = (options.trigger !== undefined && options.trigger !== 'schedule') || options.runId !== undefined;
  if (!alias || options.fromRaw || named || alias.sourceEpoch !== state.inputEpoch) return undefined;
  return alias.coversThrough >= (options.through ?? state.highWaterMark) ? alias : undefined;
}
