// Random bytes for nonces and one-time keys, drawn from a pool that
// randomFillSync fills 4 KiB at a time: a recall with a question seals it
// under some twenty shares, each a fresh key and a nonce, and one call into
// the CSPRNG per draw cost about 6 us each (3% of such a recall). Every byte
// is handed out once, as a copy, and wiped from the pool as it goes, so no
// key material lingers beside the caller's.
import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;

let pool = Buffer.alloc(0);
let used = 0;

/** `n` fresh random bytes from the CSPRNG, never handed out before. */
export function freshRandomBytes(n: number): Buffer {
  if (n > POOL_BYTES) return randomFillSync(Buffer.alloc(n));
  if (used + n > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafeSlow(POOL_BYTES));
    used = 0;
  }
  const drawn = Buffer.from(pool.subarray(used, used + n));
  pool.fill(0, used, used + n);
  used += n;
  return drawn;
}
