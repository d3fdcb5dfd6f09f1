// Advisory lock keys (64-bit) derived from names, so that every process
// computes the same key without a table of them.
import { createHash } from 'node:crypto';

function keyOf(text: string): bigint {
  return BigInt.asIntN(64, createHash('sha256').update(`memledger:${text}`).digest().readBigUInt64BE(0));
}

/** Held (session level, on the connection that writes) by the one projector that applies events to a schema. */
export const ownerKey = (schema: string): bigint => keyOf(`projection-owner:${schema}`);
/** Transaction level: serializes changes to a projection's registry rows. */
export const registryKey = (projection: string): bigint => keyOf(`projection-registry:${projection}`);
/** Transaction level: readers share it; dropping a schema takes it exclusively, so no reader is cut off mid-read. */
export const readersKey = (projection: string): bigint => keyOf(`projection-readers:${projection}`);
