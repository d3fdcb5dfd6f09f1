// What the command handlers need: the event store, the key store, the folded
// subject streams, a clock and the model ports of retrieval. Built once per
// process (see src/runtime).
import type { EventStore } from '../infrastructure/event-store/port.js';
import type { KeyStore } from '../infrastructure/key-store/port.js';
import type { VersionedWritePolicy, WriterCredential } from '../domain/policy/index.js';
import type { RetrievalPorts } from '../infrastructure/retrieval-ports.js';
import type { SubjectRepository } from '../reads/streams/subject-repository.js';

export interface Ledger {
  readonly eventStore: EventStore;
  readonly keyStore: KeyStore;
  readonly subjects: SubjectRepository;
  readonly clock: () => Date;
  /** Absent (or without an embedder): no vectors, retrieval is lexical only. */
  readonly retrieval?: RetrievalPorts;
  /** The tenants' write policies (src/commands/policy); absent: every tenant has the built-in default. */
  readonly writePolicies?: WritePolicySource;
  /** Told of every write the gate decided and the ledger then took (not replays): the service counts them for /metrics. */
  readonly onWriteGated?: (decision: WriteGateOutcome, ruleId: string) => void;
}

/** What became of a write at the gate: taken as memory, held as a candidate, or refused. */
export type WriteGateOutcome = 'accepted' | 'candidate' | 'rejected';

/** Where the write gate reads a tenant's current write policy; undefined: none was set. */
export interface WritePolicySource {
  current(tenant: string): Promise<VersionedWritePolicy | undefined>;
}

/** Who and which command: every write command takes these. */
export interface GivenKey {
  readonly value: string;
  readonly field: string;
}

export interface CommandContext {
  readonly tenant: string;
  readonly subject: string;
  /** Idempotency key; generated when the caller gives none. */
  readonly idempotencyKey?: string;
  /** The key as the client gave it and the field it came in (the API scopes its keys): a refusal names them. */
  readonly givenKey?: GivenKey;
  readonly actor?: string;
  readonly correlationId?: string;
  /** What the writer's key (or the CLI's actor) may claim as source type; absent: the operator's own process, bounded by nothing. */
  readonly credential?: WriterCredential;
}
