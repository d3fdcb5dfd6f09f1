// Personal fields enter events only as sealed envelopes; sealing happens
// outside the domain (the cipher adapter), the domain only carries them.
import { z } from 'zod';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export const sealedSchema = z.strictObject({
  alg: z.literal('A256GCM', { error: 'must be "A256GCM"' }),
  keyId: z
    .string({ error: 'must be a string' })
    .min(1, { error: 'must not be empty' })
    .max(256, { error: 'must be at most 256 characters' }),
  /** base64 of the 12-byte GCM nonce. */
  iv: z.string({ error: 'must be a base64 string' }).regex(BASE64, { error: 'must be base64' }).min(1, { error: 'must not be empty' }),
  /** base64 of ciphertext || 16-byte tag. */
  ct: z.string({ error: 'must be a base64 string' }).regex(BASE64, { error: 'must be base64' }).min(1, { error: 'must not be empty' }),
});
export type Sealed = z.output<typeof sealedSchema>;

/** Keyed hashes (HMAC-SHA256, hex) of canonical plaintext: compared, never reversed. */
export const keyedHashSchema = z
  .string({ error: 'must be a hex string' })
  .regex(/^[0-9a-f]{64}$/, { error: 'must be 64 lowercase hex digits (HMAC-SHA256)' });
