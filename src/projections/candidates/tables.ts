// The pending-candidates read model (issue 17): one row per write the gate
// holds for review while it waits (MemoryProposed until accepted, rejected,
// expired or forgotten), with the instant it expires, so the expiry sweep
// finds what is due with one indexed query. It holds no content, no key and
// no value: ids and an instant.
import type { Instant } from '../runtime/column-types.js';
import type { RuntimeDb } from '../runtime/registry.js';

export interface PendingCandidatesTable {
  tenant: string;
  subject: string;
  memory_id: string;
  expires_at: Instant;
}

export type CandidatesTables = { pending_candidates: PendingCandidatesTable };
export type CandidatesDb = CandidatesTables & RuntimeDb;
export const CANDIDATES_TABLES = ['pending_candidates'] as const satisfies readonly (keyof CandidatesTables)[];
