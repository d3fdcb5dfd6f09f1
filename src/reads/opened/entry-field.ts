// One sealed field of a memory entry under the memory's own key. The field's
// name (from SEALED_ENTRY_FIELDS) is bound into its envelope, and its
// plaintext is written as SEALED_ENTRY_PLAINTEXT says: sealing
// (commands/subject/seal-entry.ts) and every opening go through here.
import { SEALED_ENTRY_PLAINTEXT, type SealedEntryField } from '../../domain/entry/fields.js';
import type { MemoryEntry } from '../../domain/entry/entry.js';
import type { Sealed } from '../../domain/events/sealed.js';
import { open, seal } from '../../infrastructure/cipher/seal.js';

/** The memory a sealed field belongs to. */
export interface MemoryPlace {
  readonly tenant: string;
  readonly subject: string;
  readonly memoryId: string;
}

/** A text field opens as its text; a JSON field as the parsed JSON, for the caller to check. */
export type OpenedEntryField<F extends SealedEntryField> = (typeof SEALED_ENTRY_PLAINTEXT)[F] extends 'text' ? string : unknown;

export function sealEntryField<F extends SealedEntryField>(
  field: F,
  plain: NonNullable<MemoryEntry[F]>,
  key: Buffer,
  keyId: string,
  place: MemoryPlace,
): Sealed {
  const text = SEALED_ENTRY_PLAINTEXT[field] === 'json' ? JSON.stringify(plain) : (plain as string);
  return seal(text, key, keyId, { ...place, field });
}

export function openEntryField<F extends SealedEntryField>(field: F, sealed: Sealed, key: Buffer, place: MemoryPlace): OpenedEntryField<F> {
  const text = open(sealed, key, { ...place, field });
  return (SEALED_ENTRY_PLAINTEXT[field] === 'json' ? JSON.parse(text) : text) as OpenedEntryField<F>;
}
