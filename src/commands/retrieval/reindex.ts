// The re-index door (issue 16): `memledger reindex --tenant T [--subject S]`
// and `POST /v1/vectors:reindex` / `POST /v1/subjects/{s}/vectors:reindex`
// run reindexVectors for one subject or for every subject of the tenant
// (from the log, like the retention sweep), one after another. Without an
// embedder there is nothing to compute: the answer says so (model null).
// A forgotten subject is passed over (its keys are gone).
import { z } from 'zod';
import { subjectStreamName } from '../../domain/events/stream-names.js';
import { parseWith } from '../../domain/validation/invalid-input.js';
import { subjectIdSchema, tenantIdSchema } from '../../domain/values/ids.js';
import { tenantSubjects } from '../forgetting/retention-sweep.js';
import type { Ledger } from '../ledger.js';
import { reindexVectors } from './vector-index.js';

/** One schema for both doors: the CLI's options and the HTTP call (tenant from the key, subject from the path). */
export const reindexRequestSchema = z.strictObject({ tenant: tenantIdSchema, subject: subjectIdSchema.optional() });
export type ReindexRequest = z.infer<typeof reindexRequestSchema>;

export function requireReindexRequest(input: unknown): ReindexRequest {
  const parsed = parseWith(reindexRequestSchema, input);
  if (!parsed.ok) throw parsed.error;
  return parsed.value;
}

export interface SubjectReindex {
  readonly subject: string;
  readonly embedded: number;
  readonly failed: number;
  readonly skipped: number;
  readonly upToDate: number;
  readonly failure?: { readonly code: string; readonly message: string };
}

export interface ReindexReport {
  readonly tenant: string;
  /** The embedding model vectors were computed with; null when no embedder is configured (nothing was done). */
  readonly model: string | null;
  readonly subjects: readonly SubjectReindex[];
  /** Subjects passed over because they were forgotten. */
  readonly forgotten: number;
  readonly totals: { readonly embedded: number; readonly failed: number; readonly skipped: number; readonly upToDate: number };
}

export async function reindexTenant(ledger: Ledger, input: unknown): Promise<ReindexReport> {
  const request = requireReindexRequest(input);
  const model = ledger.retrieval?.embedder?.model ?? null;
  const none = { embedded: 0, failed: 0, skipped: 0, upToDate: 0 };
  if (model === null) return { tenant: request.tenant, model, subjects: [], forgotten: 0, totals: none };
  if (request.subject === undefined) await ledger.eventStore.awaitCommitted();
  const names = request.subject !== undefined ? [request.subject] : await tenantSubjects(ledger.eventStore, request.tenant);
  const subjects: SubjectReindex[] = [];
  let forgotten = 0;
  for (const subject of names) {
    const { state } = await ledger.subjects.load(subjectStreamName(request.tenant, subject));
    if (state.forgotten) {
      forgotten += 1;
      continue;
    }
    const { embedded, failed, skipped, upToDate, failure } = await reindexVectors(ledger, { tenant: request.tenant, subject });
    subjects.push({ subject, embedded, failed, skipped, upToDate, ...(failure ? { failure } : {}) });
  }
  const totals = subjects.reduce(
    (sum, s) => ({
      embedded: sum.embedded + s.embedded,
      failed: sum.failed + s.failed,
      skipped: sum.skipped + s.skipped,
      upToDate: sum.upToDate + s.upToDate,
    }),
    none,
  );
  return { tenant: request.tenant, model, subjects, forgotten, totals };
}
