// Typed failures of sealing and key wrapping. GCM cannot tell a tampered
// envelope from a wrong key or a wrong context, so one error covers all three.

/** An envelope failed authentication: altered, or opened with the wrong key or context. */
export class SealBroken extends Error {
  override readonly name = 'SealBroken';
  readonly code = 'seal_broken';
  constructor(readonly keyId: string) {
    super(`sealed value under key ${keyId} failed authentication: it was altered, or opened with the wrong key or context`);
  }
}

/** An envelope that is not an A256GCM envelope at all; `field` names the bad part. */
export class SealedMalformed extends Error {
  override readonly name = 'SealedMalformed';
  readonly code = 'sealed_malformed';
  constructor(
    readonly field: string,
    detail: string,
  ) {
    super(`malformed sealed value: ${field} ${detail}`);
  }
}

/** A wrapped key failed authentication (wrong wrapping key, moved between rows, or altered). */
export class KeyUnwrapFailed extends Error {
  override readonly name = 'KeyUnwrapFailed';
  readonly code = 'key_unwrap_failed';
  constructor(readonly keyId: string) {
    super(`wrapped key ${keyId} failed authentication: wrong wrapping key, or the row was altered or moved`);
  }
}

/** Key material of the wrong size handed to the cipher. */
export class KeyLengthInvalid extends Error {
  override readonly name = 'KeyLengthInvalid';
  readonly code = 'key_length_invalid';
  constructor(
    readonly field: string,
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`${field} must be ${expected} bytes, got ${actual}`);
  }
}
