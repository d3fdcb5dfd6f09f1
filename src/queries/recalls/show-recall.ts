// An auditor's look at one recall (issue 18 item 1): what it served, at which
// positions, with which scores and reason codes, under which parameters, and
// the question when it can still be opened (unreadable once the subject or
// a memory it served is erased: src/reads/recalls/recall-records.ts).
import type { RecallServed } from '../../domain/events/recall-events.js';
import { InvalidInput } from '../../domain/validation/invalid-input.js';
import { requireId } from '../../domain/values/ids.js';
import { findRecall, openRecallQuery } from '../../reads/recalls/recall-records.js';
import type { ReadSide } from '../read-side.js';

/** not_asked: recall without a question; not_kept: asked of a subject with no key; erased: its key was destroyed. */
export type RecordedQuery = { readonly state: 'readable'; readonly text: string } | { readonly state: 'not_asked' | 'not_kept' | 'erased' };

export interface RecallAudit extends Omit<RecallServed, 'parameters'> {
  readonly tenant: string;
  readonly subject: string;
  readonly recordedAt: string;
  readonly actor: string | null;
  readonly parameters: Omit<RecallServed['parameters'], 'query' | 'asked'> & { readonly query: RecordedQuery };
}

export async function showRecall(
  read: Pick<ReadSide, 'eventStore' | 'keyStore'>,
  input: { readonly tenant: string; readonly subject: string; readonly recallId: string },
): Promise<RecallAudit> {
  const ref = { tenant: requireId('tenant', input.tenant), subject: requireId('subject', input.subject) };
  const recallId = requireId('recall', input.recallId);
  const found = await findRecall(read.eventStore, ref, recallId);
  if (!found) throw new InvalidInput('recall', `no recall ${recallId} was recorded for ${ref.tenant}/${ref.subject}`);
  const { parameters, ...served } = found.recall;
  const { query: sealed, asked, ...rest } = parameters;
  let query: RecordedQuery = { state: asked ? 'not_kept' : 'not_asked' };
  if (sealed) {
    const text = await openRecallQuery(read.keyStore, ref, recallId, sealed);
    query = text !== undefined ? { state: 'readable', text } : { state: 'erased' };
  }
  return { ...served, ...ref, recordedAt: found.recordedAt, actor: found.actor ?? null, parameters: { ...rest, query } };
}
