// Query-relevant retrieval over a subject's decrypted memories (DESIGN
// section 11, issue 16), pure: build an index from documents once (per
// subject revision), then retrieve(index, query, { now }) per question.
export type { RetrievalDocument } from './corpus/document.js';
export { buildRetrievalIndex, retrievalIndexSteps, type RetrievalIndex } from './corpus/retrieval-index.js';
export { updateRetrievalIndex } from './corpus/index-update.js';
export type { ConflictHit, ConflictSideHit, MemoryHit, RetrievalAnswer, RetrievalHit } from './hits.js';
export { DEFAULT_RETRIEVAL_POLICY, type RetrievalPolicy, type SignalName } from './ranking/policy.js';
export { withLifecycleHalfLives } from './ranking/lifecycle-half-lives.js';
export { sumOfContributions, type ReasonCode, type RetrievalExplanation, type RetrievalReason } from './ranking/reasons.js';
export { isWildcard, keyMatcher, keyPatternSchema } from './request/key-pattern.js';
export {
  DEFAULT_TOP_K,
  MAX_QUERY_BYTES,
  MAX_TOP_K,
  parseRetrievalQuery,
  requireRetrievalQuery,
  retrievalQuerySchema,
  type RetrievalQuery,
  type RetrievalQueryInput,
} from './request/query.js';
export { retrieve, type RetrievalContext } from './retrieve.js';
export { tokenize } from './text/tokenize.js';
