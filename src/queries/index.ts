// The read side's public surface (DESIGN section 7): what the CLI, the HTTP
// API and the package export call.
export {
  openReadSide,
  catchUp,
  catchUpWith,
  artifactStreams,
  ProjectionsBehind,
  type ReadSide,
  type OpenReadSide,
  type ReadSideOptions,
} from './read-side.js';
export { recall, RECALL_NOTICE, type RecallAnswer, type RecallReadSide } from './recall/recall.js';
export { DEFAULT_SENSITIVITY_CEILING, recallOptionsSchema, type RecallInput, type RecallOptions } from './recall/request.js';
export type { RetrievalReport } from './recall/retrieval/by-relevance.js';
export { RetrievalIndexCache, DEFAULT_INDEX_CACHE_LIMITS, type IndexCacheLimits } from './recall/retrieval/index-cache.js';
export type { RecallItem, MemoryItem, ClaimItem, OpenItemItem, ConflictItem, ConflictSide, MemoryProvenance } from './recall/items.js';
export { asOf } from './as-of.js';
export { replay } from './replay/replay.js';
export type { Belief, BeliefAnswer } from './belief.js';
export type { TimeQueryInput } from './time-query.js';
export { lineage, type Lineage, type LineageArtifact } from './lineage/lineage.js';
export { toProvJson, type ProvDocument } from './lineage/prov-json.js';
export { staleSet, type StaleSet } from './stale-set.js';
export { assess, type Assessment, type AssessInput } from './assess/assess.js';
export { verify, DEFAULT_SAMPLE, type VerifyInput } from './verify/verify.js';
export type { VerifyReport } from './verify/verify-report.js';
export { readSubjectEvents, type DecodedEvent } from './subject-events.js';
