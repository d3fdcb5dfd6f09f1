// The package's library entry (`import … from 'memledger'`): open a ledger,
// run the commands and the queries on it, and the types of what they take
// and answer. The HTTP client is `memledger/client` (src/client), which loads
// none of this.
export { openLedger, type OpenLedger } from './runtime/open-ledger.js';
export type { Ledger, CommandContext } from './commands/ledger.js';
export type { RetrievalPorts } from './infrastructure/retrieval-ports.js';

// Commands: each answers a Result (its result, or a rejection with a code of REJECTION_CODES).
export { recordMemory, supersedeMemory, type RecordResult } from './commands/record.js';
export { retractMemory, resolveConflict, changeTrust, expireMemories, type LifecycleResult } from './commands/lifecycle.js';
export { importEntries, type ImportResult } from './commands/import.js';
export { forgetMemory, forgetSubject, forgetSourceRef, type DeletionReceipt, type ErasureOptions } from './commands/forget.js';
export { readSideErasureChecks } from './queries/erasure/index.js';
export type { Result, Rejection, Rejected } from './domain/result/result.js';
export { REJECTION_CODES, type RejectionCode } from './domain/result/rejection-codes.js';

// Queries (recall, as-of, replay, lineage, …) and the read side they run on.
export * from './queries/index.js';

// Entries and events.
export { entrySchema, parseEntry, type MemoryEntry } from './domain/entry/entry.js';
export { MEMORY_KINDS, SENSITIVITIES, type MemoryKind, type Sensitivity } from './domain/entry/vocabulary.js';
export { SOURCE_TYPES, TRUST_LEVELS, type SourceType, type TrustLevel } from './domain/entry/source.js';
export { scopesSchema, type Scopes } from './domain/entry/scopes.js';
export { WRITE_OUTCOMES, type WriteOutcome } from './domain/subject/decision.js';
export {
  SUBJECT_EVENT_SCHEMAS,
  type SubjectEvent,
  type SubjectEventType,
  type SubjectEventOf,
  type SubjectEventData,
} from './domain/events/subject-events.js';
export { type ArtifactEvent, type ArtifactEventType, type ArtifactEventOf } from './domain/events/artifact-events.js';
export { subjectStreamName } from './domain/events/stream-names.js';
export { InvalidInput } from './domain/validation/invalid-input.js';
