// A vector sealed like content: its float32 bytes (little-endian, base64)
// under the memory's key, the model named in the associated data so that a
// vector moved to another model's row fails authentication.
import { open, seal, type SealContext } from '../cipher/seal.js';
import type { Sealed } from '../cipher/sealed.js';

const fieldOf = (model: string) => `vector/${model}`;

export function sealVector(vector: readonly number[], key: Buffer, keyId: string, place: SealContext, model: string): Sealed {
  const bytes = Buffer.from(Float32Array.from(vector).buffer);
  return seal(bytes.toString('base64'), key, keyId, { ...place, field: fieldOf(model) });
}

export function openVector(sealed: Sealed, key: Buffer, place: SealContext, model: string): number[] {
  const bytes = Buffer.from(open(sealed, key, { ...place, field: fieldOf(model) }), 'base64');
  if (bytes.length % 4 !== 0) throw new RangeError('a sealed vector must hold whole float32 values');
  // A copy: a Buffer's offset into its pool need not be float-aligned.
  return Array.from(new Float32Array(new Uint8Array(bytes).buffer));
}
