// Ids derived from a command's idempotency key (RFC 4122 version 5, SHA-1
// name-based), so a retried command produces the very same event and memory
// ids and the store recognises the retry.
import { createHash, randomUUID } from 'node:crypto';
import { canonicalJson } from '../../domain/canonical/canonical-json.js';

// A fixed namespace for memledger's name-based ids.
const NAMESPACE = Buffer.from('5f0b8c2e6d1a4e3f9a7c2b4d6e8f0a1c', 'hex');

export function uuidV5(name: string, namespace: Buffer = NAMESPACE): string {
  const hash = createHash('sha1').update(namespace).update(name, 'utf8').digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The idempotency key of a command the caller gave none for. */
export function newCommandId(): string {
  return randomUUID();
}

/**
 * The id of the index-th event a command appends to a stream. The stream is
 * part of the name: a caller's idempotency key names a command on one stream,
 * and an event id must never be stored in two streams (PostgreSQL refuses it,
 * EventStoreDB writes it again: the port leaves it undefined). With the hash
 * of the request (requestHashOf), the ids also say which request the key was
 * first used for: a key sent again with another request makes other ids, which
 * is how a reuse is told from a retry. (Commands without one have the key's
 * ids alone.)
 */
export function eventIdFor(stream: string, commandId: string, index: number, requestHash?: string): string {
  return uuidV5(
    requestHash === undefined ? `${stream}#${commandId}#event-${index}` : `${stream}#${commandId}#${requestHash}#event-${index}`,
  );
}

/** What makes two requests under one idempotency key the same request: the validated input, as RFC 8785 JSON, hashed. */
export function requestHashOf(request: unknown): string {
  return createHash('sha256').update(canonicalJson(request)).digest('hex');
}

/** Whether `firstEventId` (the first event a command appended to `stream`) came from this request, or from another one under the same key. */
export function sameRequest(stream: string, firstEventId: string, commandId: string, requestHash: string): boolean {
  return firstEventId === eventIdFor(stream, commandId, 0, requestHash) || firstEventId === eventIdFor(stream, commandId, 0);
}

/** A domain id (memory, conflict, receipt, artifact) derived from the command that makes it. */
export function derivedId(prefix: string, commandId: string, purpose: string): string {
  return `${prefix}-${uuidV5(`${commandId}#${purpose}`)}`;
}
