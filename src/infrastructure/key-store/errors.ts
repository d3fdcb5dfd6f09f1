// Typed failures of the key store and of finding the master key. A forgotten
// key is not an error (lookups return KeyForgotten); bad ids throw the
// domain's InvalidInput.

/** MEMLEDGER_MASTER_KEY (or the master key file) does not hold base64 of exactly 32 bytes. */
export class MasterKeyInvalid extends Error {
  override readonly name = 'MasterKeyInvalid';
  /** Configuration, refused before anything starts (exit 2). */
  readonly code = 'invalid_config';
  constructor(
    readonly source: string,
    detail: string,
  ) {
    super(`master key from ${source} is invalid: ${detail}`);
  }

  /** MEMLEDGER_MASTER_KEY, MEMLEDGER_MASTER_KEY_PREVIOUS[i] or the key file's path. */
  get field(): string {
    return this.source;
  }
}

/** The master key file can be read by other users; refuse it, as ssh does with private keys. */
export class MasterKeyFileExposed extends Error {
  override readonly name = 'MasterKeyFileExposed';
  readonly code = 'invalid_config';
  constructor(
    readonly path: string,
    readonly mode: number,
  ) {
    super(`master key file ${path} has mode ${(mode & 0o777).toString(8)}; it must be readable by its owner only (chmod 600)`);
  }

  get field(): string {
    return this.path;
  }
}

/**
 * A key row was wrapped by a master key this process does not hold, e.g. the
 * database was used with MEMLEDGER_MASTER_KEY and this process has none set.
 */
export class MasterKeyUnknown extends Error {
  override readonly name = 'MasterKeyUnknown';
  readonly code = 'master_key_unknown';
  constructor(
    readonly wantedId: string,
    readonly heldIds: readonly string[],
  ) {
    super(
      `key store rows are wrapped by master key ${wantedId}, but this process holds ${heldIds.join(', ') || 'none'}: ` +
        'set MEMLEDGER_MASTER_KEY (or MEMLEDGER_DATA_DIR) to the one this database was written with',
    );
  }
}
