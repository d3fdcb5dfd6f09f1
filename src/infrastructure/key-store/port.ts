// The key store port: per-subject and per-memory keys for crypto-shredding
// (DESIGN section 8). Forgetting destroys key material; anything sealed under
// it is unreadable from then on. A KMS-backed adapter can replace the
// PostgreSQL one behind this interface.

export interface SubjectRef {
  readonly tenant: string;
  readonly subject: string;
}

/** A subject's keys. Both derive from one stored secret, so forgetting the subject destroys both. */
export interface SubjectKeys {
  /** `sk_…`; the keyId of envelopes sealed with dataKey. */
  readonly keyId: string;
  /** AES-256-GCM key for the subject's own sealed values (e.g. summary text). */
  readonly dataKey: Buffer;
  /** HMAC-SHA256 key for keyed hashes (valueHash for fences and dedup). */
  readonly hashKey: Buffer;
}

/** One memory's AES-256-GCM key, stored wrapped by its subject. */
export interface MemoryKey {
  /** `mk_…`; the keyId of envelopes sealed with key. */
  readonly keyId: string;
  readonly memoryId: string;
  readonly key: Buffer;
}

export interface SealingKeys {
  readonly status: 'found';
  readonly subject: SubjectKeys;
  readonly memory: MemoryKey;
}

export interface KeyFound<K> {
  readonly status: 'found';
  readonly key: K;
  /** True when this call made the key. */
  readonly created: boolean;
}

/** One artifact's AES-256-GCM key (its output is sealed under it), stored wrapped by its subject. */
export interface ArtifactKey {
  /** `ak_…`; the keyId of the artifact's sealed output. */
  readonly keyId: string;
  readonly artifactId: string;
  readonly key: Buffer;
  /** HMAC-SHA256 key of the output's keyed hash; derives from `key`, so it goes with it. */
  readonly hashKey: Buffer;
}

/** What an artifact's output derives from: erasing any of it destroys the artifact's key. */
export interface ArtifactDerivation {
  /** Memory ids: the manifest's inputs and whatever the output cites. */
  readonly derivedFrom: readonly string[];
  /** The artifact it was built on: erasing what that one derives from reaches this one too. */
  readonly parentArtifactId: string | null;
}

/** The key was destroyed: sealed values under it are gone for good. */
export interface KeyForgotten {
  readonly status: 'forgotten';
  /** What was forgotten: the memory itself, an artifact (or what it derives from), or the whole subject. */
  readonly scope: 'memory' | 'artifact' | 'subject';
  readonly forgottenAt: Date;
}

/** No key was ever made (and none was asked for). */
export interface KeyAbsent {
  readonly status: 'absent';
}

export type KeyLookup<K> = KeyFound<K> | KeyForgotten | KeyAbsent;

export interface ForgetResult {
  /** False when it had already been forgotten (forgetting is idempotent). */
  readonly forgottenNow: boolean;
  /** Key ids whose material this call destroyed (empty on a repeat). */
  readonly destroyedKeyIds: readonly string[];
  /**
   * Every artifact whose output derives from what was forgotten (directly or
   * through its parents): their keys are destroyed now or were before.
   * Sorted. Absent only from adapters that keep no artifact keys.
   */
  readonly invalidatedArtifactIds?: readonly string[];
  readonly forgottenAt: Date;
}

export interface KeyIdEntry {
  readonly keyId: string | null;
  readonly state: 'live' | 'forgotten';
  readonly createdAt: Date | null;
  readonly forgottenAt: Date | null;
}

export interface SubjectKeyIds {
  /** Undefined when the subject has neither a key nor a tombstone. */
  readonly subject?: KeyIdEntry;
  readonly memories: ReadonlyArray<KeyIdEntry & { readonly memoryId: string }>;
}

export interface ArtifactKeyEntry extends KeyIdEntry {
  readonly artifactId: string;
  readonly derivedFrom: readonly string[];
  readonly parentArtifactId: string | null;
}

export interface SubjectAndMemoryKeys {
  readonly subject: KeyLookup<SubjectKeys>;
  readonly memories: ReadonlyMap<string, KeyLookup<MemoryKey>>;
}

export interface KeyStore {
  /** With `create`, makes the subject's keys if there are none; a forgotten subject stays forgotten. */
  subjectKeys(ref: SubjectRef, options: { readonly create: true }): Promise<KeyFound<SubjectKeys> | KeyForgotten>;
  subjectKeys(ref: SubjectRef, options?: { readonly create?: boolean }): Promise<KeyLookup<SubjectKeys>>;

  /** With `create`, makes the memory's key (and the subject's, if needed); a forgotten memory or subject stays forgotten. */
  memoryKey(ref: SubjectRef, memoryId: string, options: { readonly create: true }): Promise<KeyFound<MemoryKey> | KeyForgotten>;
  memoryKey(ref: SubjectRef, memoryId: string, options?: { readonly create?: boolean }): Promise<KeyLookup<MemoryKey>>;

  /**
   * What a record seals a new memory with: the subject's keys (its hash key
   * for the keyed hashes) and the memory's key, both made if there are none,
   * reading the subject's row once; a forgotten memory or subject stays
   * forgotten.
   */
  sealingKeys(ref: SubjectRef, memoryId: string): Promise<SealingKeys | KeyForgotten>;

  /** Reads many memory keys of one subject in one round trip (never creates). */
  memoryKeys(ref: SubjectRef, memoryIds: readonly string[]): Promise<ReadonlyMap<string, KeyLookup<MemoryKey>>>;

  /** The subject's keys with many of its memory keys, in the same round trip (never creates). */
  subjectAndMemoryKeys(ref: SubjectRef, memoryIds: readonly string[]): Promise<SubjectAndMemoryKeys>;

  /**
   * The subject's memory key epoch: it moves in every transaction that
   * destroys a memory key of the subject, and never back. The same epoch read
   * before some keys were found and again later proves none of them was
   * destroyed in between. Undefined when the subject has no live keys.
   */
  memoryKeyEpoch(ref: SubjectRef): Promise<string | undefined>;

  /**
   * With `create`, makes the artifact's key, recording what it derives from;
   * refused (KeyForgotten, scope 'artifact') when any of that was forgotten
   * already, so a summary generated during an erasure never gets a live key.
   */
  artifactKey(
    ref: SubjectRef,
    artifactId: string,
    options: { readonly create: ArtifactDerivation },
  ): Promise<KeyFound<ArtifactKey> | KeyForgotten>;
  artifactKey(ref: SubjectRef, artifactId: string, options?: { readonly create?: ArtifactDerivation }): Promise<KeyLookup<ArtifactKey>>;

  /** The artifact keys (ids and states, never material) that derive from these memories, through parents too. */
  artifactsDerivedFrom(ref: SubjectRef, memoryIds: readonly string[]): Promise<readonly ArtifactKeyEntry[]>;
  /** Every artifact key of a subject (ids and states). */
  listArtifactKeyIds(ref: SubjectRef): Promise<readonly ArtifactKeyEntry[]>;

  /**
   * Destroys one memory's key and leaves a tombstone so that id never gets a
   * key again; the keys of every artifact deriving from it go too.
   */
  forgetMemory(ref: SubjectRef, memoryId: string): Promise<ForgetResult>;
  /** The same for several memories of one subject, in one transaction. */
  forgetMemories(ref: SubjectRef, memoryIds: readonly string[]): Promise<ForgetResult>;
  /** Destroys the subject's secret and all its memory and artifact keys; the subject never gets keys again. */
  forgetSubject(ref: SubjectRef): Promise<ForgetResult>;

  /** Ids and states of a subject's keys, never key material (for audit and deletion receipts). */
  listKeyIds(ref: SubjectRef): Promise<SubjectKeyIds>;

  /**
   * How many unwrapped keys this process still holds in memory of the subject
   * (`'subject'`: any of its keys) or of these memories: the erasure check's
   * count, 0 once a forget went through this store. Absent: it holds none.
   */
  unwrappedKeysHeld?(ref: SubjectRef, of: 'subject' | readonly string[]): number;

  close(): Promise<void>;
}
