// The recall stream `recall-{tenant}/{subject}` (src/domain/events/recall-events.ts):
// appending what a recall served, finding one by its id, and its sealed query.
//
// Which key seals the question: a question is the subject's personal data and
// may repeat what the memories it found say (an auditor must not read an
// erased phone number back from "is +1 415 … the number to text?"). So it is
// sealed under a fresh key that is stored nowhere but as shares (XOR, all
// needed): one under the subject's data key, one under each served memory's
// key. Forgetting the subject or any served memory destroys a share, and the
// question with it. A question that served nothing goes with the subject only.
import { randomUUID } from 'node:crypto';
import { decodeStoredEvent, encodeEvent } from '../../domain/events/decode.js';
import type { RecallServed, SealedQuery } from '../../domain/events/recall-events.js';
import { recallStreamName } from '../../domain/events/stream-names.js';
import { SealBroken } from '../../infrastructure/cipher/errors.js';
import { freshRandomBytes } from '../../infrastructure/cipher/random-pool.js';
import { open, seal } from '../../infrastructure/cipher/seal.js';
import type { EventStore, StoredEvent } from '../../infrastructure/event-store/port.js';
import type { KeyLookup, KeyStore, MemoryKey, SubjectKeys, SubjectRef } from '../../infrastructure/key-store/port.js';

const TEXT_FIELD = 'recall.query';
const SHARE_FIELD = 'recall.query.share';
const PAGE = 512;

/** A recall's id: `r-` and a random UUID (recalls are never retried, each one is new). */
export const newRecallId = (): string => `r-${randomUUID()}`;

const xor = (a: Buffer, b: Buffer): Buffer => Buffer.from(a.map((byte, i) => byte ^ b[i]!));
const shareContext = (ref: SubjectRef, recallId: string, memoryId?: string) => ({
  ...ref,
  memoryId: memoryId ?? recallId,
  field: memoryId ? `${SHARE_FIELD}:${recallId}` : SHARE_FIELD,
});

/**
 * The question sealed as above; undefined when the subject has no key
 * (nothing recorded yet, or forgotten). `known`: served memories' keys the
 * recall read already (only the others are looked up); `knownSubject`: the
 * subject's, when it read them with those.
 */
export async function sealRecallQuery(
  keys: KeyStore,
  ref: SubjectRef,
  recallId: string,
  query: string,
  servedMemoryIds: readonly string[],
  known: ReadonlyMap<string, KeyLookup<MemoryKey>> = new Map(),
  knownSubject?: KeyLookup<SubjectKeys>,
): Promise<SealedQuery | undefined> {
  const ids = [...new Set(servedMemoryIds)].sort();
  const missing = ids.filter((id) => !known.has(id));
  const [subject, looked] = await Promise.all([
    knownSubject ?? keys.subjectKeys(ref),
    missing.length > 0 ? keys.memoryKeys(ref, missing) : new Map<string, KeyLookup<MemoryKey>>(),
  ]);
  if (subject.status !== 'found') return undefined;
  const memoryKeys = ids.map((id): [string, KeyLookup<MemoryKey> | undefined] => [id, known.get(id) ?? looked.get(id)]);
  const recallKey = freshRandomBytes(32);
  let rest: Buffer = recallKey;
  const shares: SealedQuery['shares'] = [];
  for (const [memoryId, found] of memoryKeys) {
    // A memory without a live key was not served (it could not be opened): it has no share.
    if (found?.status !== 'found') continue;
    const share = freshRandomBytes(32);
    rest = xor(rest, share);
    shares.push({ memoryId, share: seal(share.toString('base64'), found.key.key, found.key.keyId, shareContext(ref, recallId, memoryId)) });
  }
  shares.unshift({ share: seal(rest.toString('base64'), subject.key.dataKey, subject.key.keyId, shareContext(ref, recallId)) });
  return { text: seal(query, recallKey, `rq_${recallId}`, { ...ref, memoryId: recallId, field: TEXT_FIELD }), shares };
}

/** The question in clear, or undefined once a key it was shared under is destroyed; SealBroken when an envelope was altered. */
export async function openRecallQuery(keys: KeyStore, ref: SubjectRef, recallId: string, sealed: SealedQuery): Promise<string | undefined> {
  const memoryIds = sealed.shares.flatMap((s) => (s.memoryId ? [s.memoryId] : []));
  const [subject, memoryKeys] = await Promise.all([keys.subjectKeys(ref), keys.memoryKeys(ref, memoryIds)]);
  if (subject.status !== 'found') return undefined;
  let recallKey: Buffer = Buffer.alloc(32);
  for (const { memoryId, share } of sealed.shares) {
    const found = memoryId ? memoryKeys.get(memoryId) : undefined;
    const key = memoryId ? (found?.status === 'found' ? found.key : undefined) : { keyId: subject.key.keyId, key: subject.key.dataKey };
    if (!key) return undefined;
    if (key.keyId !== share.keyId) throw new SealBroken(share.keyId);
    recallKey = xor(recallKey, Buffer.from(open(share, key.key, shareContext(ref, recallId, memoryId)), 'base64'));
  }
  return open(sealed.text, recallKey, { ...ref, memoryId: recallId, field: TEXT_FIELD });
}

/**
 * Appends with `any`: every recall is a new event with a fresh id, never a
 * retry, and concurrent recalls of one subject must not refuse each other
 * (the port's caveat on `any` concerns recognising retries only).
 */
export async function appendRecall(store: EventStore, ref: SubjectRef, data: RecallServed, actor?: string): Promise<void> {
  const encoded = encodeEvent({ type: 'RecallServed', data });
  await store.append(
    recallStreamName(ref.tenant, ref.subject),
    [
      {
        id: randomUUID(),
        type: encoded.type,
        data: encoded.data,
        metadata: { schemaVersion: encoded.schemaVersion, correlationId: data.recallId, ...(actor !== undefined ? { actor } : {}) },
      },
    ],
    { expectedRevision: 'any' },
  );
}

export interface RecordedRecall {
  readonly recall: RecallServed;
  readonly recordedAt: string;
  readonly actor?: string;
}

const recordedOf = (stored: StoredEvent): RecordedRecall | undefined => {
  const event = decodeStoredEvent(stored);
  if (event.type !== 'RecallServed') return undefined;
  return {
    recall: event.data,
    recordedAt: stored.recordedAt.toISOString(),
    ...(stored.metadata.actor ? { actor: stored.metadata.actor } : {}),
  };
};

/** The first page findRecall reads: each record is tens of KB, and feedback follows its recall soon after. */
const NEWEST_PAGE = 4;

/**
 * The recall with this id, newest first (feedback follows its recall soon
 * after); undefined when the subject has none. Pages grow from NEWEST_PAGE to
 * PAGE: a first page of 512 records parsed megabytes for every feedback on a
 * subject that had served that many.
 */
export async function findRecall(store: EventStore, ref: SubjectRef, recallId: string): Promise<RecordedRecall | undefined> {
  const stream = recallStreamName(ref.tenant, ref.subject);
  let from: number | undefined;
  for (let size = NEWEST_PAGE; ; size = Math.min(PAGE, size * 4)) {
    const page = await store.readStream(stream, {
      direction: 'backwards',
      maxCount: size,
      ...(from !== undefined ? { fromRevision: from } : {}),
    });
    for (const stored of page) {
      if (stored.metadata.correlationId !== recallId) continue;
      const found = recordedOf(stored);
      if (found?.recall.recallId === recallId) return found;
    }
    const last = page.at(-1);
    if (page.length < size || !last || last.streamRevision === 0) return undefined;
    from = last.streamRevision - 1;
  }
}

/** Every recorded recall of the subject, oldest first (erasure checks, metrics). */
export async function readRecalls(store: EventStore, ref: SubjectRef): Promise<RecordedRecall[]> {
  const stream = recallStreamName(ref.tenant, ref.subject);
  const out: RecordedRecall[] = [];
  for (let from = 0; ;) {
    const page = await store.readStream(stream, { fromRevision: from, maxCount: PAGE });
    for (const stored of page) {
      const found = recordedOf(stored);
      if (found) out.push(found);
    }
    if (page.length < PAGE) return out;
    from += page.length;
  }
}
