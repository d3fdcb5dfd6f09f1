// Erasing a source ref in every subject of a tenant ("everything derived
// from this document / thread / tool"): the subjects come from the log
// (every subject stream of the tenant), each subject's entries recorded from
// the ref are judged on its folded state, and each subject holding some gets
// its own erasure — keys, tombstones, checks, receipt — since the subject
// stream is the unit of consistency. A subject whose entries from the ref
// were all erased before is reported, not erased twice. Every subject
// written before the request is found: the log is first awaited to show
// every earlier commit (on PostgreSQL an older transaction elsewhere can
// hold it back). Subjects created while this runs may be missed (the log is
// read once): run it again, which erases only what is new.
import { subjectStreamName } from '../../domain/events/stream-names.js';
import { sourceRefSchema } from '../../domain/entry/source.js';
import { InvalidInput } from '../../domain/validation/invalid-input.js';
import { requireId } from '../../domain/values/ids.js';
import type { Ledger } from '../ledger.js';
import type { DeletionReceipt } from '../../reads/erasure/history.js';
import { erase, type ErasureOptions } from './erase.js';
import { tenantSubjects } from './retention-sweep.js';

export interface SourceRefErasureEverywhere {
  readonly tenant: string;
  readonly sourceRef: string;
  /** Subjects of the tenant looked at. */
  readonly subjectsSearched: number;
  /** One receipt per subject that held entries recorded from the ref. */
  readonly receipts: readonly DeletionReceipt[];
  /** Subjects whose entries from the ref earlier receipts already name. */
  readonly alreadyErased: readonly string[];
  /** Subjects where the erasure was refused (e.g. the stream kept changing): nothing there is done. */
  readonly refused: ReadonlyArray<{ readonly subject: string; readonly code: string; readonly message: string }>;
}

export interface EverywhereContext {
  readonly tenant: string;
  readonly actor?: string;
  /** Each subject's erasure uses `${idempotencyKey}:${subject}`, so a retry appends nothing new. */
  readonly idempotencyKey?: string;
}

export async function forgetSourceRefEverywhere(
  ledger: Ledger,
  context: EverywhereContext,
  sourceRefInput: string,
  reason: string | undefined,
  optionsFor: (subject: string) => Omit<ErasureOptions, 'reason'> = () => ({}),
): Promise<SourceRefErasureEverywhere> {
  const tenant = requireId('tenant', context.tenant);
  const parsed = sourceRefSchema.safeParse(sourceRefInput);
  if (!parsed.success) throw new InvalidInput('sourceRef', parsed.error.issues[0]?.message ?? 'is invalid');
  const sourceRef = parsed.data;

  await ledger.eventStore.awaitCommitted();
  const subjects = await tenantSubjects(ledger.eventStore, tenant);
  const receipts: DeletionReceipt[] = [];
  const alreadyErased: string[] = [];
  const refused: Array<{ subject: string; code: string; message: string }> = [];
  for (const subject of subjects) {
    const { state } = await ledger.subjects.load(subjectStreamName(tenant, subject));
    if (state.forgotten || ![...state.entries.values()].some((e) => e.source.refs.includes(sourceRef))) continue;
    const subjectContext = {
      tenant,
      subject,
      ...(context.actor ? { actor: context.actor } : {}),
      ...(context.idempotencyKey ? { idempotencyKey: `${context.idempotencyKey}:${subject}` } : {}),
    };
    const outcome = await erase(
      ledger,
      subjectContext,
      { scope: 'source_ref', sourceRef },
      { ...optionsFor(subject), ...(reason !== undefined ? { reason } : {}) },
    );
    if (outcome.ok) receipts.push(outcome.result);
    else if (outcome.rejection.code === 'already_forgotten') alreadyErased.push(subject);
    else refused.push({ subject, code: outcome.rejection.code, message: outcome.rejection.message });
  }
  return { tenant, sourceRef, subjectsSearched: subjects.length, receipts, alreadyErased, refused };
}
