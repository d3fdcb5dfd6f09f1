// Which entries an erasure request reaches (pure). Entries a receipt already
// names are done; an entry that is forgotten but named by no receipt (an
// erasure that stopped between its tombstone and its receipt) is taken up
// again, so the next request finishes it instead of being refused.
//
// A source ref reaches the entries recorded from it, within the subject (the
// subject stream is the unit of consistency; a tenant-wide erasure of a ref
// is one request per subject). An entry the ref only corroborated stands on
// another source and stays.
import type { Rejection } from '../../domain/result/result.js';
import type { EntryState, SubjectState } from '../../domain/subject/state.js';
import type { ErasureHistory } from '../../reads/erasure/history.js';

export type ErasureRequest =
  | { readonly scope: 'memory'; readonly memoryId: string }
  | { readonly scope: 'subject' }
  | { readonly scope: 'source_ref'; readonly sourceRef: string }
  | { readonly scope: 'retention'; readonly memoryIds: readonly string[] };

export type ScopeResolution =
  { readonly ok: true; readonly memoryIds: readonly string[] } | { readonly ok: false; readonly rejection: Rejection };

const bySequence = (a: EntryState, b: EntryState) => a.sequence - b.sequence;

export function resolveScope(
  state: SubjectState,
  history: Pick<ErasureHistory, 'receipted' | 'subjectReceipted'>,
  request: ErasureRequest,
): ScopeResolution {
  const open = (e: { memoryId: string }) => !history.receipted.has(e.memoryId);
  const entries = [...state.entries.values()].sort(bySequence);
  switch (request.scope) {
    case 'memory': {
      const entry = state.entries.get(request.memoryId) ?? state.proposals.get(request.memoryId);
      if (!entry) return refuse('memory_not_found', `memory ${request.memoryId} does not exist`, 'memory');
      if (!open(entry)) return refuse('already_forgotten', `memory ${request.memoryId} was already forgotten`, 'memory');
      return { ok: true, memoryIds: [entry.memoryId] };
    }
    case 'subject':
      if (state.forgotten && history.subjectReceipted) return refuse('already_forgotten', 'the subject was already forgotten', 'subject');
      return { ok: true, memoryIds: [...entries.filter(open).map((e) => e.memoryId), ...openProposals(state, open)] };
    case 'source_ref': {
      const from = entries.filter((e) => e.source.refs.includes(request.sourceRef));
      if (from.length === 0)
        return refuse('memory_not_found', `no entry of the subject was recorded from ${request.sourceRef}`, 'sourceRef');
      const pending = from.filter(open);
      if (pending.length === 0)
        return refuse('already_forgotten', `every entry recorded from ${request.sourceRef} was already forgotten`, 'sourceRef');
      return { ok: true, memoryIds: pending.map((e) => e.memoryId) };
    }
    case 'retention': {
      const wanted = new Set(request.memoryIds);
      return { ok: true, memoryIds: entries.filter((e) => wanted.has(e.memoryId) && open(e)).map((e) => e.memoryId) };
    }
  }
}

/** Candidates never accepted (an accepted one is its entry), in id order: their keys go with the subject's, and the checks cover them. */
function openProposals(state: SubjectState, open: (p: { memoryId: string }) => boolean): string[] {
  return [...state.proposals.values()]
    .filter((p) => p.status !== 'accepted' && open(p))
    .map((p) => p.memoryId)
    .sort();
}

function refuse(code: Rejection['code'], message: string, field: string): ScopeResolution {
  return { ok: false, rejection: { code, message, field } };
}
