export type { Sealed } from './sealed.js';
export { seal, open, type SealContext } from './seal.js';
export { keyedHash } from './keyed-hash.js';
export { wrapKey, unwrapKey } from './key-wrap.js';
export { newKey, requireKey, KEY_BYTES } from './key-material.js';
export { SealBroken, SealedMalformed, KeyUnwrapFailed, KeyLengthInvalid } from './errors.js';
