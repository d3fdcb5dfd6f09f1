// What the query side reads from: the projections' database (through the
// registry's active schema), the event store (replay, verify), the key store
// (personal fields are opened in memory only) and a tokenizer (recall packs
// to a token budget with the same tokenizer consolidation counts with).
import { ProjectionsBehind } from './projections-behind.js';
import { readArtifact } from '../reads/streams/artifact-stream.js';
import type { RetrievalPorts } from '../infrastructure/retrieval-ports.js';
import type { SubjectRepository } from '../reads/streams/subject-repository.js';
import { subjectStreamName } from '../domain/events/stream-names.js';
import type { CountTokens } from '../domain/consolidation/cold-tier.js';
import { comparePositions, formatPosition, parsePosition, type EventStore, type Position } from '../infrastructure/event-store/port.js';
import type { KeyStore } from '../infrastructure/key-store/port.js';
import { loadTokenCounter } from '../infrastructure/summarizer/tokenizer.js';
import { catchUpProjections, openProjectionDatabase } from '../projections/index.js';
import { LifecyclePolicyReader } from '../reads/lifecycle/lifecycle-policy-reader.js';
import type { CatchUpResult } from '../projections/runtime/catch-up.js';
import type { OpenLedger } from '../runtime/open-ledger.js';
import { RetrievalIndexCache } from './recall/retrieval/index-cache.js';
import type { ProjectionsKysely } from '../projections/runtime/schema-handles.js';

export interface ReadSide {
  /** The projections' PostgreSQL (registry and projection schemas). */
  readonly projections: ProjectionsKysely;
  readonly eventStore: EventStore;
  readonly keyStore: KeyStore;
  /** Folded subject streams (verify judges staleness from the log, not from the projection). */
  readonly subjects: SubjectRepository;
  readonly clock: () => Date;
  readonly countTokens: CountTokens;
  /** Retrieval indexes kept per subject revision for recall with a query (absent: built per query, kept nowhere). */
  readonly retrievalIndexes?: RetrievalIndexCache;
  /** The embedder and the sealed vectors (src/queries/semantic): absent or without an embedder, retrieval is lexical only. */
  readonly retrieval?: RetrievalPorts;
  /** The tenants' lifecycle policies (decay half-lives), kept folded (absent: read from the log per recall). */
  readonly lifecyclePolicies?: LifecyclePolicyReader;
}

export interface OpenReadSide extends ReadSide {
  /** Closes what openReadSide opened (not the ledger). */
  close(): Promise<void>;
}

export interface ReadSideOptions {
  readonly poolSize?: number;
  /** False for queries that count no tokens (loading the tokenizer takes a moment): recall and verify need it. */
  readonly tokenizer?: boolean;
}

export async function openReadSide(ledger: OpenLedger, options: ReadSideOptions = {}): Promise<OpenReadSide> {
  const database = await openProjectionDatabase(ledger.databaseUrl, options.poolSize !== undefined ? { poolSize: options.poolSize } : {});
  try {
    const countTokens = options.tokenizer === false ? noTokenizer : await loadTokenCounter();
    return {
      projections: database.db,
      eventStore: ledger.eventStore,
      keyStore: ledger.keyStore,
      subjects: ledger.subjects,
      clock: ledger.clock,
      countTokens,
      retrievalIndexes: new RetrievalIndexCache(),
      lifecyclePolicies: new LifecyclePolicyReader(ledger.eventStore),
      ...(ledger.retrieval ? { retrieval: ledger.retrieval } : {}),
      close: () => database.close(),
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

function noTokenizer(): number {
  throw new Error('this read side was opened without a tokenizer');
}

/** Every projection caught up to the stable head of the log as it is now. */
export function catchUp(read: Pick<ReadSide, 'eventStore' | 'projections'>): Promise<CatchUpResult[]> {
  return catchUpProjections(read.eventStore, read.projections);
}

/**
 * Every projection caught up through every event committed before the call:
 * the log's stable head alone can stop short of one committed while an older
 * transaction anywhere on the server still runs. For a query about no stream
 * in particular (a tenant-wide read, a sweep); it waits for that transaction
 * up to the store's timeout (LogHorizonTimeout), it does not answer short.
 */
export async function catchUpCommitted(read: Pick<ReadSide, 'eventStore' | 'projections'>): Promise<CatchUpResult[]> {
  await read.eventStore.awaitCommitted();
  return catchUp(read);
}

export { ProjectionsBehind };

const POLL_MS = 25;

/**
 * Read your own writes, for the streams a query is about: the projections
 * caught up at least through the last event of each stream. The log's head
 * that a plain catch-up reaches is its stable prefix, which a transaction
 * running anywhere on the server can hold back behind events already
 * committed — the caller's own included — so this waits until the
 * projections have applied them.
 */
export async function catchUpWith(
  read: Pick<ReadSide, 'eventStore' | 'projections'>,
  streams: readonly string[],
  options: { readonly waitMs?: number } = {},
): Promise<CatchUpResult[]> {
  const waitMs = options.waitMs ?? 30_000;
  let target: Position | undefined;
  for (const stream of streams) {
    const [last] = await read.eventStore.readStream(stream, { direction: 'backwards', maxCount: 1 });
    if (last && (!target || comparePositions(last.position, target) > 0)) target = last.position;
  }
  const started = Date.now();
  for (;;) {
    const results = await catchUp(read);
    if (!target || results.every((r) => r.checkpoint !== null && comparePositions(parsePosition(r.checkpoint), target) >= 0))
      return results;
    if (Date.now() - started > waitMs) throw new ProjectionsBehind(formatPosition(target), waitMs);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The streams a query about an artifact depends on: the artifact's own and its subject's (when it is this tenant's). */
export async function artifactStreams(store: EventStore, tenant: string, artifactId: string): Promise<string[]> {
  const record = await readArtifact(store, artifactId);
  const manifest = record.generated?.manifest ?? record.generationFailed?.manifest;
  return [record.stream, ...(manifest && manifest.tenant === tenant ? [subjectStreamName(manifest.tenant, manifest.subject)] : [])];
}
