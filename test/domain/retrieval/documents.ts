// Retrieval documents for tests: a user's profile fact unless told otherwise.
import {
  buildRetrievalIndex,
  requireRetrievalQuery,
  retrieve,
  type RetrievalAnswer,
  type RetrievalDocument,
  type RetrievalHit,
  type RetrievalQueryInput,
} from '../../../src/domain/retrieval/index.js';

export const NOW = '2026-12-01T00:00:00.000Z';

export function doc(id: string, overrides: Partial<RetrievalDocument> = {}): RetrievalDocument {
  return {
    id,
    kind: 'profile',
    key: `fact.${id}`,
    trust: 'user_assertion',
    confidence: null,
    sensitivity: 'normal',
    recordedAt: '2026-11-01T00:00:00.000Z',
    ...overrides,
  };
}

export function ask(
  documents: readonly RetrievalDocument[],
  query: RetrievalQueryInput,
  context: { now?: string; queryVector?: number[] } = {},
): RetrievalAnswer {
  return retrieve(buildRetrievalIndex(documents), requireRetrievalQuery(query), {
    now: context.now ?? NOW,
    ...(context.queryVector ? { queryVector: context.queryVector } : {}),
  });
}

/** Each hit's document ids: a memory's members, a conflict's sides. */
export function idsOf(hit: RetrievalHit): string[] {
  return hit.type === 'memory' ? [...hit.members] : hit.sides.map((s) => s.id);
}

export const codes = (hit: RetrievalHit): string[] => hit.retrieval.reasons.map((r) => r.code);
